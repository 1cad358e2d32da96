import { describe, expect, it } from "vitest";
import { parseQrels, parseRun } from "../../../lib/formats/trec.ts";
import { evaluate, judgementsFrom, runFrom, type EvalResult } from "../../../lib/stats/evaluate.ts";
import { parseMeasures, MeasureSpecError } from "../../../lib/stats/measures/index.ts";
import { dcg, idealDcg, ndcg } from "../../../lib/stats/measures/ndcg.ts";
import { startError } from "../../../lib/stats/measures/start-error.ts";
import type { RankedQuery } from "../../../lib/stats/measures/types.ts";

/** Runs the whole pipeline on inline files: qrels and run text → per-measure summary and per-query values. */
function run(qrels: string, runText: string, measures: string[], opts: { l?: number; c?: boolean } = {}) {
  const q = parseQrels(qrels, "t.qrels");
  const r = parseRun(runText, "t.run");
  expect(q.errors).toEqual([]);
  expect(r.errors).toEqual([]);
  const { columns } = parseMeasures(measures);
  return evaluate(judgementsFrom(q.rows), runFrom(r.rows), columns, { relevanceLevel: opts.l ?? 1, complete: opts.c });
}
const summary = (res: EvalResult) => Object.fromEntries(res.columns.map((c, i) => [c.name, res.summary[i]]));
const perQuery = (res: EvalResult, name: string) =>
  Object.fromEntries(res.queries.map((q, i) => [q, res.values[res.columns.findIndex((c) => c.name === name)][i]]));
/** Run lines for one query, scores descending in the given order. */
const lines = (qid: string, docids: string[]) =>
  docids.map((d, i) => `${qid} Q0 ${d} ${i + 1} ${100 - i} sys`).join("\n");

describe("the evaluation plan's worked example (seed plan, 'What to measure')", () => {
  // Five retrieved chunks; the pool has exactly three relevant chunks (grades 3, 1, 2), all
  // retrieved, at ranks 2, 3 and 5. Ranks 1 and 4 are judged 0.
  const qrels = "q 0 c1 0\nq 0 c2 3\nq 0 c3 1\nq 0 c4 0\nq 0 c5 2\n";
  const runText = lines("q", ["c1", "c2", "c3", "c4", "c5"]);
  it("Recall@5 = 1.00, reciprocal rank 0.50, nDCG@5 = 0.647 with exponential gain", () => {
    const s = summary(run(qrels, runText, ["recall.5", "recip_rank", "ndcg_exp_cut.5"]));
    expect(s.recall_5).toBe(1);
    expect(s.recip_rank).toBe(0.5);
    expect(s.ndcg_exp_cut_5).toBeCloseTo(0.647, 3);
  });
  it("DCG@5 = 6.077 and IDCG@5 = 9.393", () => {
    expect(dcg([0, 3, 1, 0, 2], 5, "exponential")).toBeCloseTo(6.077, 3);
    expect(idealDcg([2, 1, 1, 1], 5, "exponential")).toBeCloseTo(9.393, 3);
  });
});

