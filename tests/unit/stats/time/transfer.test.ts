import { describe, expect, it } from "vitest";
import { transferLabels, type LabelledSpan, type TargetChunk, type TransferOptions } from "../../../../lib/stats/time/transfer.ts";

/*
 * Hand-made cases for the transfer rule (lib/stats/time/transfer.ts). Every expected grade is
 * derived in the comment beside it from the rule's fractions:
 *   coverage = overlap / span length, share = overlap / chunk length,
 *   evidenceCoverage = overlap with [corrected start, span end] (grade ≥ 2) / its length,
 * informative = coverage > 0.5 or share > 0.5 (defaults), zero needs > 0.5 of the chunk judged 0.
 */
let nextId = 0;
const L = (query: string, video: string, start: number, end: number, grade: number, correctedStart: number | null = null, id = `l${nextId++}`): LabelledSpan => ({ id, query, video, start, end, grade, correctedStart });
const C = (id: string, video: string, start: number, end: number): TargetChunk => ({ id, video, start, end });
/** query:chunk → grade, for every chunk the rule labels. */
function grades(labels: LabelledSpan[], chunks: TargetChunk[], opts?: TransferOptions): Record<string, number> {
  return Object.fromEntries(transferLabels(labels, chunks, opts).map((t) => [`${t.query}:${t.chunkId}`, t.grade]));
}

describe("transfer: identity", () => {
  // Chunking A: 20 s chunks every 15 s (5 s overlap). a2 and a4 were never labelled.
  const A = [C("a0", "v", 0, 20), C("a1", "v", 15, 35), C("a2", "v", 30, 50), C("a3", "v", 45, 65), C("a4", "v", 60, 80)];
  const labels = [L("q", "v", 0, 20, 0, null, "x0"), L("q", "v", 15, 35, 3, 25, "x1"), L("q", "v", 45, 65, 1, null, "x3")];
  it("B = A gives A's labels exactly, and nothing for the unlabelled chunks", () => {
    // a0, a1, a3: exact matches, their own grades.
    // a2 [30,50]: a1 overlap [30,35] = 5 s → coverage 5/20 = 0.25, share 0.25, evidence [25,35]
    //   overlap 5/10 = 0.5 (not > 0.5): marginal; a3 overlap [45,50] = 5 s → 0.25/0.25: marginal;
    //   a0 does not touch it → unjudged.
    // a4 [60,80]: a3 overlap [60,65] = 5 s → 0.25/0.25: marginal → unjudged.
    expect(grades(labels, A)).toEqual({ "q:a0": 0, "q:a1": 3, "q:a3": 1 });
  });
  it("the exact match's provenance names the label", () => {
    const t = transferLabels(labels, A).find((x) => x.chunkId === "a1");
    expect(t).toEqual({ query: "q", chunkId: "a1", grade: 3, rule: "exact", zeroShare: null, sources: [{ labelId: "x1", grade: 3, coverage: 1, evidenceCoverage: 1, share: 1, gives: 3 }] });
  });
  it("chunks given out of order give the same labels", () => {
    expect(grades(labels, [...A].reverse())).toEqual(grades(labels, A));
  });
});

