import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { loginAs } from "../helpers/login.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";
import {
  answerSpanRecall,
  referenceSpans,
  secondsRead,
  timeIou,
  timeStartError,
  type AnswerPlace,
} from "../../lib/stats/time/index.ts";
import { ndcg } from "../../lib/stats/measures/ndcg.ts";
import { UNJUDGED } from "../../lib/stats/measures/types.ts";

/**
 * Acceptance: the lead opens the dashboard of the demo project (loaded by
 * scripts/demo.mjs, DEMO_NO_SERVE=1) and sees the Chunkings card: both chunkings (default, c40o0)
 * × the three systems, with the numbers the test computes itself from the database: each run's
 * ranking (RunEntry, score descending, ties by docid descending), the chunks' times, the answer
 * question's reference spans (its places, and grade-3 human labels' corrected starts: lib/stats/time/reference.ts) and the pure
 * measures of lib/stats (not the dashboard's assembly), and nDCG@10 on human labels where present,
 * else the transfer judge's.
 * Build first: NEXT_DIST_DIR=.next-<branch> npx next build; run with the same NEXT_DIST_DIR.
 */
const root = join(import.meta.dirname, "..", "..");
const testDb = useTestDatabase();
let browser: Browser;
let page: Page;

/** As the card prints a value (components/dashboard/DataTable.tsx fmt): "–" where there is none. */
const fmt = (v: number | null, digits: number) => (v === null || Number.isNaN(v) ? "–" : v.toFixed(digits));

type Expected = { chunking: string; system: string; values: Record<string, string> };
let expected: Expected[] = [];

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const mean = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.reduce((s, x) => s + x, 0) / v.length;
};

async function expectedRows(): Promise<Expected[]> {
  const { getDb } = await import("../../lib/db/client.ts");
  const { referenceLabels } = await import("../../lib/labels/reference.ts");
  const db = await getDb();
  const project = await db.project.findUniqueOrThrow({ where: { name: "demo" } });
  const [queries, runs, chunks, human, transfer] = await Promise.all([
    db.query.findMany({ where: { projectId: project.id }, include: { places: { include: { video: true } } } }),
    db.run.findMany({
      where: { projectId: project.id },
      include: { chunking: true, entries: { include: { chunk: true, query: true } } },
    }),
    db.chunk.findMany({ where: { projectId: project.id }, include: { video: true } }),
    referenceLabels(db, project.id),
    db.judgeLabel.findMany({ where: { projectId: project.id, judge: "transfer:default->c40o0" } }),
  ]);
  const videoOf = new Map(chunks.map((c) => [c.id, c.video.externalId]));
  // Reference spans: the places (start, end when given) and grade-3 human labels' corrected starts.
  const references = new Map<string, AnswerPlace[]>();
  for (const q of queries) {
    const starts = human
      .filter((h) => h.qid === q.externalId && h.grade === 3 && h.startSeconds !== null)
      .map((h) => ({ video: h.video, start: h.startSeconds! }));
    const given = q.places.map((p) => ({
      video: p.video?.externalId ?? null,
      start: p.startSeconds,
      end: p.endSeconds,
    }));
    references.set(q.externalId, referenceSpans(given, starts));
  }
  const out: Expected[] = [];
  for (const run of runs) {
    const times = new Map(
      chunks
        .filter((c) => c.chunkingId === run.chunkingId)
        .map((c) => [c.externalId, { video: videoOf.get(c.id)!, start: c.startSeconds, end: c.endSeconds }]),
    );
    const rankings = new Map<string, string[]>();
    const rankedIds = new Map<number, number[]>();
    for (const q of queries) {
      const entries = run.entries
        .filter((e) => e.queryId === q.id)
        .sort((a, b) => b.score - a.score || byteOrder(b.chunk.externalId, a.chunk.externalId));
      rankings.set(
        q.externalId,
        entries.map((e) => e.chunk.externalId),
      );
      rankedIds.set(
        q.id,
        entries.map((e) => e.chunkId),
      );
    }
    const input = { rankings, chunks: times, references };
    // Labels of the run's chunking: human where present, else the transfer judge's.
    const own = new Set(chunks.filter((c) => c.chunkingId === run.chunkingId).map((c) => c.id));
    const ndcgs: number[] = [];
    for (const q of queries) {
      const labels = new Map<number, number>();
      for (const t of transfer) if (t.queryId === q.id && own.has(t.chunkId)) labels.set(t.chunkId, t.grade);
      for (const h of human) if (h.queryId === q.id && own.has(h.chunkId)) labels.set(h.chunkId, h.grade);
      if (labels.size === 0) continue;
      const ids = rankedIds.get(q.id)!;
      const atGrade = [0, 1, 2, 3].map((g) => [...labels.values()].filter((x) => x === g).length);
      ndcgs.push(
        ndcg(
          { qid: q.externalId, grades: ids.map((id) => labels.get(id) ?? UNJUDGED), judgedAtGrade: atGrade },
          { cutoff: 10, gain: "exponential" },
        ),
      );
    }
    const system = run.system.replace(`@${run.chunking.name}`, "");
    out.push({
      chunking: run.chunking.name,
      system,
      values: {
        // The card writes "–" where a measure has no value (time-IoU needs places with an end; the demo's have none).
        span_recall_5: fmt(answerSpanRecall(input, { k: 5 }).mean, 3),
        span_recall_10: fmt(answerSpanRecall(input, { k: 10 }).mean, 3),
        time_iou_10: fmt(timeIou(input, { k: 10 }).mean, 3),
        seconds_read_10: fmt(secondsRead(input, { k: 10 }).mean, 1),
        start_error: fmt(timeStartError(input).mean.error, 1),
        ndcg_cut_10: mean(ndcgs).toFixed(3),
      },
    });
  }
  return out.sort((a, b) =>
    a.chunking === b.chunking ? byteOrder(a.system, b.system) : a.chunking === "default" ? -1 : 1,
  );
}

