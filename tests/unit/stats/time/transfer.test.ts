import { describe, expect, it } from "vitest";
import type { ReferenceSpan } from "../../../../lib/stats/time/reference.ts";
import {
  transferLabels,
  type LabelledSpan,
  type TargetChunk,
  type TransferOptions,
} from "../../../../lib/stats/time/transfer.ts";

/*
 * Hand-made cases for the transfer rule, version 2 (lib/stats/time/transfer.ts). Every expected
 * grade is derived in the comment beside it from the rule: W = references widened by 5 s;
 * verdict(r) = highest grade of A's labels holding ≥ half of r (3 when none); answer: the chunk
 * holds ≥ half of r; part: ≥ 1 s of r; near: within 5 s of r; an unexplained relevant label
 * (no reference inside it) localises its answer to cand = its seconds minus A's grade ≤ 1 labels;
 * free = (grade-0 labels ∪ explained relevant labels) − W; zero: free seconds > 0 and ≥ zeroShare
 * (default 0) of the chunk.
 */
let nextId = 0;
const L = (
  query: string,
  video: string,
  start: number,
  end: number,
  grade: number,
  id = `l${nextId++}`,
): LabelledSpan => ({ id, query, video, start, end, grade });
const C = (id: string, video: string, start: number, end: number): TargetChunk => ({ id, video, start, end });
const R = (video: string, start: number, end: number | null): ReferenceSpan => ({ video, start, end });
/** query:chunk → grade, for every chunk the rule labels. */
function grades(
  labels: LabelledSpan[],
  chunks: TargetChunk[],
  refs: Record<string, ReferenceSpan[]> = {},
  opts?: TransferOptions,
): Record<string, number> {
  return Object.fromEntries(
    transferLabels(labels, chunks, opts, new Map(Object.entries(refs))).map((t) => [
      `${t.query}:${t.chunkId}`,
      t.grade,
    ]),
  );
}

describe("transfer v2: identity", () => {
  // Chunking A: 20 s chunks every 15 s (5 s overlap). a2 and a4 were never labelled.
  const A = [
    C("a0", "v", 0, 20),
    C("a1", "v", 15, 35),
    C("a2", "v", 30, 50),
    C("a3", "v", 45, 65),
    C("a4", "v", 60, 80),
  ];
  const labels = [L("q", "v", 0, 20, 0, "x0"), L("q", "v", 15, 35, 3, "x1"), L("q", "v", 45, 65, 1, "x3")];
  it("B = A gives A's labels exactly, and nothing for the unlabelled chunks", () => {
    // a0, a1, a3: exact. a1 is unexplained (no reference): cand = [15,35] − [0,20] (grade 0) = [20,35].
    // a2 [30,50] holds [30,35] of cand, 5 of 15 s: uncertain → unjudged.
    // a4 [60,80]: holds 5 of a3's 20 s (not all: no "related"); free (grade-0) seconds: none → unjudged.
    expect(grades(labels, A)).toEqual({ "q:a0": 0, "q:a1": 3, "q:a3": 1 });
  });
  it("the exact match's provenance names the label", () => {
    const t = transferLabels(labels, A).find((x) => x.chunkId === "a1");
    expect(t).toEqual({
      query: "q",
      chunkId: "a1",
      grade: 3,
      rule: "exact",
      reference: null,
      free: null,
      sources: [{ labelId: "x1", grade: 3, coverage: 1, share: 1, gives: 3 }],
    });
  });
  it("chunks given out of order give the same labels", () => {
    expect(grades(labels, [...A].reverse())).toEqual(grades(labels, A));
  });
});