describe("transfer: nesting", () => {
  it("a long chunk holding a whole grade-3 span is 3", () => {
    // span [20,40] g3 inside chunk [0,60]: coverage 20/20 = 1, evidence = the span → 1 > 0.5 → 3.
    const t = transferLabels([L("q", "v", 20, 40, 3, null, "s")], [C("b", "v", 0, 60)]);
    expect(t.map((x) => [x.grade, x.rule])).toEqual([[3, "evidence"]]);
    expect(t[0].sources).toEqual([{ labelId: "s", grade: 3, coverage: 1, evidenceCoverage: 1, share: 20 / 60, gives: 3 }]);
  });
  it("a short chunk inside a grade-3 span: 2 when it holds part of the answer, 1 when it lies before the answer, 3 when it holds most of it", () => {
    const noStart = [L("q", "v", 0, 60, 3)];
    // chunk [10,25] in span [0,60] without corrected start: overlap 15 → coverage 0.25, share 1
    //   (informative); evidence = span → evidenceCoverage 0.25 (not > 0.5): partial; it holds
    //   15 s of the evidence → 3 − 1 = 2.
    expect(grades(noStart, [C("b", "v", 10, 25)])).toEqual({ "q:b": 2 });
    const withStart = [L("q", "v", 0, 60, 3, 40)];
    // corrected start 40 → evidence [40,60]. chunk [10,25]: share 1 (informative), evidence
    //   overlap 0 → partial with no evidence → 1.
    // chunk [38,58]: evidence overlap [40,58] = 18/20 = 0.9 > 0.5 → 3.
    // chunk [30,45]: coverage 15/60 = 0.25, share 1; evidence overlap [40,45] = 5/20 = 0.25 →
    //   partial holding some evidence → 2.
    expect(grades(withStart, [C("b1", "v", 10, 25), C("b2", "v", 38, 58), C("b3", "v", 30, 45)])).toEqual({ "q:b1": 1, "q:b2": 3, "q:b3": 2 });
  });
  it("a part of a related (1) passage is related", () => {
    // span [0,60] g1, chunk [10,25]: share 1, evidence = span, coverage 0.25 → partial → max(1, 0) = 1.
    expect(grades([L("q", "v", 0, 60, 1)], [C("b", "v", 10, 25)])).toEqual({ "q:b": 1 });
  });
});

describe("transfer: partial overlap, adjacent chunks, gaps", () => {
  it("partial overlap: more than half of the span inherits, less stays unjudged", () => {
    const s = [L("q", "v", 0, 20, 2)];
    // [8,28]: overlap 12 → coverage 0.6 = evidenceCoverage > 0.5 → 2.
    // [12,32]: overlap 8 → coverage 0.4, share 8/20 = 0.4 → marginal → unjudged.
    expect(grades(s, [C("b1", "v", 8, 28), C("b2", "v", 12, 32)])).toEqual({ "q:b1": 2 });
  });
  it("chunks touching a span only at its boundary share no seconds", () => {
    const s = [L("q", "v", 0, 20, 3), L("q", "v", 20, 40, 0), L("q", "v", 40, 60, 0)];
    // b1 [20,50]: the g3 span touches at 20 (0 s, ignored); [20,40] overlap 20 → coverage 1
    //   (informative 0); [40,60] overlap 10 → 0.5, share 1/3 → marginal. Seconds judged 0:
    //   [20,50] = 30 of 30, no relevant evidence inside → 1 > 0.5 → 0.
    // b2 [60,80]: touches [40,60] at 60 only → unjudged.
    // b3 [25,55]: [20,40] → 15 s, coverage 0.75; [40,60] → 15 s, 0.75; all 30 s judged 0 → 0.
    expect(grades(s, [C("b1", "v", 20, 50), C("b2", "v", 60, 80), C("b3", "v", 25, 55)])).toEqual({ "q:b1": 0, "q:b3": 0 });
  });
  it("gaps: unjudged seconds keep a chunk from 0", () => {
    const s = [L("q", "v", 0, 20, 0), L("q", "v", 40, 60, 0)];
    // [10,50]: 10 s of each span → coverage 0.5 (not > 0.5), share 0.25 → nothing informative → unjudged.
    // [5,45]: [0,20] 15 s → coverage 0.75 (informative); [40,60] 5 s. Judged 0: 20 of 40 s = 0.5,
    //   not > 0.5 (the gap [20,40] is unjudged speech) → unjudged.
    // [0,30]: [0,20] coverage 1; judged 0: 20 of 30 s = 0.667 > 0.5 → 0.
    expect(grades(s, [C("b1", "v", 10, 50), C("b2", "v", 5, 45), C("b3", "v", 0, 30)])).toEqual({ "q:b3": 0 });
  });
});

