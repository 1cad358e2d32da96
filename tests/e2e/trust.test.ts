import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliOk } from "../helpers/cli.ts";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { loginAs } from "../helpers/login.ts";
import { launchBrowser } from "../helpers/server.ts";
import { seedJudgeProject } from "../integration/judge-fixture.ts";

/**
 * The Judge trust card: a jury of two imported judges (one equal to the human labels, one a grade
 * lower on question q3) over 4 questions × 5 pooled chunks, three systems. The card shows the
 * jury's calibration from its members, the reliability diagram, the ranking agreement and the jury
 * beside its members; the trust report downloads (lead only: an adjudicator sees no card, and the
 * route answers 403).
 * Build first: NEXT_DIST_DIR=.next-x npx next build; run with the same NEXT_DIST_DIR.
 */
useTestDatabase();
let dir: string;
let projectId: number;
const human = (i: number) => (Math.floor(i / 5) + (i % 5)) % 4;
const docid = (i: number) => `c${String(i).padStart(4, "0")}`;

beforeAll(async () => {
  const db = await (await import("../../lib/db/client.ts")).getDb();
  dir = mkdtempSync(join(tmpdir(), "trust-e2e-"));
  projectId = (await seedJudgeProject(db, { name: "trust", queries: 4, perQuery: 5 })).project.id;
  const { createUser } = await import("../../lib/users/users.ts");
  await createUser(db, { email: "lead@example.org", name: "Lead", role: "lead", password: "lead-password" });
  await createUser(db, { email: "adj@example.org", name: "Adj", role: "adjudicator", password: "adj-password" });
  const ids = [...Array(20).keys()];
  writeFileSync(join(dir, "gold.qrels"), ids.map((i) => `q${Math.floor(i / 5)} 0 ${docid(i)} ${human(i)}\n`).join(""));
  runCliOk(["import", "labels", "--source", "gold", "--project", "trust", join(dir, "gold.qrels")]);
  for (const [name, shift] of [
    ["exact", 0],
    ["low", 1],
  ] as const) {
    const lines = ids.map((i) =>
      JSON.stringify({
        query: `q${Math.floor(i / 5)}`,
        chunk: docid(i),
        grade: i >= 15 ? Math.max(0, human(i) - shift) : human(i),
      }),
    );
    writeFileSync(join(dir, `${name}.jsonl`), `${lines.join("\n")}\n`);
    runCliOk(["import", "judge", "--judge", name, "--project", "trust", join(dir, `${name}.jsonl`)]);
  }
  [
    [0, 1, 2, 3, 4],
    [4, 3, 2, 1, 0],
    [2, 0, 4, 1, 3],
  ].forEach((order, s) => {
    const lines: string[] = [];
    for (let q = 0; q < 4; q++)
      order.forEach((k, rank) => lines.push(`q${q} Q0 ${docid(q * 5 + k)} ${rank + 1} ${10 - rank} sys${s}`));
    writeFileSync(join(dir, `sys${s}.run`), `${lines.join("\n")}\n`);
    runCliOk(["import", "run", "--system", `sys${s}`, "--project", "trust", join(dir, `sys${s}.run`)]);
  });
  runCliOk(["judge", "combine", "--judge", "jury", "--method", "median", "--project", "trust", "exact", "low"]);
}, 120_000);
const server = useTestServer();
let browser: Browser;
let page: Page;
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const card = () => page.locator(`[data-panel="trust"]`);

describe("the Judge trust card", () => {
  it("shows a jury's calibration, the reliability diagram, ranking agreement and the jury beside its members", async () => {
    await loginAs(page, server.url, "lead@example.org", "lead-password");
    await page.goto(`${server.url}/dashboard?project=${projectId}&judge=jury`);
    await card().getByTestId("trust-jury").waitFor();
    expect(await card().locator("h2").textContent()).toBe("Judge trust: jury");
    const jury = await card().getByTestId("trust-jury").locator("tbody tr").allTextContents();
    expect(jury.map((r) => r.split(" ")[0])).toEqual(["jury", "exact", "low"]);
    expect(jury[1]).toContain("20");
    const cal = await card().getByTestId("trust-calibration").locator("tbody tr").allTextContents();
    expect(cal[0]).toMatch(/^grade ≥ 120/);
    expect(await card().getByTestId("trust-reliability").locator("svg").count()).toBeGreaterThan(0);
    expect(await card().getByTestId("trust-ranking").locator("tbody tr").count()).toBe(2);
  });

  it("downloads the trust report (Markdown, with its hash), for the lead only", async () => {
    const href = await card().getByTestId("trust-report-md").getAttribute("href");
    const res = await page.request.get(`${server.url}${href}`);
    expect(res.status()).toBe(200);
    const text = await res.text();
    expect(text).toContain("# Trust report: judge jury");
    expect(text).toContain("## Jury and its members");
    expect(text).toContain(res.headers()["x-report-sha256"]);
    const adj = await (await browser.newContext()).newPage();
    await loginAs(adj, server.url, "adj@example.org", "adj-password");
    expect((await adj.request.get(`${server.url}${href}`)).status()).toBe(403);
    await adj.goto(`${server.url}/dashboard?project=${projectId}&judge=jury`);
    await adj.locator(`[data-panel="retest"], [data-panel="systems"]`).first().waitFor();
    expect(await adj.locator(`[data-panel="trust"]`).count()).toBe(0);
  });
});