describe("transfer v2: coarse → fine with an answer place", () => {
  // A: [0,60] g3 and [45,105] g0; the answer place [30,36]. verdict: [0,60] holds all 6 s ≥ 3 → 3.
  // [0,60] meets the place: explained. W = [25,41]. free = ([0,60] ∪ [45,105]) − W = [0,25] ∪ [41,105].
  const labels = [L("q", "v", 0, 60, 3), L("q", "v", 45, 105, 0)];
  const refs = { q: [R("v", 30, 36)] };
  const B = [
    C("b0", "v", 0, 20),
    C("b1", "v", 15, 35),
    C("b2", "v", 30, 50),
    C("b3", "v", 45, 65),
    C("b5", "v", 90, 110),
    C("b6", "v", 37, 45),
  ];
  it("the chunk holding the answer is 3, the rest of the relevant coarse chunk 0, the talk beside it 1", () => {
    // b0 [0,20]: 10 s from the place (not near); free 20/20 → 0.
    // b1 [15,35]: holds [30,35] = 5 s ≥ 3 → answer → 3.   b2 [30,50]: holds 6 s → 3.
    // b3 [45,65]: 9 s after the place; free 20/20 → 0.   b5 [90,110]: free [90,105] = 0.75 → 0.
    // b6 [37,45]: no second of the place, 1 s after its end ≤ 5 → near → min(1, 3) = 1.
    expect(grades(labels, B, refs)).toEqual({ "q:b0": 0, "q:b1": 3, "q:b2": 3, "q:b3": 0, "q:b5": 0, "q:b6": 1 });
  });
  it("zeroShare asks for more of the chunk to be shown free", () => {
    // b5: 0.75 < 0.8 → unjudged; b0, b3: 1 ≥ 0.8 → 0.
    expect(grades(labels, B, refs, { zeroShare: 0.8 })).toMatchObject({ "q:b0": 0, "q:b3": 0 });
    expect(grades(labels, B, refs, { zeroShare: 0.8 })["q:b5"]).toBeUndefined();
  });
  it("provenance: the reference span that gave the grade, the free share for 0", () => {
    const t = transferLabels(labels, B, {}, new Map(Object.entries(refs)));
    expect(t.find((x) => x.chunkId === "b1")).toMatchObject({
      grade: 3,
      rule: "answer",
      reference: { start: 30, end: 36, open: false },
      free: null,
    });
    expect(t.find((x) => x.chunkId === "b5")).toMatchObject({ grade: 0, rule: "zero", reference: null, free: 0.75 });
  });
});

describe("transfer v2: part, near, open spans, A's verdict", () => {
  it("part of the answer is 2, half a second of it is near (1)", () => {
    // place [30,40]: [37,57] holds 3 s (< 5, ≥ 1) → part → 2; [39.5,60] holds 0.5 s (< 1) and
    // lies within 5 s → near → 1; [35,55] holds 5 s = half → 3. No labels of A: verdict 3.
    expect(
      grades([], [C("p", "v", 37, 57), C("n", "v", 39.5, 60), C("h", "v", 35, 55)], { q: [R("v", 30, 40)] }),
    ).toEqual({ "q:p": 2, "q:n": 1, "q:h": 3 });
  });
  it("an open span is as long as the median closed one, or openSeconds", () => {
    // Closed spans of 6 and 10 s (queries r, s) → median 8: q's open span at 100 is [100,108].
    // [90,103] holds 3 s < 4 → part → 2; [102,120] holds 6 s ≥ 4 → 3.
    const refs = { q: [R("v", 100, null)], r: [R("w", 0, 6)], s: [R("w", 50, 60)] };
    const B = [C("x", "v", 90, 103), C("y", "v", 102, 120)];
    expect(grades([], B, refs)).toEqual({ "q:x": 2, "q:y": 3 });
    // openSeconds 4 → [100,104]: x holds 3 s ≥ 2 → 3; y holds 2 s = half → 3.
    expect(grades([], B, refs, { openSeconds: 4 })).toEqual({ "q:x": 3, "q:y": 3 });
  });
  it("A's annotators' grade of the chunk holding the answer bounds B's grade", () => {
    // place [30,36]; A's [20,40] holds it all and was graded 2 → verdict 2. B's [25,45] holds the
    // place → 2; [36.5,50] is near → min(1, 2) = 1.
    expect(
      grades([L("q", "v", 20, 40, 2)], [C("b", "v", 25, 45), C("n", "v", 36.5, 50)], { q: [R("v", 30, 36)] }),
    ).toEqual({ "q:b": 2, "q:n": 1 });
  });
});

