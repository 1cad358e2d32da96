import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { seededRng } from "../../lib/stats/random.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeJudgeLabels, makeProject, makeQueries, makeRun } from "../helpers/factories.ts";

/**
 * The dashboard's "judge + human (PPI)" source and the queries-needed advisor on a generated
 * project: 30 questions × 4 pooled chunks; the judge labels every pair (the human grade 75% of the
 * time); imported human labels cover every pool item of q00–q11 (12 complete questions) and half
 * of q12's (not complete). q20–q29 carry the tag "late" (no complete question among them).
 */
useTestDatabase();
let db: Db;
let projectId: number;
const query = { source: "human" as const, gain: "exponential" as const };

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "ppi" });
  projectId = p.id;
  const qids = Array.from({ length: 30 }, (_, i) => `q${String(i).padStart(2, "0")}`);
  const docids = qids.flatMap((q) => [0, 1, 2, 3].map((k) => `${q}_c${k}`));
  const chunks = await makeChunks(db, p.id, docids);
  const queries = await makeQueries(db, p.id, qids);
  const ids = { queries, chunks };
  for (const q of qids.slice(20)) await db.queryTag.create({ data: { queryId: queries.get(q)!.id, tag: "late" } });
  const rng = seededRng(3);
  const runA: [string, string, number][] = [];
  const runB: [string, string, number][] = [];
  const judge: { queryId: number; chunkId: number; grade: number }[] = [];
  const gold: { projectId: number; source: string; queryId: number; chunkId: number; grade: number }[] = [];
  const pool: { projectId: number; queryId: number; chunkId: number }[] = [];
  qids.forEach((q, qi) => {
    for (let k = 0; k < 4; k++) {
      const docid = `${q}_c${k}`;
      const queryId = queries.get(q)!.id;
      const chunkId = chunks.get(docid)!.id;
      const grade = rng.int(4);
      judge.push({ queryId, chunkId, grade: rng.next() < 0.75 ? grade : rng.int(4) });
      if (qi < 12 || (qi === 12 && k < 2)) gold.push({ projectId: p.id, source: "gold", queryId, chunkId, grade });
      pool.push({ projectId: p.id, queryId, chunkId });
      runA.push([q, docid, 4 - k]);
      runB.push([q, docid, grade + rng.next() * 2]);
    }
  });
  await makeRun(db, p.id, "sysA", runA, ids);
  await makeRun(db, p.id, "sysB", runB, ids);
  await makeJudgeLabels(db, p.id, "j1", judge);
  await db.referenceLabel.createMany({ data: gold });
  await db.poolItem.createMany({ data: pool.map((x, i) => ({ ...x, id: `ppi-item-${i}` })) });
});

describe("dashboard: judge + human (PPI)", () => {
  it("the calibration panel counts complete questions next to labelled items", async () => {
    const { getCalibration } = await import("../../lib/dashboard/panels.ts");
    const c = await getCalibration(db, projectId, query);
    expect(c.overall).toMatchObject({ labelled: 50, questions: 30, completeQuestions: 12 });
    expect(c.byTag).toEqual([expect.objectContaining({ tag: "late", questions: 10, completeQuestions: 0 })]);
  });

  it("counts unassigned pool items as assessor status does; those with an imported label apart", async () => {
    const { getCalibration } = await import("../../lib/dashboard/panels.ts");
    const { stageCounts } = await import("../../lib/labels/stage.ts");
    const c = await getCalibration(db, projectId, query);
    const status = await stageCounts(db, projectId);
    // 120 pool items, none assigned; 50 of them carry an imported label (stage "imported").
    expect([status.unassigned, status.imported_pooled]).toEqual([70, 50]);
    expect([c.unassignedPoolItems, c.regradablePoolItems]).toEqual([status.unassigned, 50]);
    expect(c.advice.text).toContain("(70 unassigned in the pool, 50 more with an imported label to re-grade)");
  });

  it("PPI per run and measure: judge-only as the judge table, λ in [0, 1], paired difference and advisor", async () => {
    const { getPpi, getSystems } = await import("../../lib/dashboard/panels.ts");
    const panel = await getPpi(db, projectId, { ...query, delta: 0.1 });
    expect(panel.empty).toBeNull();
    const t = panel.table!;
    expect(t).toMatchObject({ questions: 30, labelled: 12, delta: 0.1, halfWidth: 0.05 });
    expect(t.columns.map((c) => c.id)).toEqual([
      "recall_5@1",
      "recall_10@1",
      "recip_rank@1",
      "recall_5@2",
      "recall_10@2",
      "recip_rank@2",
      "ndcg_cut_5",
      "ndcg_cut_10",
    ]);
    const judgeTable = (await getSystems(db, projectId, { ...query, source: "judge" })).tables[0];
    const nd = t.columns.findIndex((c) => c.id === "ndcg_cut_10");
    const jcol = judgeTable.columns.findIndex((c) => c.id === "ndcg_cut_10");
    for (const [r, row] of t.rows.entries()) {
      const cell = row.cells[nd];
      expect(cell.mean.judge!.estimate).toBeCloseTo(judgeTable.rows[r].cells[jcol].mean!, 12);
      expect(cell.mean.lambda).toBeGreaterThanOrEqual(0);
      expect(cell.mean.lambda).toBeLessThanOrEqual(1);
      expect(cell.mean.n).toBe(12);
      expect(cell.mean.unlabelled).toBe(18);
    }
    expect(t.rows[0].cells[nd].diff).toBeNull();
    expect(t.rows[1].cells[nd].diff!.p).not.toBeNull();
    expect(t.advisor).toHaveLength(8);
    expect(t.advisor.every((a) => a.system === "sysB" && a.sdSource === "human")).toBe(true);
  });

  it("no complete calibration question in the slice: a clear message", async () => {
    const { getPpi } = await import("../../lib/dashboard/panels.ts");
    const panel = await getPpi(db, projectId, { ...query, tag: "late" });
    expect(panel.table).toBeNull();
    expect(panel.empty).toMatch(/no question is completely human-labelled yet.*--sample-queries/);
  });

  it("a baseline that is not one of the runs: not found, naming the runs", async () => {
    const { getPpi } = await import("../../lib/dashboard/panels.ts");
    await expect(getPpi(db, projectId, { ...query, baseline: "nope" })).rejects.toThrow(
      /no run named "nope" in this project; runs: sysA, sysB/,
    );
  });

  it("a label change that completes a question moves it into the calibration set", async () => {
    const { getPpi } = await import("../../lib/dashboard/panels.ts");
    const q12 = await db.query.findFirstOrThrow({ where: { projectId, externalId: "q12" } });
    const missing = await db.poolItem.findMany({ where: { projectId, queryId: q12.id }, select: { chunkId: true } });
    const have = new Set(
      (await db.referenceLabel.findMany({ where: { projectId, queryId: q12.id }, select: { chunkId: true } })).map(
        (r) => r.chunkId,
      ),
    );
    await db.referenceLabel.createMany({
      data: missing
        .filter((m) => !have.has(m.chunkId))
        .map((m) => ({ projectId, source: "gold2", queryId: q12.id, chunkId: m.chunkId, grade: 1 })),
    });
    const { clearDashboardCache } = await import("../../lib/dashboard/data.ts");
    clearDashboardCache();
    const panel = await getPpi(db, projectId, query);
    expect(panel.table!.labelled).toBe(13);
  });
});

