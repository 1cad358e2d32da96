import { describe, expect, it } from "vitest";
import { answerSpanRecall } from "../../../../lib/stats/time/span-recall.ts";
import { timeIou } from "../../../../lib/stats/time/time-iou.ts";
import { secondsRead } from "../../../../lib/stats/time/seconds-read.ts";
import { timeStartError } from "../../../../lib/stats/time/start-error.ts";
import { answerPlaces, type AnswerPlace } from "../../../../lib/stats/time/spans.ts";
import type { ChunkTime } from "../../../../lib/stats/measures/start-error.ts";

/*
 * Hand-made cases for the time-based measures (lib/stats/time/*.ts); expected values are derived
 * in the comments from each file's definition.
 * Chunks of video v: c1 [0,20], c2 [15,35], c3 [30,50], c4 [60,80], c5 the instant 100 (no end);
 * video w: w1 [0,30]. "x" is retrieved but has no known time.
 */
const chunks = new Map<string, ChunkTime>([
  ["c1", { video: "v", start: 0, end: 20 }],
  ["c2", { video: "v", start: 15, end: 35 }],
  ["c3", { video: "v", start: 30, end: 50 }],
  ["c4", { video: "v", start: 60, end: 80 }],
  ["c5", { video: "v", start: 100, end: null }],
  ["w1", { video: "w", start: 0, end: 30 }],
]);
const P = (video: string, start: number, end?: number): AnswerPlace => ({ video, start, end: end ?? null });
const input = (rankings: Record<string, string[]>, references: Record<string, AnswerPlace[]>) => ({
  rankings: new Map(Object.entries(rankings)),
  chunks,
  references: new Map(Object.entries(references)),
});

describe("answer-span recall@k", () => {
  const data = input(
    { q1: ["c4", "c2", "c1"], q2: ["w1"], q4: ["c5"], q5: ["c4"], q6: ["x", "c2"] },
    {
      q1: [P("v", 18, 32)],
      q2: [P("v", 62, 70), P("w", 5, 10)],
      q3: [],
      q4: [P("v", 100)],
      q5: [P("v", 78)],
      q6: [P("v", 18, 32)],
      q7: [P("v", 0, 10)],
    },
  );
  it("covers when the widened union of the top k holds the whole answer", () => {
    // q1, k=1: c4 widened by 5 s = [55,85], answer [18,32] not in it → 0.
    // q1, k=2: [55,85] ∪ [10,40] holds [18,32] → 1.
    expect(answerSpanRecall(data, { k: 1 }).perQuery.get("q1")).toEqual({ recall: 0, coverage: 0, missing: 0 });
    expect(answerSpanRecall(data, { k: 2 }).perQuery.get("q1")).toEqual({ recall: 1, coverage: 1, missing: 0 });
  });
  it("k larger than the ranking: the whole ranking", () => {
    expect(answerSpanRecall(data, { k: 100 }).perQuery.get("q1")?.recall).toBe(1);
  });
  it("tolerance and minCoverage", () => {
    const wide = input({ q: ["c2"] }, { q: [P("v", 10, 40)] });
    // tolerance 0: c2 [15,35] holds 20 of the answer's 30 s → coverage 2/3, not covered at 1, covered at 0.5.
    expect(answerSpanRecall(wide, { k: 1, tolerance: 0 }).perQuery.get("q")).toEqual({
      recall: 0,
      coverage: 2 / 3,
      missing: 0,
    });
    expect(answerSpanRecall(wide, { k: 1, tolerance: 0, minCoverage: 0.5 }).perQuery.get("q")?.recall).toBe(1);
    // tolerance 5: [10,40] → the whole answer → 1.
    expect(answerSpanRecall(wide, { k: 1 }).perQuery.get("q")?.recall).toBe(1);
  });
  it("several answer places: any one covered answers the question; other videos never cover", () => {
    // q2: w1 [0,30] (widened [-5,35]) holds w [5,10]; v [62,70] is not covered (no v chunk) → 1.
    expect(answerSpanRecall(data, { k: 1 }).perQuery.get("q2")?.recall).toBe(1);
    const other = input({ q: ["w1"] }, { q: [P("v", 5, 10)] });
    expect(answerSpanRecall(other, { k: 1 }).perQuery.get("q")?.recall).toBe(0);
  });
  it("edge cases: no reference (not scored), zero-length chunk (covers nothing), instant place, missing time, no ranking", () => {
    const r = answerSpanRecall(data, { k: 1 });
    expect(r.perQuery.get("q3")).toBeNull();
    // q4: c5 is the instant 100: it holds no transcript, so even the instant place 100 is not covered.
    expect(r.perQuery.get("q4")?.recall).toBe(0);
    // q5: the instant 78 lies in c4 widened [55,85] → 1.
    expect(r.perQuery.get("q5")?.recall).toBe(1);
    // q6, k=1: "x" takes rank 1 and covers nothing → 0, missing 1.
    expect(r.perQuery.get("q6")).toEqual({ recall: 0, coverage: 0, missing: 1 });
    // q7: references but no ranking → 0.
    expect(r.perQuery.get("q7")?.recall).toBe(0);
    // Mean at k=1 over the scored q1, q2, q4, q5, q6, q7 (q3 left out): (0+1+0+1+0+0)/6.
    expect(r.scored).toBe(6);
    expect(r.mean).toBeCloseTo(2 / 6, 12);
  });
  it("rejects a bad k", () => {
    expect(() => answerSpanRecall(data, { k: 0 })).toThrow(/k must be an integer ≥ 1/);
  });
});

