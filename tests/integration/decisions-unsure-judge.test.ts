import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCliOk } from "../helpers/cli.ts";
import { makeChunks, makeJudgeLabels, makeProject, makeQueries, makeRun } from "../helpers/factories.ts";

/**
 * A decision's design counts a pair as less certain where the judge's own grades disagree: the
 * samples of a run with several per pair, or a jury's members (lib/judge/grade-sets.ts,
 * lib/decisions/design.ts `calibration`). On the real database: 10 questions × 2 pooled chunks;
 * sysA ranks c0 then c1, sysB c1 then c0, so both chunks of every question are discriminating.
 * Questions q6–q9 carry imported human labels (the calibration): the judge's label is 2 on all
 * their pairs; where its three samples agree (2, 2, 2: q6, q7) people graded 2, where they disagree
 * (1, 2, 3, median 2: q8, q9) people graded 0 on c0 and 3 on c1. On q0 the samples agree, on q1
 * they disagree, both labelled 2: one grade per pair cannot tell them apart, the samples can.
 */
useTestDatabase();
let db: Db;
let projectId: number;
const qid = (i: number) => `q${i}`;
const ids = new Map<string, number>();
const chunkIds = new Map<string, number>();
const AGREE = [2, 2, 2];
const DISAGREE = [1, 2, 3];
/** The judge's three samples of question i's pairs. */
const samplesOf = (i: number) => (i === 1 || i === 8 || i === 9 ? DISAGREE : AGREE);

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "unsure", annotatorsPerItem: 2 });
  projectId = p.id;
  const qs = Array.from({ length: 10 }, (_, i) => qid(i));
  const chunks = await makeChunks(
    db,
    projectId,
    qs.flatMap((q) => [`${q}_c0`, `${q}_c1`]),
  );
  const queries = await makeQueries(db, projectId, qs);
  await db.query.updateMany({ where: { projectId }, data: { status: "accepted" } });
  for (const [k, v] of queries) ids.set(k, v.id);
  for (const [k, v] of chunks) chunkIds.set(k, v.id);
  // sysA ranks c0 first, sysB c1 first.
  for (const [system, first, second] of [
    ["sysA", "c0", "c1"],
    ["sysB", "c1", "c0"],
  ])
    await makeRun(
      db,
      projectId,
      system,
      qs.flatMap((q): [string, string, number][] => [
        [q, `${q}_${first}`, 2],
        [q, `${q}_${second}`, 1],
      ]),
      { queries, chunks },
    );
  const pairs = qs.flatMap((q, i) =>
    [0, 1].map((k) => ({ i, k, queryId: ids.get(q)!, chunkId: chunkIds.get(`${q}_c${k}`)! })),
  );
  await db.poolItem.createMany({
    data: pairs.map((x) => ({ id: `unsure-${x.i}-${x.k}`, projectId, queryId: x.queryId, chunkId: x.chunkId })),
  });
  await db.referenceLabel.createMany({
    data: pairs
      .filter((x) => x.i >= 6)
      .map((x) => ({
        projectId,
        source: "old",
        queryId: x.queryId,
        chunkId: x.chunkId,
        grade: samplesOf(x.i) === AGREE ? 2 : x.k === 0 ? 0 : 3,
      })),
  });
  // A judge run with three samples per pair, its label the median (2 everywhere).
  const run = await db.judgeRun.create({
    data: {
      projectId,
      judge: "sampled",
      model: "m",
      baseUrl: "http://127.0.0.1:9",
      apiKeyEnv: "KEY",
      template: "t",
      templateSha256: "0".repeat(64),
      params: JSON.stringify({ temperature: 0.7, samples: 3 }),
      subset: "pool",
      samples: 3,
      status: "completed",
    },
  });
  await db.judgeTask.createMany({
    data: pairs.flatMap((x) =>
      samplesOf(x.i).map((grade, sample) => ({
        runId: run.id,
        queryId: x.queryId,
        chunkId: x.chunkId,
        sample,
        status: "done",
        grade,
      })),
    ),
  });
  await makeJudgeLabels(
    db,
    projectId,
    "sampled",
    pairs.map((x) => ({ queryId: x.queryId, chunkId: x.chunkId, grade: 2 })),
  );
  // The same grades as three single-grade judges, and as their median jury.
  for (const s of [0, 1, 2])
    await makeJudgeLabels(
      db,
      projectId,
      `member${s}`,
      pairs.map((x) => ({ queryId: x.queryId, chunkId: x.chunkId, grade: samplesOf(x.i)[s] })),
    );
  runCliOk([
    "judge",
    "combine",
    "--project",
    "unsure",
    "--judge",
    "jury",
    "--method",
    "median",
    "member0",
    "member1",
    "member2",
  ]);
});

