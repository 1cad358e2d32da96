import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { loginAs } from "../helpers/login.ts";
import { launchBrowser } from "../helpers/server.ts";

/**
 * The dashboard's Decisions card on the demo: the demo's decision hybrid-vs-bm25 waits
 * for the labels of its first batch; a second decision made from the command line has no basis
 * until the lead draws a batch with the card's button, which assigns the drawn questions. Only the
 * lead draws (the adjudicator reads, an annotator gets 403 from the route).
 * Build first: NEXT_DIST_DIR=.next-x npx next build; run with the same NEXT_DIST_DIR.
 */
const root = join(import.meta.dirname, "..", "..");
const testDb = useTestDatabase();
let browser: Browser;
let page: Page;
let projectId: number;

beforeAll(async () => {
  const demo = spawnSync(process.execPath, [join(root, "scripts", "demo.mjs")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: testDb.url, DEMO_NO_SERVE: "1" },
    encoding: "utf8",
    maxBuffer: 16 << 20,
  });
  if (demo.status !== 0) throw new Error(`demo loader failed (${demo.status}): ${demo.stderr}`);
  const made = runCli(
    ["decide", "create", "vector-vs-bm25", "--project", "demo", "--compare", "vector,bm25", "--measure", "recall@10"],
    { env: { DATABASE_URL: testDb.url } },
  );
  if (made.code !== 0) throw new Error(made.stderr);
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
  const { getDb } = await import("../../lib/db/client.ts");
  process.env.DATABASE_URL = testDb.url;
  projectId = (await (await getDb()).project.findUniqueOrThrow({ where: { name: "demo" } })).id;
}, 600_000); // the demo loader: about a minute alone, several on a loaded machine

afterAll(async () => {
  await browser?.close();
});

const card = () => page.locator(`[data-panel="decisions"]`);
const decision = (name: string) => card().locator(`[data-decision="${name}"]`);

describe("the Decisions card", () => {
  it("shows the demo's decision waiting for its drawn questions, and one without a basis yet", async () => {
    await loginAs(page, server.url, "lead@example.com", "demo-lead");
    await page.goto(`${server.url}/dashboard?project=${projectId}`);
    await decision("hybrid-vs-bm25").waitFor();
    expect(await decision("hybrid-vs-bm25").getAttribute("data-status")).toBe("labelling");
    expect(await decision("hybrid-vs-bm25").getByTestId("decision-status").textContent()).toMatch(
      /waiting for labels: 2 drawn question/,
    );
    expect(await decision("hybrid-vs-bm25").getByTestId("decision-pair").textContent()).toMatch(
      /^hybrid-rrf − bm25: [+−]\d\.\d{3} \[[+−]\d\.\d{3}, [+−]\d\.\d{3}\] \(provisional\)$/,
    );
    expect(await decision("vector-vs-bm25").getAttribute("data-status")).toBe("no_basis");
    // The demo's decision waits for labels: no button there.
    expect(await decision("hybrid-vs-bm25").getByRole("button").count()).toBe(0);
  });

  it("draws and assigns a batch with the button, by keyboard", async () => {
    const before = Number(
      JSON.parse(
        runCli(["decide", "show", "vector-vs-bm25", "--project", "demo", "--format", "json"], {
          env: { DATABASE_URL: testDb.url },
        }).stdout,
      ).state.drawn,
    );
    expect(before).toBe(0);
    const input = decision("vector-vs-bm25").getByLabel("Questions to draw");
    await input.fill("2");
    await input.press("Enter");
    await card().getByRole("status").filter({ hasText: "Batch 1: 2 question(s) drawn" }).waitFor();
    await page.waitForFunction(
      () => document.querySelector('[data-decision="vector-vs-bm25"]')?.getAttribute("data-status") !== "no_basis",
    );
    const after = JSON.parse(
      runCli(["decide", "show", "vector-vs-bm25", "--project", "demo", "--format", "json"], {
        env: { DATABASE_URL: testDb.url },
      }).stdout,
    ) as { state: { drawn: number } };
    expect(after.state.drawn).toBe(2);
  });

  it("draws a batch of the demo's decision between generators: the drawn questions' answers are assigned", async () => {
    const gen = decision("gen-a-vs-gen-b");
    expect(await gen.getAttribute("data-status")).toBe("no_basis");
    expect(await gen.textContent()).toMatch(/gen-a vs gen-b on faithfulness/);
    const input = gen.getByLabel("Questions to draw");
    await input.fill("1");
    await input.press("Enter");
    await card().getByRole("status").filter({ hasText: "Batch 1: 1 question(s) drawn" }).waitFor();
    // One question drawn among those not labelled yet (q01–q08 were, so they are certain): its
    // answers of gen-a and gen-b, each to the project's two annotators per answer.
    const shown = JSON.parse(
      runCli(["decide", "show", "gen-a-vs-gen-b", "--project", "demo", "--format", "json"], {
        env: { DATABASE_URL: testDb.url },
      }).stdout,
    ) as { state: { drawn: number; certain: number }; decision: { batches: { drawn: number[] }[] } };
    expect(shown.state.drawn).toBe(1);
    expect(shown.state.certain).toBe(8);
    const [queryId] = shown.decision.batches[0].drawn;
    const { getDb } = await import("../../lib/db/client.ts");
    const answers = await (
      await getDb()
    ).answer.findMany({
      where: { projectId, queryId },
      select: { system: true, _count: { select: { assignments: true } } },
      orderBy: { system: "asc" },
    });
    expect(answers.map((a) => [a.system, a._count.assignments])).toEqual([
      ["gen-a", 2],
      ["gen-b", 2],
    ]);
  });

  it("lets only the lead draw: the adjudicator reads, an annotator is refused", async () => {
    const adj = await server.cookie("adjudicator@example.com", "demo-adjudicator");
    const read = await fetch(`${server.url}/api/dashboard/${projectId}/decisions`, { headers: { Cookie: adj } });
    expect(read.status).toBe(200);
    const body = (await read.json()) as { decisions: { name: string }[] };
    expect(body.decisions.map((d) => d.name)).toEqual(["hybrid-vs-bm25", "gen-a-vs-gen-b", "vector-vs-bm25"]);
    const draw = await fetch(`${server.url}/api/dashboard/${projectId}/decisions`, {
      method: "POST",
      headers: { Cookie: adj, "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ decision: "vector-vs-bm25", budget: 1 }),
    });
    expect(draw.status).toBe(403);
    const ann = await server.cookie("ann1@example.com", "demo-ann1");
    expect(
      (await fetch(`${server.url}/api/dashboard/${projectId}/decisions`, { headers: { Cookie: ann } })).status,
    ).toBe(403);
  });
});
