import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { dcg, idealDcg } from "../../lib/stats/measures/ndcg.ts";
import { seededRng } from "../../lib/stats/random.ts";
import { createTestDatabase, type TestDb } from "../helpers/db.ts";
import { makeChunks, makeJudgeLabels, makeProject, makeQueries, makeRun, makeUser } from "../helpers/factories.ts";

/**
 * A decision between one system on two chunkings (a system re-run on another chunking is a run of
 * its own on that chunking): 30 questions, each with 3 chunks in chunking A and 3 in chunking B,
 * every one pooled; "sys@A" ranks A's chunks by their true grade, "sys@B" ranks B's at random.
 * Each system is measured against the labels of its own chunking's pool (the ideal DCG from its
 * chunking's grades alone), paired by question. With every question drawn (τ = 1, budget = all,
 * so π = 1 and the estimate is the plain mean) and graded, the estimate is the mean difference
 * computed by hand below, and not the one that mixes both chunkings' labels in the ideal DCG.
 */
let tdb: TestDb;
let db: Db;
let projectId: number;
const truth = new Map<string, number>(); // "queryId:chunkId" → grade
const Q = 30;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "decide-chunkings", annotatorsPerItem: 2 });
  projectId = p.id;
  await makeUser(db, { role: "annotator" });
  await makeUser(db, { role: "annotator" });
  const qids = Array.from({ length: Q }, (_, i) => `q${String(i).padStart(2, "0")}`);
  const docids = qids.flatMap((q) => ["a0", "a1", "a2", "b0", "b1", "b2"].map((k) => `${q}_${k}`));
  const chunks = await makeChunks(db, projectId, docids);
  const queries = await makeQueries(db, projectId, qids);
  await db.query.updateMany({ where: { projectId }, data: { status: "accepted" } });
  const b = await db.chunking.create({ data: { projectId, name: "B", method: "seconds", size: 60, overlap: 0 } });
  await db.chunk.updateMany({ where: { projectId, externalId: { endsWith: "_b0" } }, data: { chunkingId: b.id } });
  await db.chunk.updateMany({ where: { projectId, externalId: { endsWith: "_b1" } }, data: { chunkingId: b.id } });
  await db.chunk.updateMany({ where: { projectId, externalId: { endsWith: "_b2" } }, data: { chunkingId: b.id } });
  const rng = seededRng(21);
  const runA: [string, string, number][] = [];
  const runB: [string, string, number][] = [];
  const judge: { queryId: number; chunkId: number; grade: number }[] = [];
  for (const q of qids) {
    const grades = new Map<string, number>();
    for (const k of ["a0", "a1", "a2", "b0", "b1", "b2"]) grades.set(k, rng.int(4));
    ["a0", "a1", "a2"]
      .sort((x, y) => grades.get(y)! - grades.get(x)!)
      .forEach((k, i) => runA.push([q, `${q}_${k}`, 10 - i]));
    ["b0", "b1", "b2"]
      .map((k) => ({ k, s: rng.next() }))
      .sort((x, y) => y.s - x.s)
      .forEach(({ k }, i) => runB.push([q, `${q}_${k}`, 10 - i]));
    for (const [k, g] of grades) {
      const queryId = queries.get(q)!.id;
      const chunkId = chunks.get(`${q}_${k}`)!.id;
      truth.set(`${queryId}:${chunkId}`, g);
      judge.push({ queryId, chunkId, grade: rng.next() < 0.7 ? g : rng.int(4) });
      await db.poolItem.create({ data: { projectId, queryId, chunkId } });
    }
  }
  await makeRun(db, projectId, "sys@A", runA, { queries, chunks });
  const runOnB = await makeRun(db, projectId, "sys@B", runB, { queries, chunks });
  await db.run.update({ where: { id: runOnB.id }, data: { chunkingId: b.id } });
  await makeJudgeLabels(db, projectId, "j1", judge);
});

afterAll(async () => {
  await tdb.cleanup();
});

describe("a decision between one system on two chunkings", () => {
  it("measures each system on its own chunking's pool labels, paired by question", async () => {
    const { createDecision, decisionReport, findDecision } = await import("../../lib/decisions/store.ts");
    const { drawBatch } = await import("../../lib/decisions/draw.ts");
    const { submitJudgement } = await import("../../lib/labels/submit.ts");
    await createDecision(db, projectId, { name: "chunk-size", systems: ["sys@A", "sys@B"], measure: "ndcg@10" });
    const batch = await drawBatch(db, projectId, "chunk-size", { budget: Q, perItem: 2, seed: 3, tau: 1 });
    expect(batch.drawn).toHaveLength(Q);
    const assigned = await db.assignment.findMany({
      select: { poolItemId: true, userId: true, poolItem: { select: { queryId: true, chunkId: true } } },
    });
    // Both chunkings' pooled pairs of every question, to both annotators.
    expect(assigned).toHaveLength(Q * 6 * 2);
    let n = 0;
    for (const a of assigned)
      await submitJudgement(db, a.userId, {
        poolItemId: a.poolItemId,
        grade: truth.get(`${a.poolItem.queryId}:${a.poolItem.chunkId}`)!,
        startSeconds: null,
        notes: "",
        flags: [],
        timeSpentMs: 1000,
        idempotencyKey: `chunkings-key-${n++}`,
      });
    const r = await decisionReport(db, projectId, await findDecision(db, projectId, "chunk-size"));
    expect(r.state.pending).toBe(0);
    expect(r.state.status).not.toBe("labelling");

    // By hand: nDCG@10 (linear gain) of each run with the grades of its own chunking's chunks only.
    const runs = await db.run.findMany({
      where: { projectId },
      include: { entries: { orderBy: { rank: "asc" } } },
      orderBy: { system: "asc" },
    });
    const chunkingOf = new Map(
      (await db.chunk.findMany({ where: { projectId }, select: { id: true, chunkingId: true } })).map((c) => [
        c.id,
        c.chunkingId,
      ]),
    );
    const ndcgOf = (run: (typeof runs)[number], queryId: number, ownChunking: boolean) => {
      const ranked = run.entries.filter((e) => e.queryId === queryId).map((e) => truth.get(`${queryId}:${e.chunkId}`)!);
      const hist = [0, 0, 0, 0];
      for (const [key, g] of truth) {
        const [q, c] = key.split(":").map(Number);
        if (q === queryId && (!ownChunking || chunkingOf.get(c) === run.chunkingId)) hist[g]++;
      }
      const ideal = idealDcg(hist, 10, "linear");
      return ideal > 0 ? dcg(ranked, 10, "linear") / ideal : 0;
    };
    const queryIds = [...new Set([...truth.keys()].map((k) => Number(k.split(":")[0])))];
    const [sysA, sysB] = runs;
    expect([sysA.system, sysB.system]).toEqual(["sys@A", "sys@B"]);
    const mean = (own: boolean) =>
      queryIds.reduce((s, q) => s + ndcgOf(sysA, q, own) - ndcgOf(sysB, q, own), 0) / queryIds.length;
    const expected = mean(true);
    const mixed = mean(false);
    expect(Math.abs(expected - mixed)).toBeGreaterThan(0.01); // the test tells the two definitions apart
    expect(r.state.pairs[0].estimate!.estimate).toBeCloseTo(expected, 10);
    expect(r.state.pairs[0].estimate!.labelled).toBe(Q);
  });
});