describe("trec_eval conventions", () => {
  it("orders by score descending, ties by docid descending, ignoring the rank column", () => {
    // Both score 1; the rank column puts a first, but byte order descending puts b first.
    const res = run("q 0 a 1\nq 0 b 0\n", "q Q0 a 1 1 s\nq Q0 b 2 1 s\n", ["recip_rank", "P.1"]);
    expect(summary(res)).toEqual({ recip_rank: 0.5, P_1: 0 });
    // The rank column alone never reorders: lower score first in the file, higher rank number.
    const res2 = run("q 0 a 1\n", "q Q0 a 1 0.1 s\nq Q0 b 2 0.9 s\n", ["recip_rank"]);
    expect(summary(res2).recip_rank).toBe(0.5);
  });
  it("applies the relevance level to P, recall, RR, map and num_rel, but not to nDCG", () => {
    // Ranking a(1) b(2) c(3); the qrels also hold d(3), never retrieved.
    const qrels = "q 0 a 1\nq 0 b 2\nq 0 c 3\nq 0 d 3\n";
    const runText = lines("q", ["a", "b", "c"]);
    const m = ["num_rel", "num_rel_ret", "P.3", "recall.3", "recip_rank", "map", "ndcg"];
    const l1 = summary(run(qrels, runText, m, { l: 1 }));
    // l=1: 4 relevant, 3 retrieved: P@3 = 1, recall = 3/4, RR = 1, AP = (1+1+1)/4 = 0.75.
    expect(l1).toMatchObject({ num_rel: 4, num_rel_ret: 3, P_3: 1, recall_3: 0.75, recip_rank: 1, map: 0.75 });
    const l2 = summary(run(qrels, runText, m, { l: 2 }));
    // l=2: relevant b, c, d: P@3 = 2/3, recall = 2/3, RR = 1/2, AP = (1/2 + 2/3)/3 = 0.388888…
    expect(l2).toMatchObject({ num_rel: 3, num_rel_ret: 2, P_3: 2 / 3, recall_3: 2 / 3, recip_rank: 0.5 });
    expect(l2.map).toBeCloseTo((1 / 2 + 2 / 3) / 3, 12);
    // nDCG (linear) by hand: DCG = 1/log2(2) + 2/log2(3) + 3/log2(4); ideal = 3, 3, 2, 1.
    const dcgHand = 1 + 2 / Math.log2(3) + 3 / 2;
    const idcgHand = 3 + 3 / Math.log2(3) + 2 / 2 + 1 / Math.log2(5);
    expect(l1.ndcg).toBeCloseTo(dcgHand / idcgHand, 12);
    expect(l2.ndcg).toBe(l1.ndcg);
  });
  it("scores a query with no relevant chunk 0 and keeps it in the mean", () => {
    const qrels = "q1 0 a 2\nq2 0 x 0\nq2 0 y 0\n";
    const runText = `${lines("q1", ["a"])}\n${lines("q2", ["x", "y"])}`;
    const res = run(qrels, runText, ["map", "recip_rank", "ndcg", "ndcg_cut.5", "recall.5", "P.1"]);
    expect(res.numQ).toBe(2);
    expect(perQuery(res, "map")).toEqual({ q1: 1, q2: 0 });
    expect(perQuery(res, "ndcg_cut_5")).toEqual({ q1: 1, q2: 0 });
    expect(summary(res)).toEqual({ map: 0.5, recip_rank: 0.5, ndcg: 0.5, ndcg_cut_5: 0.5, recall_5: 0.5, P_1: 0.5 });
  });
  it("leaves a query missing from the run out of the mean, or scores it 0 with -c", () => {
    const qrels = "q1 0 a 1\nq2 0 b 1\nq2 0 c 1\n";
    const runText = lines("q1", ["a"]);
    const without = run(qrels, runText, ["map", "num_rel", "num_ret"]);
    expect(without.numQ).toBe(1);
    expect(without.missingFromRun).toEqual(["q2"]);
    expect(summary(without)).toEqual({ map: 1, num_rel: 1, num_ret: 1 });
    const withC = run(qrels, runText, ["map", "num_rel", "num_ret"], { c: true });
    // trec_eval 10.0 -c (trec_eval.c, m_num_q.c, meas_avg.c): q2 is evaluated on a stand-in
    // ranking of one unjudged chunk, so map = (1 + 0)/2; it counts in num_q and num_rel (its 2
    // relevant chunks: 1 + 2 = 3), and its num_ret is reset to 0.
    expect(withC.numQ).toBe(2);
    expect(withC.averagedOver).toBe(2);
    expect(withC.answered).toBe(1);
    expect(summary(withC)).toEqual({ map: 0.5, num_rel: 3, num_ret: 1 });
    expect(withC.inRun).toEqual([true, false]);
  });
  it("-c: num_rel's total counts every judgement above 0 in the qrels, whatever -l (trec_eval 10.0's m_num_rel.c)", () => {
    // q1 judges a 1, b 2, z 0 and the run answers it; q2 judges c 1 and the run does not. At -l 2
    // the per-query num_rel are q1 1 (b), q2 0, but te_calc_avg_num_rel counts a, b, c: 3.
    const res = run("q1 0 a 1\nq1 0 b 2\nq1 0 z 0\nq2 0 c 1\n", lines("q1", ["a", "b"]), ["num_rel"], {
      l: 2,
      c: true,
    });
    expect(perQuery(res, "num_rel")).toEqual({ q1: 1, q2: 0 });
    expect(summary(res).num_rel).toBe(3);
    expect(
      summary(run("q1 0 a 1\nq1 0 b 2\nq1 0 z 0\nq2 0 c 1\n", lines("q1", ["a", "b"]), ["num_rel"], { l: 2 })).num_rel,
    ).toBe(1);
  });
  it("ignores a query in the run that the qrels do not judge", () => {
    const res = run("q1 0 a 1\n", `${lines("q1", ["a"])}\n${lines("zz", ["a"])}`, ["map"]);
    expect(res.queries).toEqual(["q1"]);
    expect(res.ignoredQueries).toEqual(["zz"]);
  });
  it("divides P@10 by 10 for a run shorter than 10 (3 relevant retrieved → 0.3)", () => {
    const res = run("q 0 a 1\nq 0 b 1\nq 0 c 1\n", lines("q", ["a", "b", "c"]), ["P.10", "recall.10"]);
    expect(summary(res)).toEqual({ P_10: 0.3, recall_10: 1 });
  });
  it("treats unjudged chunks as non-relevant and grade-0 chunks as judged", () => {
    const res = run("q 0 a 0\nq 0 c 1\n", lines("q", ["a", "b", "c", "d"]), ["P.4", "judged.2,4", "unjudged.2"]);
    // a judged 0, b unjudged, c relevant, d unjudged: judged@2 = 1/2, judged@4 = 2/4.
    expect(summary(res)).toEqual({ P_4: 0.25, judged_2: 0.5, judged_4: 0.5, unjudged_2: 0.5 });
  });
  it("judged@k divides by the ranks filled when the run is shorter than k", () => {
    const res = run("q 0 a 0\nq 0 c 1\n", lines("q", ["a", "b", "c"]), ["judged.10"]);
    expect(summary(res).judged_10).toBeCloseTo(2 / 3, 12);
  });
  it("nDCG uses every judged chunk for the ideal ranking and linear gain by default", () => {
    // Ranking: grades 2, unjudged, 3; qrels also judge a grade-1 and a grade-0 chunk not retrieved.
    // DCG = 2/log2(2) + 3/log2(4) = 3.5; ideal 3, 2, 1 → 3 + 2/log2(3) + 1/2.
    const qrels = "q 0 a 2\nq 0 c 3\nq 0 x 1\nq 0 y 0\n";
    const res = summary(run(qrels, lines("q", ["a", "b", "c"]), ["ndcg", "ndcg_cut.2", "ndcg_exp"]));
    expect(res.ndcg).toBeCloseTo(3.5 / (3 + 2 / Math.log2(3) + 0.5), 12);
    // @2: DCG = 2; ideal@2 = 3 + 2/log2(3).
    expect(res.ndcg_cut_2).toBeCloseTo(2 / (3 + 2 / Math.log2(3)), 12);
    // Exponential: DCG = 3/1 + 7/2 = 6.5; ideal 7 + 3/log2(3) + 1/2.
    expect(res.ndcg_exp).toBeCloseTo(6.5 / (7 + 3 / Math.log2(3) + 0.5), 12);
  });
  it("sums counts and averages the rest; output order follows trec_eval's measure table", () => {
    const { columns } = parseMeasures(["ndcg_cut.10,5", "P.5", "recip_rank", "map", "recall.100,5", "num_ret"]);
    expect(columns.map((c) => c.name)).toEqual([
      "num_ret",
      "map",
      "recip_rank",
      "P_5",
      "recall_5",
      "recall_100",
      "ndcg_cut_5",
      "ndcg_cut_10",
    ]);
    expect(columns[0].summary).toBe("sum");
    expect(() => parseMeasures(["nope"])).toThrow(MeasureSpecError);
    expect(() => parseMeasures(["P.0"])).toThrow(MeasureSpecError);
    expect(() => parseMeasures(["map.5"])).toThrow(MeasureSpecError);
  });
});