let made = 0;
async function uncertainties(judge: string): Promise<Map<string, number>> {
  const { createDecision } = await import("../../lib/decisions/store.ts");
  const d = await createDecision(db, projectId, {
    name: `by-${judge}-${made++}`,
    systems: ["sysA", "sysB"],
    measure: "ndcg@10",
    judge,
  });
  const byId = new Map([...ids].map(([k, v]) => [v, k]));
  return new Map(d.population.map((p) => [byId.get(p.queryId)!, p.uncertainty]));
}

/**
 * u of a question whose two chunks have the human-grade distribution `dist`, with the library's
 * questionUncertainty (its arithmetic is derived by hand in tests/unit/decisions/model.test.ts).
 */
async function expectedU(dist: number[]): Promise<number> {
  const { questionUncertainty } = await import("../../lib/decisions/design.ts");
  return questionUncertainty(
    [
      [0, 1],
      [1, 0],
    ],
    { kind: "dcg", cutoff: 10 },
    () => dist,
    (g) => g,
    [0, 1],
  );
}

describe("a decision's design where the judge is unsure", () => {
  it("counts pairs whose samples disagree as less certain, from the calibration split by agreement", async () => {
    const u = await uncertainties("sampled");
    // q6–q9 are completely labelled: known, uncertainty 0.
    for (const q of ["q6", "q7", "q8", "q9"]) expect(u.get(q)).toBe(0);
    // The calibration of judge grade 2 (8 pairs: 4 agreeing graded 2; 4 disagreeing, 2 graded 0 and
    // 2 graded 3): overall (1+2, 1, 1+4, 1+2)/12 = (3, 1, 5, 3)/12; STABILITY_PRIOR 4 pseudo-counts
    // spread as that, (1, 1/3, 5/3, 1). Agreeing: (0, 0, 4, 0) + that = (1, 1/3, 17/3, 1), sum 8.
    // Disagreeing: (2, 0, 0, 2) + that = (3, 1/3, 5/3, 3), sum 8.
    const agreeing = [1, 1 / 3, 17 / 3, 1].map((x) => x / 8);
    const disagreeing = [3, 1 / 3, 5 / 3, 3].map((x) => x / 8);
    expect(u.get("q0")).toBeCloseTo(await expectedU(agreeing), 12);
    expect(u.get("q1")).toBeCloseTo(await expectedU(disagreeing), 12);
    expect(u.get("q1")!).toBeGreaterThan(1.5 * u.get("q0")!);
  });

  it("does the same with a jury whose members disagree", async () => {
    const jury = await uncertainties("jury");
    const sampled = await uncertainties("sampled");
    for (const q of ["q0", "q1", "q2"]) expect(jury.get(q)).toBeCloseTo(sampled.get(q)!, 12);
  });

  it("cannot tell the questions apart with one grade per pair", async () => {
    const single = await uncertainties("member1");
    // member1 gives 2 everywhere: the calibration of grade 2 overall, (3, 1, 5, 3)/12, on both.
    expect(single.get("q0")).toBeCloseTo(await expectedU([3, 1, 5, 3].map((x) => x / 12)), 12);
    expect(single.get("q1")).toBe(single.get("q0"));
  });
});
