import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { runCli } from "../helpers/cli.ts";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { apiSession, loginAs } from "../helpers/login.ts";
import { axeScan, describeViolations } from "../helpers/axe.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";

/**
 * Acceptance: the dashboard of the demo project in Chromium. The demo is loaded by its
 * own loader (scripts/demo.mjs, DEMO_NO_SERVE=1) into a fresh test database; it has one judge and
 * no final human labels yet, so the test imports, through the CLI as a lead would, a human label
 * set ("gold") and a second judge ("strict-judge") derived from the demo's judge file. Then it
 * switches judge, label source and slice, downloads a CSV and keeps a screenshot
 * (test-results/dashboard.png). The default judge is the most recent complete one (the
 * transfer judge covers part of its pool and is marked so), Back undoes a filter, a grade made
 * while the page is open shows without a reload, the charts draw zero bars on round ticks, and
 * the page fits 390 px.
 * Build first: NEXT_DIST_DIR=.next-dashboard npx next build; run with the same NEXT_DIST_DIR.
 */
const root = join(import.meta.dirname, "..", "..");
const testDb = useTestDatabase();
let browser: Browser;
let page: Page;
let dir: string;
let judgeLines: { query: string; chunk: string; grade: number }[];

function cli(args: string[]) {
  const r = runCli(args);
  if (r.code !== 0) throw new Error(`assessor ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  const demo = spawnSync(process.execPath, [join(root, "scripts", "demo.mjs")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: testDb.url, DEMO_NO_SERVE: "1" },
    encoding: "utf8",
    maxBuffer: 16 << 20,
  });
  if (demo.status !== 0) throw new Error(`demo loader failed (${demo.status}): ${demo.stderr}`);
  dir = mkdtempSync(join(tmpdir(), "assessor-dash-e2e-"));
  judgeLines = readFileSync(join(root, "demo", "judge.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { query: string; chunk: string; grade: number });
  // Human labels: the demo judge's grades, every fifth one lowered by one (so the two differ);
  // the strict judge: every grade lowered by one.
  writeFileSync(
    join(dir, "gold.qrels"),
    judgeLines.map((l, i) => `${l.query} 0 ${l.chunk} ${i % 5 === 0 ? Math.max(0, l.grade - 1) : l.grade}`).join("\n") +
      "\n",
  );
  writeFileSync(
    join(dir, "strict.qrels"),
    judgeLines.map((l) => `${l.query} 0 ${l.chunk} ${Math.max(0, l.grade - 1)}`).join("\n") + "\n",
  );
  cli(["import", "labels", "--project", "demo", "--chunking", "default", "--source", "gold", join(dir, "gold.qrels")]);
  cli([
    "import",
    "judge",
    "--project",
    "demo",
    "--chunking",
    "default",
    "--judge",
    "strict-judge",
    join(dir, "strict.qrels"),
  ]);
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 1000 } })).newPage();
});

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const select = (name: string) => page.getByLabel(name, { exact: true });
const judgesTable = () => page.getByTestId("judges-table");

describe("dashboard of the demo project", () => {
  it("opens with every judge side by side, on the most recent complete judge; the partial one is marked with its coverage", async () => {
    await loginAs(page, server.url, "lead@example.com", "demo-lead");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    await judgesTable().waitFor();
    const names = await judgesTable().locator("tbody tr td:first-child").allTextContents();
    // The demo's transfer judge (its second chunking, c40o0) is a judge like the others.
    expect(names).toEqual(["gpt-judge", "strict-judge", "transfer:default->c40o0"]);
    // 133 labels on both sides, every pair aligned.
    expect(await judgesTable().locator("tbody tr").first().locator("td").nth(1).textContent()).toBe(
      String(judgeLines.length),
    );
    // gpt-judge (the demo's) and strict-judge (imported after it) both label every pool item of the
    // default chunking: the later one is the default, not the first by name.
    await page.getByRole("heading", { name: "Judge strict-judge", exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get("judge")).toBeNull();
    await expect
      .poll(async () => (await page.getByTestId("judge-default").textContent()) ?? "")
      .toMatch(/^Judge strict-judge: the most recent complete judge \(the default\) \((\d+) of \1 pool items, 100%\)/);
    // The transfer judge labels part of c40o0's pool (the chunks the transfer rule could carry).
    const options = await select("Judge").locator("option").allTextContents();
    expect(options.find((o) => o.startsWith("transfer:"))).toMatch(
      /^transfer:default->c40o0 \(\d+ labels; partial: \d+% of the pool\)$/,
    );
    expect(options.find((o) => o.startsWith("gpt-judge"))).toBe(`gpt-judge (${judgeLines.length} labels)`);
  });

  it("a project that does not exist: every panel answers 404, the page says so and its picker shows no other project", async () => {
    const own = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
    try {
      await loginAs(own, server.url, "lead@example.com", "demo-lead");
      for (const panel of ["version", "meta", "calibration", "ppi", "retest", "generation"])
        expect((await own.request.get(`${server.url}/api/dashboard/999/${panel}`)).status(), panel).toBe(404);
      await own.goto(`${server.url}/dashboard?project=999`);
      await expect
        .poll(async () => (await own.getByTestId("project-missing").textContent()) ?? "")
        .toContain("Project 999 does not exist");
      const picker = own.getByLabel("Project", { exact: true });
      expect(await picker.inputValue()).toBe("");
      expect(await picker.locator("option").allTextContents()).toEqual(["choose a project", "demo"]);
      expect(await own.getByTestId("judges-table").count()).toBe(0);
      await picker.selectOption({ label: "demo" });
      await own.getByTestId("judges-table").waitFor();
    } finally {
      await own.context().close();
    }
  });

  it("switches the judge: the detail and the URL follow, and Back undoes it", async () => {
    await select("Judge").selectOption("gpt-judge");
    await page.getByRole("heading", { name: "Judge gpt-judge", exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get("judge")).toBe("gpt-judge");
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get("judge")).toBeNull();
    await page.getByRole("heading", { name: "Judge strict-judge", exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    await select("Judge").selectOption("gpt-judge");
    await page.getByRole("heading", { name: "Judge gpt-judge", exact: true }).waitFor();
    await select("Judge").selectOption("strict-judge");
    await page.getByRole("heading", { name: "Judge strict-judge", exact: true }).waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get("judge")).toBe("strict-judge");
    // The strict judge grades one lower wherever the human grade is ≥ 1: it leans strict.
    await expect
      .poll(() => page.locator('[data-panel="judge"]').getByText("(judge grades more strictly)").count())
      .toBe(1);
  });

  it("draws zero bars on round ticks and states the confusion matrix's normalisation", async () => {
    const judge = page.locator('[data-panel="judge"]');
    // The strict judge never gives grade 3 (every grade lowered by one): its grade-3 recall is 0,
    // drawn as a stub on the zero line rather than left out.
    const recall = judge
      .getByTestId("per-grade-chart")
      .locator(".recharts-bar-rectangles")
      .nth(1)
      .locator(".recharts-bar-rectangle");
    await expect.poll(() => recall.count()).toBe(4);
    const stub = await recall.nth(3).boundingBox();
    expect(stub?.height ?? 0).toBeGreaterThanOrEqual(1);
    expect(stub?.height ?? 99).toBeLessThan(4);
    // The y axis's tick labels (recharts draws every axis's ticks in one layer; the x axis's are names).
    const ticks = async (testId: string) =>
      (await judge.getByTestId(testId).first().locator(".recharts-cartesian-axis-tick-value").allTextContents())
        .filter((t) => /^[-−]?\d+(\.\d+)?$/.test(t))
        .map((t) => t.replace("−", "-"));
    expect(await ticks("per-grade-chart")).toEqual(["0", "0.2", "0.4", "0.6", "0.8", "1"]);
    expect(await ticks("ci-chart")).toEqual(["-0.2", "0", "0.2", "0.4", "0.6", "0.8", "1"]);
    expect(await judge.getByTestId("confusion-caption").first().textContent()).toContain(
      "shaded by their share of the row (each human grade's row is 100%)",
    );
  });

  it("draws charts whose labels stay apart: system names under the bars, and each scatter's legend clear of its axis title", async () => {
    // The systems chart names "hybrid-rrf" and "hybrid-rrf@c40o0" (the demo's second chunking): their labels ran together.
    const chart = page.locator('[data-panel="systems"]').getByTestId("ci-chart").first();
    await chart.locator(".recharts-cartesian-axis-tick-value").first().waitFor();
    const names = await chart.evaluate((el) =>
      [...el.querySelectorAll(".recharts-cartesian-axis-tick-value")]
        .filter((t) => !/^[-−]?\d+(\.\d+)?$/.test(t.textContent ?? ""))
        .map((t) => ({
          text: t.textContent ?? "",
          ...(JSON.parse(JSON.stringify(t.getBoundingClientRect())) as { left: number; right: number }),
        }))
        .sort((a, b) => a.left - b.left),
    );
    expect(names.map((n) => n.text)).toContain("hybrid-rrf@c40o0");
    const overlaps = names
      .slice(1)
      .filter((n, i) => n.left < names[i].right)
      .map((n, i) => `${names[i].text} / ${n.text}`);
    expect(overlaps).toEqual([]);
    // The scatters (the Generation card's when it has points): the legend's box and the x axis title's box do not meet.
    for (const testId of [
      "chunking-chart",
      ...((await page.getByTestId("generation-scatter").count()) > 0 ? ["generation-scatter"] : []),
    ]) {
      const scatter = page.getByTestId(testId);
      await scatter.locator(".recharts-legend-wrapper").waitFor({ timeout: 20_000 });
      const boxes = await scatter.evaluate((el) => {
        const box = (e: Element | null) =>
          e
            ? (JSON.parse(JSON.stringify(e.getBoundingClientRect())) as {
                left: number;
                right: number;
                top: number;
                bottom: number;
              })
            : null;
        return {
          legend: box(el.querySelector(".recharts-legend-wrapper")),
          title: box(el.querySelector(".recharts-label")),
        };
      });
      expect(boxes.title, testId).not.toBeNull();
      const [l, t] = [boxes.legend!, boxes.title!];
      const meet = l.left < t.right && t.left < l.right && l.top < t.bottom && t.top < l.bottom;
      expect(meet, `${testId}: legend ${JSON.stringify(l)} and axis title ${JSON.stringify(t)}`).toBe(false);
    }
  });

  it("switches the label source to both: two systems tables and Kendall's tau", async () => {
    await select("Label source").selectOption("both");
    await page.getByTestId("systems-judge").waitFor();
    await page.getByTestId("systems-human").waitFor();
    await page.getByTestId("tau-table").waitFor();
    expect(new URL(page.url()).searchParams.get("source")).toBe("both");
    const systems = await page.getByTestId("systems-human").locator("tbody tr td:first-child").allTextContents();
    expect(systems.map((s) => s.replace(/\s*\(baseline\)$/, "")).sort()).toEqual([
      "bm25",
      "bm25@c40o0",
      "hybrid-rrf",
      "hybrid-rrf@c40o0",
      "vector",
      "vector@c40o0",
    ]);
  });

  it("switches the label source to judge + human (PPI): the PPI card takes the systems table's place", async () => {
    await select("Label source").selectOption("ppi");
    await expect.poll(() => new URL(page.url()).searchParams.get("source")).toBe("ppi");
    await expect.poll(() => page.getByTestId("systems-human").count()).toBe(0);
    await page.getByTestId("systems-ppi").waitFor();
    const text = (await page.getByTestId("systems-ppi").textContent()) ?? "";
    expect(text).toMatch(/PPI \[/);
    expect(text).toMatch(/human /);
    expect(text).toMatch(/judge /);
    await select("Label source").selectOption("both");
    await page.getByTestId("systems-human").waitFor();
  });

  it("switches the slice to a query tag: fewer pairs, kept in the URL", async () => {
    await select("Slice: query tag").selectOption("named-entity");
    await expect.poll(() => new URL(page.url()).searchParams.get("tag")).toBe("named-entity");
    // Only the labels of the named-entity queries (demo/queries.jsonl) remain.
    const tagged = new Set(
      readFileSync(join(root, "demo", "queries.jsonl"), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; tags?: string[] })
        .filter((q) => q.tags?.includes("named-entity"))
        .map((q) => q.id),
    );
    const expected = judgeLines.filter((l) => tagged.has(l.query)).length;
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(judgeLines.length);
    await expect
      .poll(async () => Number(await judgesTable().locator("tbody tr").first().locator("td").nth(1).textContent()))
      .toBe(expected);
    // A reload keeps the view.
    await page.reload();
    await page.getByRole("heading", { name: "Judge strict-judge", exact: true }).waitFor();
    // The tag options arrive with the project's metadata; the select shows the URL's tag once they do.
    await expect.poll(async () => select("Slice: query tag").inputValue()).toBe("named-entity");
  });

  it("Back undoes the slice: every query again, still on the dashboard", async () => {
    await page.goBack();
    await expect.poll(() => new URL(page.url()).searchParams.get("tag")).toBeNull();
    expect(new URL(page.url()).pathname).toBe("/dashboard");
    expect(new URL(page.url()).searchParams.get("source")).toBe("both");
    await expect.poll(async () => select("Slice: query tag").inputValue()).toBe("");
    await expect
      .poll(async () => Number(await judgesTable().locator("tbody tr").first().locator("td").nth(1).textContent()))
      .toBe(judgeLines.length);
    await page.goForward();
    await expect.poll(() => new URL(page.url()).searchParams.get("tag")).toBe("named-entity");
  });

  it("downloads the judges table as CSV and keeps a screenshot", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV (judges side by side)" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("judges.csv");
    const csv = readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\n");
    expect(csv[0]).toBe(
      "Judge,n,κ,κ linear,κ quadratic,κ quad CI low,κ quad CI high,raw agreement,leniency,≥1 agr,≥1 κ,≥2 agr,≥2 κ",
    );
    expect(csv.slice(1).map((l) => l.split(",")[0])).toEqual(["gpt-judge", "strict-judge", "transfer:default->c40o0"]);
    // The chosen judge's confusion matrix: 4 × 4 counts that add up to its n in the judges table.
    const [confusion] = await Promise.all([
      page.waitForEvent("download"),
      page
        .locator('[data-panel="judge"]')
        .getByRole("button", { name: "Download CSV (confusion matrix)" })
        .first()
        .click(),
    ]);
    expect(confusion.suggestedFilename()).toMatch(/confusion\.csv$/);
    const matrix = readFileSync((await confusion.path())!, "utf8")
      .trim()
      .split("\n");
    expect(matrix[0]).toBe("human grade (rows) / judge grade (columns),0,1,2,3");
    expect(confusion.suggestedFilename()).toContain("strict-judge");
    expect(matrix.slice(1).map((l) => l.split(",")[0])).toEqual(["0", "1", "2", "3"]);
    const total = matrix.slice(1).reduce(
      (sum, l) =>
        sum +
        l
          .split(",")
          .slice(1)
          .reduce((a, v) => a + Number(v), 0),
      0,
    );
    expect(total).toBe(Number(await judgesTable().locator("tbody tr").nth(1).locator("td").nth(1).textContent()));
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "dashboard.png"), fullPage: true });
  });

  it("the Annotators card: each annotator's agreement with the reference, overturned grades and time, as CSV too; not for annotators", async () => {
    const card = page.locator('[data-panel="annotators"]');
    await card.getByTestId("annotator-row").first().waitFor();
    // The demo's two annotators graded 61 items each; its adjudications always took ann1's grade
    // (scripts/demo/seed-labels.ts), so one was overturned 12 times of 12 and the other never.
    expect(await card.getByTestId("annotator-row").count()).toBe(2);
    expect((await card.getByTestId("annotator-overturned").allTextContents()).sort()).toEqual(["0 / 12", "12 / 12"]);
    for (const k of await card.getByTestId("annotator-kappa-linear").allTextContents())
      expect(k).toMatch(/^[01]\.\d{3} \[[-−]?\d\.\d{3}, [01]\.\d{3}\]$/);
    expect(await card.getByTestId("annotator-peer").count()).toBe(1);
    expect(await card.getByTestId("annotator-model-bias").count()).toBe(2);
    // The ability model comes in a request of its own (part=model), "…" until it answers.
    await expect
      .poll(async () => card.getByTestId("annotators-model").textContent())
      .toMatch(/Dawid–Skene over 61 items/);
    for (const b of await card.getByTestId("annotator-model-bias").allTextContents()) expect(b).toMatch(/^[+−]\d/);
    // Two annotators: the card says why the model gives no intervals (lib/stats/annotators-model.ts).
    expect(await card.getByTestId("annotators-model-intervals").textContent()).toMatch(
      /^no intervals: 2 annotators, fewer than 3/,
    );
    // Nobody grades the demo in 3 s; at 600 s every grade counts as fast.
    expect(await card.getByTestId("annotator-fast").allTextContents()).toEqual(["0%", "0%"]);
    await card.getByLabel("Fast grade threshold (seconds)").fill("600");
    await expect.poll(async () => card.getByTestId("annotator-fast").allTextContents()).toEqual(["100%", "100%"]);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      card.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    const csv = readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\n");
    expect(csv[0].startsWith("annotator,compared_with,n,questions,kappa_linear")).toBe(true);
    // Per annotator: the reference, the page's judge and the other annotator; then their answer
    // labels (claims and relevance: the demo's answers q01–q08 are labelled by both).
    expect(csv).toHaveLength(1 + 2 * 3 + 2 * 2);
    expect(await card.getByTestId("annotator-answers-row").count()).toBe(2);
    const href = (await card.getByRole("link", { name: "Download CSV" }).getAttribute("href"))!;
    const ann = await apiSession(server.url, "ann1@example.com", "demo-ann1");
    expect((await fetch(`${server.url}${href}`, { headers: { Cookie: ann } })).status).toBe(403);
    const adj = await apiSession(server.url, "adjudicator@example.com", "demo-adjudicator");
    expect((await fetch(`${server.url}${href}`, { headers: { Cookie: adj } })).status).toBe(200);
    // The model part: not for annotators either; the adjudicator gets it; never as CSV (422).
    const modelHref = href.replace(/\?.*$/, "?part=model");
    expect((await fetch(`${server.url}${modelHref}`, { headers: { Cookie: ann } })).status).toBe(403);
    const modelPart = await fetch(`${server.url}${modelHref}`, { headers: { Cookie: adj } });
    expect(modelPart.status).toBe(200);
    expect(((await modelPart.json()) as { model: { items: number } }).model.items).toBe(61);
    const csvModel = await fetch(`${server.url}${modelHref}&format=csv`, { headers: { Cookie: adj } });
    expect(csvModel.status).toBe(422);
    expect(await csvModel.text()).toContain("part=model");
  });

  it("breakdowns: the CSV holds every figure per slice; a slice's name opens every panel on it", async () => {
    const table = page.getByTestId("breakdowns-table");
    await table.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV (breakdowns)" }).click(),
    ]);
    const csv = readFileSync((await download.path())!, "utf8")
      .trim()
      .split("\n");
    const header = csv[0].split(",");
    for (const col of [
      "by",
      "slice",
      "judge n (aligned pairs)",
      "judge kappa unweighted",
      "judge kappa linear",
      "judge kappa quadratic 95% CI low",
      "judge binary ≥2 kappa",
      "judge grade 3 recall",
      "human kappa quadratic",
    ])
      expect(header).toContain(col);
    expect(csv.slice(1).map((l) => l.split(",").slice(0, 2).join(" "))).toContain("system bm25");
    await table.getByRole("button", { name: "bm25", exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("system")).toBe("bm25");
    expect(new URL(page.url()).searchParams.get("tag")).toBeNull();
    await expect.poll(async () => select("Slice: system").inputValue()).toBe("bm25");
  });

  it("shows a grade made while the page is open, without a reload", async () => {
    const progress = page.locator('[data-panel="progress"]');
    const left = async () => Number(/(\d+) judgements left/.exec((await progress.textContent()) ?? "")?.[1] ?? NaN);
    await expect.poll(left).toBeGreaterThan(0);
    const before = await left();
    const { getDb } = await import("../../lib/db/client.ts");
    const db: Db = await getDb();
    // An annotator grades one of the items still waiting for them (as the annotate page does).
    const assignments = await db.assignment.findMany({
      where: { poolItem: { project: { name: "demo" } } },
      select: { poolItemId: true, userId: true },
      orderBy: { id: "asc" },
    });
    const judged = new Set(
      (
        await db.judgement.findMany({
          where: { poolItem: { project: { name: "demo" } } },
          select: { poolItemId: true, userId: true },
        })
      ).map((j) => `${j.poolItemId} ${j.userId}`),
    );
    const open = assignments.find((a) => !judged.has(`${a.poolItemId} ${a.userId}`))!;
    await submitJudgement(db, open.userId, {
      poolItemId: open.poolItemId,
      grade: 0,
      startSeconds: null,
      timeSpentMs: 4000,
      idempotencyKey: "e2e-dashboard-live-grade",
    });
    // The page polls the label-set version every 5 s (lib/query/dashboard.ts) and refetches on a change.
    const t0 = Date.now();
    await expect.poll(left, { timeout: 20_000, interval: 250 }).toBe(before - 1);
    expect(Date.now() - t0).toBeLessThan(15_000);
  });

  it("fits a 390 px wide screen: no sideways page scroll, tables scroll inside their own box, Sign out reachable", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.reload();
      await judgesTable().waitFor();
      await page.getByTestId("systems-human").waitFor();
      await page.getByTestId("breakdowns-table").waitFor();
      const widths = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        body: document.body.scrollWidth,
        view: window.innerWidth,
      }));
      expect(widths.view).toBe(390);
      expect(widths.page).toBeLessThanOrEqual(390);
      expect(widths.body).toBeLessThanOrEqual(390);
      // The judges table is wider than the screen: its own box scrolls.
      const box = await judgesTable().evaluate((t) => ({
        table: t.scrollWidth,
        box: t.parentElement!.clientWidth,
        overflow: getComputedStyle(t.parentElement!).overflowX,
      }));
      expect(box.table).toBeGreaterThan(box.box);
      expect(box.overflow).toBe("auto");
      // Every box that scrolls can be reached and scrolled by keyboard (axe: scrollable-region-focusable), nothing serious.
      await page.getByTestId("chunking-chart").waitFor();
      await page.waitForLoadState("networkidle");
      const violations = (await axeScan(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
      expect(describeViolations(violations)).toBe("");
      const signOut = await page.getByRole("button", { name: "Sign out" }).boundingBox();
      expect(signOut).not.toBeNull();
      expect(signOut!.x + signOut!.width).toBeLessThanOrEqual(390);
      mkdirSync(artifactsDir, { recursive: true });
      await page.screenshot({ path: join(artifactsDir, "dashboard-390.png"), fullPage: true });
    } finally {
      await page.setViewportSize({ width: 1440, height: 1000 });
    }
  });

  it("samples more items for calibration with the button: the pool's new items get assigned", async () => {
    // The gold import took its pooled items out of the queue (their assignments released): short
    // of the target, with unassigned items, the advice is to sample them, and the button can.
    const advice = page.getByTestId("calibration-advice");
    await expect.poll(() => advice.getAttribute("data-advice"), { timeout: 10_000 }).toBe("sample");
    // The card counts unassigned items as `status` does, and the pooled items with an imported label
    // (a sample may draw them, to re-grade) apart: "(N unassigned in the pool, M more with an imported label)".
    const amount = page.getByLabel(
      /^Items to sample \(\d+ unassigned in the pool(, \d+ more with an imported label)?\)$/,
    );
    const unassignedNow = async () => {
      const m = /\((\d+) unassigned in the pool(?:, (\d+) more with an imported label)?\)/.exec(
        (await page
          .getByText(/unassigned in the pool(, \d+ more with an imported label)?\)$/)
          .first()
          .textContent()) ?? "",
      );
      return Number(m?.[1]) + Number(m?.[2] ?? 0);
    };
    const first = await unassignedNow();
    expect(first).toBeGreaterThan(0);
    expect(await advice.textContent()).toMatch(
      /: sample \d+ more items? \(\d+ unassigned in the pool(, \d+ more with an imported label to re-grade)?\)\.$/,
    );
    // Sample all of them: nothing is left to sample, so the advice turns to finishing the assigned
    // items, and the Sample button is disabled.
    await amount.fill(String(first));
    await page.getByRole("button", { name: "Sample for calibration" }).click();
    await page
      .getByRole("status")
      .filter({ hasText: new RegExp(`^Assigned \\d+ labels on ${first} items`) })
      .waitFor();
    await expect.poll(() => advice.getAttribute("data-advice"), { timeout: 20_000 }).toBe("finish");
    expect(await advice.textContent()).toMatch(
      /Every pool item is assigned: finish the \d+ assigned items still waiting for grades/,
    );
    expect(await page.getByRole("button", { name: "Sample for calibration" }).isDisabled()).toBe(true);
    // A deeper pool adds unassigned items (the demo pools each run's top 5; its runs list 10).
    cli(["pool", "--project", "demo", "--depth", "10"]);
    // No reload: the open page picks the new pool up and the advice turns to sampling again.
    await expect.poll(() => advice.getAttribute("data-advice"), { timeout: 20_000 }).toBe("sample");
    await page.reload();
    await amount.waitFor();
    const unassigned = await unassignedNow();
    expect(unassigned).toBeGreaterThan(3);
    await amount.fill("3");
    await page.getByRole("button", { name: "Sample for calibration" }).click();
    // Two annotators per item (the demo project's setting): 3 items, 6 labels to make.
    await page
      .getByRole("status")
      .filter({ hasText: /^Assigned 6 labels on 3 items \(seed \d+\)\.$/ })
      .waitFor();
    await expect.poll(unassignedNow).toBe(unassigned - 3);
  });
});