describe("transfer v2: fine → coarse without references", () => {
  // A: a0 [0,20] g0, a1 [15,35] g3, a2 [30,50] g0, a3 [45,65] g0. Grade ≤ 1 union [0,20] ∪ [30,65];
  // a1 is unexplained: cand = [20,30]. free = grade-0 union [0,20] ∪ [30,65].
  const labels = [L("q", "v", 0, 20, 0), L("q", "v", 15, 35, 3), L("q", "v", 30, 50, 0), L("q", "v", 45, 65, 0)];
  const B = [C("b0", "v", 0, 60), C("b1", "v", 45, 105), C("b2", "v", 90, 150), C("b3", "v", 25, 85)];
  it("a coarse chunk holding the answer's region is 3; one with free seconds and none of it 0; one holding part of it unjudged", () => {
    // b0 holds [20,30] all → evidence → 3. b1 [45,105]: free [45,65] = 20/60 > 0 → 0.
    // b2 [90,150] touches no label → unjudged. b3 [25,85] holds [25,30], half of cand → uncertain → unjudged.
    expect(grades(labels, B)).toEqual({ "q:b0": 3, "q:b1": 0 });
    // zeroShare 0.5: b1's 0.333 is not enough → unjudged.
    expect(grades(labels, B, {}, { zeroShare: 0.5 })).toEqual({ "q:b0": 3 });
  });
  it("a chunk holding a whole related (1) label and nothing of an answer region is 1", () => {
    // [0,20] g1; [0,40] holds all of it → related → 1. [10,30] holds half: no; no free seconds → unjudged.
    expect(grades([L("q", "v", 0, 20, 1)], [C("w", "v", 0, 40), C("h", "v", 10, 30)])).toEqual({ "q:w": 1 });
  });
  it("a relevant label with no reference inside it is evidence even when the question has references elsewhere", () => {
    // q's place is in video w; in v, [0,20] g3 is unexplained: cand = [0,20]; [0,40] holds it → 3.
    expect(grades([L("q", "v", 0, 20, 3)], [C("b", "v", 0, 40)], { q: [R("w", 5, 10)] })).toEqual({ "q:b": 3 });
  });
});

describe("transfer v2: videos, queries, zero-length chunks, bad input", () => {
  it("different videos and different queries never interact", () => {
    const s = [L("q1", "v", 0, 20, 3), L("q1", "w", 0, 20, 0), L("q2", "v", 0, 20, 1)];
    // b_v [0,20] in v: exact for q1 (3) and q2 (1). b_w [0,20] in w: exact for q1 (0); q2 has no label in w.
    // b_u in video u: no labels there → unjudged.
    expect(grades(s, [C("bv", "v", 0, 20), C("bw", "w", 0, 20), C("bu", "u", 0, 20)])).toEqual({
      "q1:bv": 3,
      "q2:bv": 1,
      "q1:bw": 0,
    });
  });
  it("a zero-length chunk holds no seconds: unjudged unless a labelled span is exactly it", () => {
    // [10,10] inside a g0 span [0,20]: no seconds → unjudged.
    expect(grades([L("q", "v", 0, 20, 0)], [C("b", "v", 10, 10)])).toEqual({});
    // labelled zero-length span [10,10] g2 and the same instant as a chunk: exact → 2.
    expect(grades([L("q", "v", 10, 10, 2)], [C("b", "v", 10, 10)])).toEqual({ "q:b": 2 });
  });
  it("bad input is a RangeError naming the label, chunk or option", () => {
    expect(() => transferLabels([L("q", "v", 0, 20, 4, "bad")], [])).toThrow(
      /label bad .*grade must be an integer 0–3, found 4/,
    );
    expect(() => transferLabels([L("q", "v", 20, 10, 1, "rev")], [])).toThrow(
      /label rev .*end must be seconds ≥ start/,
    );
    expect(() => transferLabels([L("q", "v", 0, 20, 1)], [C("c9", "v", 30, 25)])).toThrow(/chunk c9 .*end must be/);
    expect(() => transferLabels([], [], { holdShare: 0 })).toThrow(/holdShare must be a share in \(0, 1\]/);
    expect(() => transferLabels([], [], { openSeconds: -1 })).toThrow(/openSeconds must be seconds > 0 or null/);
  });
});