describe("start-time error", () => {
  const q = (grades: number[], docids: string[]): RankedQuery => ({
    qid: "q",
    grades,
    docids,
    judgedAtGrade: [0, 0, 0, 0],
  });
  const chunks = new Map([
    ["a", { video: "v1", start: 0 }],
    ["b", { video: "v1", start: 100 }],
    ["c", { video: "v2", start: 40 }],
  ]);
  const o = { relevanceLevel: 1 };
  it("measures the highest-ranked relevant chunk against the reference start", () => {
    // b is the first relevant chunk, at rank 2: |100 − 70| = 30 s; tRR = 1/2 × (1 − 30/150) = 0.4.
    expect(startError(q([0, 2, 3], ["a", "b", "c"]), { start: 70, video: "v1" }, chunks, o)).toEqual({
      error: 30,
      rank: 2,
      timeAwareRR: 0.4,
      missingChunkTime: false,
    });
  });
  it("caps at 150 s: far away, another video, or nothing relevant retrieved", () => {
    expect(startError(q([1], ["b"]), { start: 400, video: "v1" }, chunks, o)?.error).toBe(150);
    expect(startError(q([1], ["c"]), { start: 40, video: "v1" }, chunks, o)).toMatchObject({
      error: 150,
      timeAwareRR: 0,
    });
    expect(startError(q([0, -1], ["a", "b"]), { start: 0 }, chunks, o)).toEqual({
      error: 150,
      rank: 0,
      timeAwareRR: 0,
      missingChunkTime: false,
    });
  });
  it("uses the nearest answer place in the chunk's video when a question has several", () => {
    // b starts at 100 in v1: places v1@70 (30 s), v1@112 (12 s), v2@100 (another video): 12 s; tRR = 1 × (1 − 12/150) = 0.92.
    expect(
      startError(
        q([2], ["b"]),
        [
          { start: 70, video: "v1" },
          { start: 112, video: "v1" },
          { start: 100, video: "v2" },
        ],
        chunks,
        o,
      ),
    ).toEqual({ error: 12, rank: 1, timeAwareRR: 0.92, missingChunkTime: false });
    expect(startError(q([2], ["b"]), [{ start: 100, video: "v2" }], chunks, o)?.error).toBe(150);
    expect(startError(q([2], ["b"]), [], chunks, o)).toBeNull();
  });
  it("skips a query without a reference start", () => {
    expect(startError(q([1], ["a"]), undefined, chunks, o)).toBeNull();
  });
  it("reports the mean error and shares within 15/30/60 s over the queries with a reference", () => {
    const qrels = "q1 0 a 1\nq2 0 b 1\nq3 0 c 1\n";
    const runText = [lines("q1", ["a"]), lines("q2", ["b"]), lines("q3", ["c"])].join("\n");
    const parsed = parseMeasures(["start_error"]);
    const res = evaluate(
      judgementsFrom(parseQrels(qrels, "x").rows),
      runFrom(parseRun(runText, "y").rows),
      parsed.columns,
      {
        relevanceLevel: 1,
        // q1: |0 − 10| = 10; q2: |100 − 50| = 50; q3 has no reference start.
        starts: new Map([
          ["q1", { start: 10, video: "v1" }],
          ["q2", { start: 50, video: "v1" }],
        ]),
        chunks,
      },
    );
    expect(summary(res)).toEqual({
      start_error: 30,
      start_within_15: 0.5,
      start_within_30: 0.5,
      start_within_60: 1,
      start_rr: (1 - 10 / 150 + (1 - 50 / 150)) / 2,
    });
  });
});