beforeAll(async () => {
  const demo = spawnSync(process.execPath, [join(root, "scripts", "demo.mjs")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: testDb.url, DEMO_NO_SERVE: "1" },
    encoding: "utf8",
    maxBuffer: 16 << 20,
  });
  if (demo.status !== 0) throw new Error(`demo loader failed (${demo.status}): ${demo.stderr}`);
  expected = await expectedRows();
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
}, 900_000);

afterAll(async () => {
  await browser?.close();
});

describe("the Chunkings card of the demo project", () => {
  it("shows both chunkings × the three systems with the numbers computed from the database", async () => {
    expect(expected.map((e) => `${e.chunking} ${e.system}`)).toEqual([
      "default bm25",
      "default hybrid-rrf",
      "default vector",
      "c40o0 bm25",
      "c40o0 hybrid-rrf",
      "c40o0 vector",
    ]);
    await loginAs(page, server.url, "lead@example.com", "demo-lead");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Dashboard" }).click();
    const card = page.locator('[data-panel="chunkings"]');
    const table = card.getByTestId("chunking-table");
    await table.waitFor();
    await expect.poll(() => table.locator("tbody tr").count()).toBe(6);
    const rows = table.locator("tbody tr");
    for (let i = 0; i < expected.length; i++) {
      const row = rows.nth(i);
      const cells = await row.locator("td").allTextContents();
      expect(cells[0].replace(/\s*\(baseline\)$/, "")).toBe(expected[i].chunking);
      expect(cells[1]).toBe(expected[i].system);
      for (const [col, value] of Object.entries(expected[i].values))
        expect(
          await row.locator(`[data-col="${col}"] [data-value]`).textContent(),
          `${expected[i].chunking} ${expected[i].system} ${col}`,
        ).toBe(value);
      // c40o0 is compared with the same system on the baseline (default), and is labelled by the transfer judge with its audit.
      if (expected[i].chunking === "c40o0") {
        expect(await row.locator('[data-col="seconds_read_10"]').textContent()).toMatch(/Δ [+-]\d+\.\d, p=\d\.\d{3}/);
        expect(cells[cells.length - 1]).toContain("transfer:default->c40o0");
        expect(cells[cells.length - 1]).toContain("8 audited questions");
      }
    }
    await expect.poll(() => card.getByText("Baseline: default").count()).toBe(1);
    // The trade-off chart: one point per row.
    await expect.poll(() => card.getByTestId("chunking-chart").locator(".recharts-scatter-symbol").count()).toBe(6);
    await card.screenshot({ path: join(artifactsDir, "chunkings-card.png") });
  });
});