describe("time-IoU@k", () => {
  it("intersection over union of retrieved and relevant seconds, overlap counted once", () => {
    const d = input({ q: ["c1", "c2"], qw: ["w1", "c2"] }, { q: [P("v", 18, 32)], qw: [P("v", 18, 32)] });
    // k=1: R = [0,20] (20 s), G = [18,32] (14 s), R∩G = 2 → 2 / (20 + 14 − 2) = 1/16.
    expect(timeIou(d, { k: 1 }).perQuery.get("q")?.iou).toBeCloseTo(1 / 16, 12);
    // k=2: R = [0,20] ∪ [15,35] = [0,35] (35 s, not 40), R∩G = 14 → 14 / 35 = 0.4.
    expect(timeIou(d, { k: 2 }).perQuery.get("q")).toEqual({ iou: 0.4, retrieved: 35, relevant: 14, shared: 14 });
    // qw, k=2: R = w [0,30] (30 s) + v [15,35] (20 s) = 50, shared 14 → 14 / 50 = 0.28.
    expect(timeIou(d, { k: 2 }).perQuery.get("qw")?.iou).toBeCloseTo(0.28, 12);
  });
  it("edge cases: no reference, references without seconds (not scored); nothing retrieved (0)", () => {
    const d = input({ a: ["c1"], b: ["c1"] }, { a: [], b: [P("v", 5)], c: [P("v", 0, 10)], e: [P("v", 90, 110)] });
    const r = timeIou({ ...d, rankings: new Map([...d.rankings, ["e", ["c5", "x"]]]) }, { k: 5 });
    expect(r.perQuery.get("a")).toBeNull();
    expect(r.perQuery.get("b")).toBeNull();
    // c: no ranking → R empty → 0 / (0 + 10 − 0) = 0.
    expect(r.perQuery.get("c")?.iou).toBe(0);
    // e: only a zero-length chunk and a docid without time → R has no seconds → 0.
    expect(r.perQuery.get("e")?.iou).toBe(0);
    expect(r.scored).toBe(2);
    expect(r.mean).toBe(0);
  });
});

describe("seconds read@k", () => {
  it("union of the top-k spans, overlap counted once; with repeats beside it", () => {
    const d = input({ q: ["c1", "c2", "c3"], m: ["c1", "c4", "c5", "x", "w1"] }, { z: [P("v", 0, 10)] });
    const r = secondsRead(d, { k: 3 });
    // q: [0,20] ∪ [15,35] ∪ [30,50] = [0,50] → 50 s; with repeats 20 + 20 + 20 = 60.
    expect(r.perQuery.get("q")).toEqual({ seconds: 50, withRepeats: 60, missing: 0 });
    // m, k=10 (larger than the ranking): v [0,20] + [60,80] = 40, c5 adds 0, x is missing, w 30 → 70; repeats 70.
    expect(secondsRead(d, { k: 10 }).perQuery.get("m")).toEqual({ seconds: 70, withRepeats: 70, missing: 1 });
    // z has references but no ranking: reads 0 and is scored.
    expect(r.perQuery.get("z")).toEqual({ seconds: 0, withRepeats: 0, missing: 0 });
    // k=3 for m: c1, c4, c5 → 40 s. Mean over q, m, z = (50 + 40 + 0) / 3 = 30; with repeats (60 + 40 + 0) / 3.
    expect(r.mean).toBe(30);
    expect(r.meanWithRepeats).toBeCloseTo(100 / 3, 12);
  });
});

