import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";
import type { TTransferProvenance } from "../../lib/chunkings/transfer.ts";

/**
 * Label transfer stored as a judge (rule version 2): `transferJudge`
 * reads chunking A's human reference labels and the questions' reference spans (answer places,
 * grade-3 corrected starts), derives B's by the rule in lib/stats/time/transfer.ts and stores them
 * as JudgeLabel rows of `transfer:A->B` with provenance; a second transfer of the pair replaces the
 * first; A -> A gives A's labels exactly; the CLI prints the counts.
 *
 * Project: one video, chunking A = 20 s chunks a0 [0,20] a1 [20,40] a2 [40,60] a3 [60,80],
 * chunking B = 40 s chunks b0 [0,40] b1 [40,80].
 * Labels of A: q1: a0 3, a1 3, a2 0, a3 0; q2: a1 2 with the answer starting at 30 s (a grade-2
 * start is no reference span); q3: a0 0, a1 3, and q3's answer place [25, 31] in v1.
 * Expected, by the rule (derived by hand; open spans would be 6 s long, the median closed one):
 * - q1 b0: no reference; a0 and a1 are unexplained relevant labels whose answer regions ([0,20],
 *   [20,40]: no grade ≤ 1 label covers them) b0 holds wholly: grade 3 ("evidence"); each source
 *   shares 20 s, share 20/40 = 0.5.
 * - q1 b1: free seconds (grade-0 labels a2, a3) 40 of 40: grade 0 ("zero", free 1).
 * - q2 b0: a1's region [20,40] wholly in b0: grade 2 ("evidence").
 * - q2 b1: shares no second with a label of q2: unjudged.
 * - q3 b0: holds all of the place [25,31] (≥ half); A's a1 holds it and says 3: grade 3 ("answer").
 * - q3 b1: free = (a0 ∪ a1, explained) − [20,36] = [0,20] ∪ [36,40]: none of b1's seconds: unjudged.
 * B's run ranks b0 and b1 for q1, q2 and q3: two ranked pairs (q2 b1, q3 b1) are left unjudged at
 * the pool depth 10; at depth 1 (b0 first for each) none.
 */
useTestDatabase();
let db: Db;
let projectId: number;
const ids = new Map<string, number>();
const qids = new Map<string, number>();

async function chunking(
  name: string,
  size: number,
  chunks: [string, number, number][],
  videoId: number,
): Promise<number> {
  const c = await db.chunking.create({ data: { projectId, name, method: "seconds", size, overlap: 0 } });
  for (const [externalId, start, end] of chunks) {
    const row = await db.chunk.create({
      data: {
        projectId,
        chunkingId: c.id,
        videoId,
        externalId,
        startSeconds: start,
        endSeconds: end,
        text: `text ${externalId}`,
      },
    });
    ids.set(externalId, row.id);
  }
  return c.id;
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  projectId = (await db.project.create({ data: { name: "transfer" } })).id;
  const video = await db.video.create({ data: { projectId, externalId: "v1", title: "Video 1" } });
  for (const q of ["q1", "q2", "q3"])
    qids.set(q, (await db.query.create({ data: { projectId, externalId: q, text: `question ${q}?` } })).id);
  await chunking(
    "A",
    20,
    [
      ["a0", 0, 20],
      ["a1", 20, 40],
      ["a2", 40, 60],
      ["a3", 60, 80],
    ],
    video.id,
  );
  const b = await chunking(
    "B",
    40,
    [
      ["b0", 0, 40],
      ["b1", 40, 80],
    ],
    video.id,
  );
  const label = (q: string, c: string, grade: number, startSeconds: number | null = null) => ({
    projectId,
    source: "qrels",
    queryId: qids.get(q)!,
    chunkId: ids.get(c)!,
    grade,
    startSeconds,
  });
  await db.referenceLabel.createMany({
    data: [
      label("q1", "a0", 3),
      label("q1", "a1", 3),
      label("q1", "a2", 0),
      label("q1", "a3", 0),
      label("q2", "a1", 2, 30),
      label("q3", "a0", 0),
      label("q3", "a1", 3),
    ],
  });
  await db.queryPlace.create({
    data: { queryId: qids.get("q3")!, videoId: video.id, startSeconds: 25, endSeconds: 31 },
  });
  const run = await db.run.create({ data: { projectId, chunkingId: b, system: "bm25-B", contentHash: "h" } });
  await db.runEntry.createMany({
    data: [
      ["q1", "b0"],
      ["q1", "b1"],
      ["q2", "b0"],
      ["q2", "b1"],
      ["q3", "b0"],
      ["q3", "b1"],
    ].map(([q, c], i) => ({
      runId: run.id,
      queryId: qids.get(q)!,
      chunkId: ids.get(c)!,
      rank: (i % 2) + 1,
      score: 2 - (i % 2),
    })),
  });
}, 120_000);