describe("dashboard PPI: intervals inside the measure's range, no advice without a basis", () => {
  it("clips every interval to [0, 1] (differences to [-1, 1]) and says no basis where the differences do not vary", async () => {
    // 8 complete questions of 2 chunks; sysA and sysB rank the same: recall@5 is 1 on 7 questions and 0 on
    // e07 (nothing relevant): mean 0.875, normal interval 0.875 ± 0.229 = [0.646, 1.104] unclipped.
    const p = await makeProject(db, { name: "ppi-edge" });
    const qids = Array.from({ length: 8 }, (_, i) => `e0${i}`);
    const chunks = await makeChunks(
      db,
      p.id,
      qids.flatMap((q) => [`${q}_c0`, `${q}_c1`]),
    );
    const queries = await makeQueries(db, p.id, qids);
    const ids = { queries, chunks };
    const run = qids.flatMap((q): [string, string, number][] => [
      [q, `${q}_c0`, 2],
      [q, `${q}_c1`, 1],
    ]);
    await makeRun(db, p.id, "sysA", run, ids);
    await makeRun(db, p.id, "sysB", run, ids);
    const labels = qids.flatMap((q) =>
      [0, 1].map((k) => ({
        queryId: queries.get(q)!.id,
        chunkId: chunks.get(`${q}_c${k}`)!.id,
        grade: k === 0 && q !== "e07" ? 2 : 0,
      })),
    );
    await makeJudgeLabels(db, p.id, "j1", labels);
    await db.referenceLabel.createMany({ data: labels.map((l) => ({ ...l, projectId: p.id, source: "gold" })) });
    await db.poolItem.createMany({
      data: labels.map((l, i) => ({ projectId: p.id, queryId: l.queryId, chunkId: l.chunkId, id: `edge-item-${i}` })),
    });
    const { getPpi } = await import("../../lib/dashboard/panels.ts");
    const t = (await getPpi(db, p.id, query)).table!;
    const r5 = t.columns.findIndex((c) => c.id === "recall_5@1");
    const a = t.rows[0].cells[r5].mean;
    expect(a.human!.estimate).toBeCloseTo(0.875, 12);
    expect(a.human!.high).toBe(1);
    expect(a.human!.low).toBeCloseTo(0.646, 3);
    for (const row of t.rows)
      for (const cell of row.cells) {
        for (const e of [cell.mean.ppi, cell.mean.human, cell.mean.judge])
          if (e) expect([e.low >= 0, e.high <= 1]).toEqual([true, true]);
        if (cell.diff?.ppi) expect([cell.diff.ppi.low >= -1, cell.diff.ppi.high <= 1]).toEqual([true, true]);
      }
    expect(t.advisor.length).toBe(8);
    expect(t.advisor.every((x) => x.noBasis === "no_spread" && x.toDetect === null && x.forHalfWidth === null)).toBe(
      true,
    );
  });
});