describe("ndcg edge cases", () => {
  it("is 0 for an empty ranking", () => {
    expect(ndcg({ qid: "q", grades: [], docids: [], judgedAtGrade: [0, 1, 0, 0] }, { gain: "linear" })).toBe(0);
  });
});

describe("trec_eval's -m syntax", () => {
  const names = (specs: string[]) => parseMeasures(specs).columns.map((c) => c.name);
  it("prints parameters as trec_eval names them", () => {
    expect(names(["P.5,7,3"])).toEqual(["P_3", "P_5", "P_7"]);
    expect(names(["iprec_at_recall..10,.20"])).toEqual(["iprec_at_recall_0.10", "iprec_at_recall_0.20"]);
    expect(names(["Rprec_mult.0.2"])).toEqual(["Rprec_mult_0.20"]);
    expect(names(["ndcg.1=3,2=9", "utility.2,-1,0,0", "11pt_avg..25,.5", "success.2,5,20"])).toEqual([
      "utility_2,-1,0,0",
      "11pt_avg_.25,.5",
      "ndcg_1=3,2=9",
      "success_2",
      "success_5",
      "success_20",
    ]);
  });
  it("expands nicknames in trec_eval's order; parameters replace the defaults even inside a nickname", () => {
    expect(names(["official"]).slice(0, 8)).toEqual([
      "runid",
      "num_q",
      "num_ret",
      "num_rel",
      "num_rel_ret",
      "map",
      "gm_map",
      "Rprec",
    ]);
    expect(names(["official"])).toHaveLength(1 + 1 + 3 + 3 + 1 + 1 + 11 + 9);
    expect(names(["all_trec", "P.5"]).filter((n) => n.startsWith("P_"))).toEqual(["P_5"]);
    expect(names(["set"])).toEqual([
      "runid",
      "num_q",
      "num_ret",
      "num_rel",
      "num_rel_ret",
      "utility",
      "set_P",
      "set_relative_P",
      "set_recall",
      "set_map",
      "set_F",
    ]);
  });
  it("iprec_at_recall turns a recall point into relevant chunks with lround (trec_eval 10.0), not trunc(x + 0.9) (9)", () => {
    // 4 relevant chunks; ranking a (relevant), x (not judged), b (relevant). At recall 0.3:
    // lround(0.3 × 4) = 1 relevant chunk, interpolated precision max(1/1, 1/2, 2/3) = 1 (trec_eval 9
    // took trunc(1.2 + 0.9) = 2 chunks: 2/3). At 0.5: lround(2) = 2 → 2/3. At 0.7: 3 > 2 retrieved → 0.
    const res = run("q 0 a 1\nq 0 b 1\nq 0 c 1\nq 0 d 1\n", lines("q", ["a", "x", "b"]), [
      "iprec_at_recall..3,.5,.7",
      "11pt_avg..3,.5,.7",
    ]);
    const s = summary(res);
    expect(s["iprec_at_recall_0.30"]).toBe(1);
    expect(s["iprec_at_recall_0.50"]).toBeCloseTo(2 / 3, 15);
    expect(s["iprec_at_recall_0.70"]).toBe(0);
    expect(s["11pt_avg_.3,.5,.7"]).toBeCloseTo((1 + 2 / 3) / 3, 15);
  });
  it("reads parameters as trec_eval 10.0's meas_init.c: fractional cutoffs truncated, repeats refused", () => {
    // get_long_cutoffs: atol("23.4") = 23; sorted; printed P_23 (out.test.meas_params: ndcg_cut.10,20,23.4)
    expect(names(["ndcg_cut.10,20,23.4"])).toEqual(["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]);
    expect(names(["P.5,7,3"])).toEqual(["P_3", "P_5", "P_7"]);
    expect(() => parseMeasures(["P.5,5"])).toThrow(/given twice/);
    expect(() => parseMeasures(["P.20,20.5"])).toThrow(/given twice/);
    expect(() => parseMeasures(["P.0.5"])).toThrow(/at least 1/);
    expect(() => parseMeasures(["P.5x"])).toThrow(MeasureSpecError); // atol would read 5
    expect(() => parseMeasures(["P.1e3"])).toThrow(MeasureSpecError); // atol would read 1
    // get_double_cutoffs: sorted, printed %3.2f; .1 and .10 are the same cutoff
    expect(names(["iprec_at_recall..50,.10,.25"])).toEqual([
      "iprec_at_recall_0.10",
      "iprec_at_recall_0.25",
      "iprec_at_recall_0.50",
    ]);
    expect(() => parseMeasures(["iprec_at_recall..1,.10"])).toThrow(/given twice/);
    // get_double_params: kept as written
    expect(names(["11pt_avg..75,.25"])).toEqual(["11pt_avg_.75,.25"]);
  });
  it("rejects bad parameters with the measure and the text", () => {
    expect(() => parseMeasures(["utility.1,2"])).toThrow(/expected 4 coefficients/);
    expect(() => parseMeasures(["ndcg.1=x"])).toThrow(/"x" in "ndcg.1=x"/);
    expect(() => parseMeasures(["ndcg.3"])).toThrow(/name=value pairs/);
    expect(() => parseMeasures(["iprec_at_recall.a"])).toThrow(MeasureSpecError);
    expect(() => parseMeasures(["P."])).toThrow(/empty parameter list/);
  });
});