async function stored(judge: string) {
  const rows = await db.judgeLabel.findMany({
    where: { projectId, judge },
    select: { queryId: true, chunkId: true, grade: true, provenance: true },
  });
  const name = (m: Map<string, number>, id: number) => [...m].find(([, v]) => v === id)![0];
  return rows
    .map((r) => ({
      pair: `${name(qids, r.queryId)} ${name(ids, r.chunkId)}`,
      grade: r.grade,
      provenance: r.provenance === null ? null : (JSON.parse(r.provenance) as TTransferProvenance),
    }))
    .sort((a, b) => (a.pair < b.pair ? -1 : 1));
}

describe("transferJudge", () => {
  it("stores B's derived labels as the judge transfer:A->B with provenance", async () => {
    const { transferJudge } = await import("../../lib/chunkings/transfer.ts");
    const r = await transferJudge(db, projectId, { from: "A", to: "B" });
    expect(r).toEqual({
      judge: "transfer:A->B",
      labelled: 4,
      unjudged: 2,
      depth: 10,
      byGrade: { 0: 1, 1: 0, 2: 1, 3: 2 },
    });
    const rows = await stored("transfer:A->B");
    expect(rows.map((x) => [x.pair, x.grade])).toEqual([
      ["q1 b0", 3],
      ["q1 b1", 0],
      ["q2 b0", 2],
      ["q3 b0", 3],
    ]);
    const parameters = { holdShare: 0.5, partSeconds: 1, nearSeconds: 5, zeroShare: 0, openSeconds: 6 };
    expect(rows[0].provenance).toEqual({
      version: 2,
      from: "A",
      to: "B",
      rule: "evidence",
      parameters,
      reference: null,
      free: null,
      sources: [
        { chunk: "a0", grade: 3, seconds: 20, coverage: 1, share: 0.5, gives: 3 },
        { chunk: "a1", grade: 3, seconds: 20, coverage: 1, share: 0.5, gives: 3 },
      ],
    });
    expect(rows[1].provenance).toMatchObject({
      rule: "zero",
      free: 1,
      sources: [
        { chunk: "a2", grade: 0, seconds: 20, gives: 0 },
        { chunk: "a3", grade: 0, seconds: 20, gives: 0 },
      ],
    });
    expect(rows[2].provenance?.sources).toEqual([
      { chunk: "a1", grade: 2, seconds: 20, coverage: 1, share: 0.5, gives: 2 },
    ]);
    expect(rows[3].provenance).toMatchObject({
      version: 2,
      rule: "answer",
      reference: { start: 25, end: 31, open: false },
    });
  });

  it("counts as left unjudged what pool --chunking B then adds at the project's pool depth", async () => {
    const { transferJudge } = await import("../../lib/chunkings/transfer.ts");
    const { buildPool } = await import("../../lib/pooling/build.ts");
    await db.project.update({ where: { id: projectId }, data: { poolDepth: 1 } });
    try {
      // Depth 1: each question's top pair is b0, labelled for q1, q2, q3: nothing left (all depths: 2).
      const r = await transferJudge(db, projectId, { from: "A", to: "B" });
      expect(r).toMatchObject({ unjudged: 0, depth: 1 });
      expect((await buildPool(db, projectId, { depth: 1, chunking: "B", dryRun: true })).newItems).toBe(r.unjudged);
    } finally {
      await db.project.update({ where: { id: projectId }, data: { poolDepth: 10 } });
    }
    const r = await transferJudge(db, projectId, { from: "A", to: "B" });
    expect((await buildPool(db, projectId, { depth: 10, chunking: "B", dryRun: true })).newItems).toBe(r.unjudged);
  });

  it("replaces an earlier transfer of the same pair, with the new parameters", async () => {
    const { transferJudge } = await import("../../lib/chunkings/transfer.ts");
    // zeroShare 0.99 ≤ 1 still gives q1 b1 its 0; holdShare 0.6: b0 holds all of q3's place; the labels stay four, not eight.
    const r = await transferJudge(db, projectId, { from: "A", to: "B", holdShare: 0.6, zeroShare: 0.99 });
    expect(r.labelled).toBe(4);
    const rows = await stored("transfer:A->B");
    expect(rows).toHaveLength(4);
    expect(
      rows.every((x) => x.provenance?.parameters.holdShare === 0.6 && x.provenance.parameters.zeroShare === 0.99),
    ).toBe(true);
    expect(await db.importRecord.count({ where: { projectId, kind: "transfer", fileName: "transfer:A->B" } })).toBe(4); // one record per transfer of the pair so far
  });

  it("A -> A gives A's labels exactly", async () => {
    const { transferJudge } = await import("../../lib/chunkings/transfer.ts");
    const { referenceLabels } = await import("../../lib/labels/reference.ts");
    const a = await db.chunking.findFirstOrThrow({ where: { projectId, name: "A" } });
    const r = await transferJudge(db, projectId, { from: "A", to: "A" });
    expect(r.judge).toBe("transfer:A->A");
    const human = (await referenceLabels(db, projectId, { chunkingId: a.id }))
      .map((l) => `${l.qid} ${l.docid} ${l.grade}`)
      .sort();
    const derived = (await stored("transfer:A->A")).map((x) => `${x.pair} ${x.grade}`);
    expect(derived).toEqual(human);
    expect(derived).toHaveLength(7);
    expect((await stored("transfer:A->A")).every((x) => x.provenance?.rule === "exact")).toBe(true);
  });

  it("refuses a chunking without labels, an unknown chunking and a bad share, writing nothing", async () => {
    const { transferJudge } = await import("../../lib/chunkings/transfer.ts");
    const before = await db.judgeLabel.count();
    await expect(transferJudge(db, projectId, { from: "B", to: "A" })).rejects.toThrow(
      'chunking "B" has no human reference labels to transfer',
    );
    await expect(transferJudge(db, projectId, { from: "A", to: "C" })).rejects.toThrow(
      'no chunking "C" in this project; its chunkings: A, B',
    );
    await expect(transferJudge(db, projectId, { from: "A", to: "B", holdShare: 0 })).rejects.toThrow(
      "--hold-share: expected a share in (0, 1], got 0",
    );
    expect(await db.judgeLabel.count()).toBe(before);
  });

  it("runs from the CLI and says what it stored", () => {
    const r = runCli(["chunking", "transfer", "--from", "A", "--to", "B"]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      "Stored 4 labels of chunking B as judge transfer:A->B (1 label of grade 0, 0 labels of grade 1, 1 label of grade 2, 2 labels of grade 3), replacing any earlier transfer of this pair.\n" +
        "2 pairs in chunking B's runs' top 10 (the pool depth) are left unjudged by the transfer and not pooled yet: pool them with: npx assessor pool --chunking B\n",
    );
    expect(runCli(["chunking", "transfer", "--from", "A", "--to", "B", "--zero-share", "1.5"]).stderr).toContain(
      "--zero-share: expected a share in [0, 1], got 1.5",
    );
    expect(runCli(["chunking", "transfer", "--from", "A", "--to", "B", "--near-seconds", "x"]).stderr).toContain(
      '--near-seconds: expected a number such as 0.5, got "x"',
    );
    // pool --chunking B: B's run ranks b0, b1 for q1, q2, q3; four pairs have a transfer label, two are pooled.
    const pool = runCli(["pool", "--chunking", "B", "--depth", "2"]);
    expect(pool.stderr).toBe("");
    expect(pool.stdout).toContain("2 new item(s)");
    // Transferred again: nothing is left that pool would add (the two pairs are pooled now).
    expect(runCli(["chunking", "transfer", "--from", "A", "--to", "B"]).stdout).toContain(
      "0 pairs in chunking B's runs' top 10 (the pool depth) are left unjudged",
    );
    expect(pool.stdout).toContain(
      "Label transfer saved 4 item(s) of chunking B: pairs in its runs' top 2 with a transfer label that were not pooled (transfer judges: transfer:A->B).",
    );
  }, 120_000);

  it("the dashboard's judge coverage counts the transfer's labels on B's pooled pairs, not 0 of B's pool items", async () => {
    // After the CLI test: B's pool items are q2 b1 and q3 b1 (pool --chunking B left out the four
    // transferred pairs). B's pooled pairs at the pool depth 10 are all six ranked pairs; the
    // transfer labelled four of them (q1 b0, q1 b1, q2 b0, q3 b0): coverage 4 of 6, partial.
    const { getMeta } = await import("../../lib/dashboard/panels.ts");
    const { clearDashboardCache } = await import("../../lib/dashboard/data.ts");
    const bItems = await db.poolItem.count({ where: { projectId, chunk: { chunking: { name: "B" } } } });
    expect(bItems).toBe(2);
    const ranked = await db.runEntry.findMany({
      where: { run: { projectId, chunking: { name: "B" } }, rank: { lte: 10 } },
      select: { queryId: true, chunkId: true },
    });
    const labels = await db.judgeLabel.findMany({
      where: { projectId, judge: "transfer:A->B" },
      select: { queryId: true, chunkId: true },
    });
    const pooledPairs = new Set(ranked.map((r) => `${r.queryId}:${r.chunkId}`));
    const onPool = labels.filter((l) => pooledPairs.has(`${l.queryId}:${l.chunkId}`)).length;
    expect([pooledPairs.size, onPool]).toEqual([6, 4]);
    clearDashboardCache();
    const meta = await getMeta(db, projectId);
    const state = meta.judges.find((j) => j.name === "transfer:A->B");
    expect(state).toMatchObject({ labels: 4, pooled: onPool, poolItems: pooledPairs.size, partial: true });
    expect(state?.coverage).toBeCloseTo(4 / 6, 12);
  });
});