describe("start-time error from chunk times", () => {
  const d = input(
    { q1: ["c3", "c1"], q2: ["c1", "c4"], q3: ["c1", "w1"], q4: ["x", "c4"], q6: ["c5"], q7: ["c3"] },
    {
      q1: [P("v", 18, 32), P("v", 70, 75), P("w", 0, 5)],
      q2: [P("v", 200, 210)],
      q3: [P("w", 0, 5)],
      q4: [P("v", 75, 90)],
      q5: [],
      q6: [P("v", 90, 110)],
    },
  );
  const r = timeStartError(d);
  it("the first chunk meeting an answer place, against the nearest place in its video", () => {
    // q1: c3 [30,50] meets [18,32] (2 s) at rank 1; v places start at 18 and 70 → min(12, 40) = 12;
    //   RR = 1 × (1 − 12/150) = 0.92.
    expect(r.perQuery.get("q1")).toEqual({ error: 12, rank: 1, timeAwareRR: 1 - 12 / 150, missingChunkTimes: 0 });
    // q3: c1 is in v (no place there), w1 [0,30] meets w [0,5] at rank 2 → error 0, RR 1/2.
    expect(r.perQuery.get("q3")).toEqual({ error: 0, rank: 2, timeAwareRR: 0.5, missingChunkTimes: 0 });
  });
  it("nearest place, not the place met", () => {
    // c3 [30,50] meets [40,50]; places start at 0 and 40 → min(30, 10) = 10.
    const n = timeStartError(input({ q: ["c3"] }, { q: [P("v", 0, 10), P("v", 40, 50)] }));
    expect(n.perQuery.get("q")?.error).toBe(10);
  });
  it("edge cases: none met (cap), missing time, zero-length chunk, no answer place", () => {
    // q2: nothing meets [200,210] → 150, rank 0.
    expect(r.perQuery.get("q2")).toEqual({ error: 150, rank: 0, timeAwareRR: 0, missingChunkTimes: 0 });
    // q4: x skipped; c4 [60,80] meets [75,90] at rank 2 → error 15, RR 0.5 × (1 − 15/150) = 0.45.
    expect(r.perQuery.get("q4")).toEqual({ error: 15, rank: 2, timeAwareRR: 0.45, missingChunkTimes: 1 });
    // q6: the instant 100 lies in [90,110] → error 10, RR 1 − 10/150.
    expect(r.perQuery.get("q6")?.error).toBe(10);
    // q5: no place → not scored; q7 has a ranking but no references → not in the result at all.
    expect(r.perQuery.get("q5")).toBeNull();
    expect(r.perQuery.has("q7")).toBe(false);
  });
  it("means over the scored questions: error, within 15/30/60 s, time-aware RR", () => {
    // errors q1 12, q2 150, q3 0, q4 15, q6 10 → 187 / 5 = 37.4; within 15: 12, 0, 15, 10 → 4/5
    // (15 ≤ 15 counts, as start_within_15 does); 30 and 60 the same; RR (0.92 + 0 + 0.5 + 0.45 + 14/15) / 5.
    expect(r.scored).toBe(5);
    expect(r.mean.error).toBeCloseTo(37.4, 12);
    expect(r.mean.within).toEqual({ 15: 0.8, 30: 0.8, 60: 0.8 });
    expect(r.mean.timeAwareRR).toBeCloseTo((0.92 + 0 + 0.5 + 0.45 + 14 / 15) / 5, 12);
  });
  it("depth limits the search", () => {
    // q3 with depth 1: c1 does not meet → cap.
    expect(timeStartError(d, { depth: 1 }).perQuery.get("q3")?.error).toBe(150);
  });
});

describe("answer places of a question", () => {
  it("given places plus grade-3 labels, with the corrected start where given", () => {
    const places = answerPlaces(
      [P("v", 5, 10)],
      [
        { video: "v", start: 20, end: 40, grade: 3, correctedStart: 25 },
        { video: "v", start: 40, end: 60, grade: 3, correctedStart: null },
        { video: "v", start: 60, end: 80, grade: 2, correctedStart: 65 },
        { video: "w", start: 20, end: 40, grade: 3, correctedStart: 12 },
        { video: "v", start: 80, end: 90, grade: 3, correctedStart: 95 },
        { video: "v", start: 0, end: 20, grade: 3, correctedStart: 5 },
        { video: "v", start: 0, end: 10, grade: 3, correctedStart: 5 },
      ],
    );
    // [20,40] from 25; [40,60] from its start; the grade-2 label is left out; w's corrected start
    // 12 lies before its chunk and is kept; 95 lies after [80,90]'s end → the chunk's start 80;
    // [0,20] from 5 → [5,20]; [0,10] from 5 → [5,10], the given place again → kept once.
    expect(places).toEqual([
      { video: "v", start: 5, end: 10 },
      { video: "v", start: 25, end: 40 },
      { video: "v", start: 40, end: 60 },
      { video: "w", start: 12, end: 40 },
      { video: "v", start: 80, end: 90 },
      { video: "v", start: 5, end: 20 },
    ]);
  });
});
