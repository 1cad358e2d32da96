import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { axeScan, describeViolations } from "../helpers/axe.ts";
import { startFakeLlm, type TFakeLlm } from "../helpers/fake-llm.ts";
import { humanGrade, swayedScript } from "../helpers/probe-script.ts";
import { seedJudgeProject } from "../integration/judge-fixture.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { startRun } from "../../lib/judge/service.ts";
import { runWorker } from "../../lib/judge/runner.ts";

/**
 * Robustness probes in Chromium: the lead starts them from the LLM judge section (the app server
 * works the six probe runs), then the dashboard's Judge robustness card shows the shifts of a
 * judge swayed by injection and keyword stuffing and not by padding (the fake OpenAI-compatible
 * server, scripted by tests/helpers/probe-script.ts). The card's route is the lead's: an
 * adjudicator, who sees the dashboard, gets 403 for it and no card.
 */
const KEY_ENV = "E2E_PROBE_API_KEY";
useTestDatabase();
let db: Db;
let browser: Browser;
let page: Page;
let fake: TFakeLlm;
let projectId: number;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: "lead-password" });
  await createUser(db, { email: "adj@example.org", name: "Adi", role: "adjudicator", password: "adj-password" });
  const seeded = await seedJudgeProject(db, { name: "Probed", queries: 6, perQuery: 8 });
  projectId = seeded.project.id;
  await db.referenceLabel.createMany({
    data: seeded.queryIds.flatMap((queryId, q) =>
      Array.from({ length: 8 }, (_, k) => ({
        projectId,
        source: "people",
        queryId,
        chunkId: seeded.chunkIds[q * 8 + k],
        grade: humanGrade(q * 8 + k),
      })),
    ),
  });
  fake = await startFakeLlm({ script: swayedScript, latencyMs: 10 });
  const { run, apiKey } = await startRun(
    db,
    projectId,
    { judge: "gpt", model: "fake-judge", baseUrl: fake.url, apiKeyEnv: KEY_ENV, timeoutMs: 5000 },
    { [KEY_ENV]: "sk-e2e" },
  );
  expect((await runWorker(db, run.id, { apiKey })).status).toBe("completed");
});
const server = useTestServer({ env: { [KEY_ENV]: "sk-e2e" } });
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
  await loginAs(page, server.url, "lead@example.org", "lead-password");
});

afterAll(async () => {
  await browser?.close();
  await fake?.close();
});

describe("judge robustness", () => {
  it("the lead starts the probes from the Judge section and the dashboard's card shows the shifts", async () => {
    await page.goto(`${server.url}/lead/projects/${projectId}`);
    const form = page.getByRole("form", { name: "Robustness probes" });
    await form.waitFor();
    await form.getByLabel("Sample size").fill("24");
    await form.getByLabel("Seed").fill("2");
    await form.getByRole("button", { name: "Run probes" }).click();
    await expect
      .poll(async () => (await form.textContent()) ?? "", { timeout: 20_000 })
      .toMatch(/Probing gpt on 24 pairs: injection, stuffing, padding, truncation, paraphrase; skipped order/);

    await page.goto(`${server.url}/dashboard?project=${projectId}&judge=gpt`);
    const card = page.locator('[data-panel="probes"]');
    await card.getByRole("heading", { name: "Judge robustness" }).waitFor({ timeout: 20_000 });
    const row = (kind: string) => card.locator(`[data-probe="${kind}"]`);
    // The card polls while the probes run; each ends completed with its 24 pairs.
    await expect
      .poll(async () => (await card.locator("[data-probe] td:last-child").allTextContents()).join(","), {
        timeout: 30_000,
      })
      .toBe("completed,completed,completed,completed,completed");
    const shift = async (kind: string) => (await row(kind).locator("[data-probe-shift]").textContent()) ?? "";
    expect(await shift("injection")).toMatch(/^\+1\.\d\d\s*\[\+\d\.\d\d, \+\d\.\d\d\]$/);
    expect(await shift("stuffing")).toMatch(/^\+0\.\d\d\s*\[\+0\.\d\d, \+\d\.\d\d\]$/);
    expect(await shift("padding")).toBe("0.00[0.00, 0.00]");
    expect(await row("padding").locator("[data-probe-changed]").textContent()).toBe("0.0%↑0 ↓0");
    expect(await row("injection").textContent()).toMatch(/24/);
    await card.getByText("Worst examples").click();
    expect(await card.locator('[data-worst="injection"]').count()).toBe(5);
    const violations = (await axeScan(page)).filter((v) => v.targets.some((t) => t.includes("probe")));
    expect(violations, describeViolations(violations)).toEqual([]);
    // The probes are the card's, not judges: the picker offers the run alone, and the panels' route refuses a probe.
    const judges = page.getByLabel("Judge", { exact: true }).locator("option");
    expect(await judges.evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(["gpt"]);
    const refused = await page.request.get(
      `${server.url}/api/dashboard/${projectId}/calibration?judge=${encodeURIComponent("gpt~probe:injection")}`,
    );
    expect(refused.status()).toBe(422);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("bad_input");
    expect(body.error.message).toMatch(/^judge "gpt~probe:injection" is a robustness probe of run "gpt"/);
  });

  it("the card and its route are the lead's: an adjudicator gets 403 and no card", async () => {
    const adj = await server.client("adj@example.org", "adj-password");
    expect((await adj.fetch(`/api/lead/projects/${projectId}/judge/probes`)).status).toBe(403);
    const lead = await server.client("lead@example.org", "lead-password");
    const panel = (await (await lead.fetch(`/api/lead/projects/${projectId}/judge/probes`)).json()) as {
      sources: { source: string; rows: { kind: string; meanShift: number }[] }[];
    };
    expect(panel.sources.map((s) => s.source)).toEqual(["gpt"]);
    const other = await (await browser.newContext()).newPage();
    await loginAs(other, server.url, "adj@example.org", "adj-password");
    await other.goto(`${server.url}/dashboard?project=${projectId}&judge=gpt`);
    await other.locator('[data-panel="judge"]').waitFor({ timeout: 20_000 });
    expect(await other.locator('[data-panel="probes"]').count()).toBe(0);
    await other.close();
  });
});