describe("transfer: several labelled spans with different grades", () => {
  // A: [0,20] g0, [15,35] g3 with the answer starting at 20 (evidence [20,35]), [30,50] g1, [45,65] g0.
  const s = [L("q", "v", 0, 20, 0, null, "z1"), L("q", "v", 15, 35, 3, 20, "t"), L("q", "v", 30, 50, 1, null, "r"), L("q", "v", 45, 65, 0, null, "z2")];
  it("the highest inherited grade wins; evidence judged relevant is not counted as judged 0", () => {
    // b1 [0,40]: z1 coverage 1 (0); t overlap 20, evidence [20,35] fully held → 3; r overlap 10 →
    //   coverage 0.5, share 0.25, marginal → max = 3.
    // b2 [40,80]: r overlap 10 → 0.5/0.25, marginal; z2 overlap 20 → coverage 1 (informative 0).
    //   Judged 0: [45,65] = 20 s, of which [45,50] is inside r's evidence [30,50] → 15 of 40 s =
    //   0.375, not > 0.5 → unjudged.
    // b3 [25,45]: t overlap 10 (coverage 0.5, share 0.5), evidence [25,35] = 10/15 = 0.667 → 3;
    //   r overlap 15 → 0.75 → 1; z2 touches at 45 only → 3.
    expect(grades(s, [C("b1", "v", 0, 40), C("b2", "v", 40, 80), C("b3", "v", 25, 45)])).toEqual({ "q:b1": 3, "q:b3": 3 });
  });
  it("provenance lists every span touched with what it gave", () => {
    const [b1] = transferLabels(s, [C("b1", "v", 0, 40)]);
    expect(b1.rule).toBe("evidence");
    expect(b1.sources.map((x) => [x.labelId, x.coverage, x.evidenceCoverage, x.share, x.gives])).toEqual([
      ["z1", 1, 1, 0.5, null],
      ["t", 1, 1, 0.5, 3],
      ["r", 0.5, 0.5, 0.25, null],
    ]);
  });
});

describe("transfer: videos, queries, zero-length chunks, bad input", () => {
  it("different videos and different queries never interact", () => {
    const s = [L("q1", "v", 0, 20, 3), L("q1", "w", 0, 20, 0), L("q2", "v", 0, 20, 1)];
    // b_v [0,20] in v: exact for q1 (3) and q2 (1). b_w [0,20] in w: exact for q1 (0); q2 has no label in w.
    // b_u in video u: no labels there → unjudged.
    expect(grades(s, [C("bv", "v", 0, 20), C("bw", "w", 0, 20), C("bu", "u", 0, 20)])).toEqual({ "q1:bv": 3, "q2:bv": 1, "q1:bw": 0 });
  });
  it("a zero-length chunk holds no seconds: unjudged unless a labelled span is exactly it", () => {
    // [10,10] inside a g3 span [0,20]: no seconds to share → unjudged.
    expect(grades([L("q", "v", 0, 20, 3)], [C("b", "v", 10, 10)])).toEqual({});
    // labelled zero-length span [10,10] g2 and the same instant as a chunk: exact → 2.
    expect(grades([L("q", "v", 10, 10, 2)], [C("b", "v", 10, 10)])).toEqual({ "q:b": 2 });
    // a zero-length labelled span inside a chunk [0,20] gives it nothing → unjudged.
    expect(grades([L("q", "v", 10, 10, 3)], [C("b", "v", 0, 20)])).toEqual({});
  });
  it("the parameters move the thresholds", () => {
    // [12,32] over [0,20] g2: coverage 0.4 → unjudged at 0.5, inherits 2 at minCoverage 0.3.
    expect(grades([L("q", "v", 0, 20, 2)], [C("b", "v", 12, 32)], { minCoverage: 0.3 })).toEqual({ "q:b": 2 });
  });
  it("bad input is a RangeError naming the label or chunk", () => {
    expect(() => transferLabels([L("q", "v", 0, 20, 4, null, "bad")], [])).toThrow(/label bad .*grade must be an integer 0–3, found 4/);
    expect(() => transferLabels([L("q", "v", 20, 10, 1, null, "rev")], [])).toThrow(/label rev .*end must be seconds ≥ start/);
    expect(() => transferLabels([L("q", "v", 0, 20, 1)], [C("c9", "v", 30, 25)])).toThrow(/chunk c9 .*end must be/);
    expect(() => transferLabels([], [], { minShare: 1 })).toThrow(/minShare must be a share in \[0, 1\)/);
  });
});
