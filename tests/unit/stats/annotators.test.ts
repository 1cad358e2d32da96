import { describe, expect, it } from "vitest";
import { annotatorQuality, leaveOneOutReference, type TAnnotatedItem } from "../../../lib/stats/annotators.ts";

const j = (
  annotator: string,
  grade: number,
  timeSpentMs: number | null = null,
  startSeconds: number | null = null,
) => ({
  annotator,
  grade,
  startSeconds,
  timeSpentMs,
});

// Six items, two annotators A and B, four questions.
const items: TAnnotatedItem[] = [
  // agreed 3: A's reference is B's 3
  {
    qid: "q1",
    docid: "d1",
    judgements: [j("A", 3, 1000), j("B", 3)],
    adjudication: null,
    final: { grade: 3, startSeconds: null },
  },
  // disagreed, adjudicated 0: A's reference is the adjudicator's 0 (A overturned, B not)
  {
    qid: "q1",
    docid: "d2",
    judgements: [j("A", 2, 2000), j("B", 0)],
    adjudication: { grade: 0, startSeconds: null },
    final: { grade: 0, startSeconds: null },
  },
  // only A graded it: A's own grade decided it, left out of A's reference pairs
  {
    qid: "q2",
    docid: "d1",
    judgements: [j("A", 1, 4000)],
    adjudication: null,
    final: { grade: 1, startSeconds: null },
  },
  // disputed and not yet adjudicated: no final label, left out (a peer pair still)
  { qid: "q2", docid: "d2", judgements: [j("A", 0, 8000), j("B", 1)], adjudication: null, final: null },
  // agreed 3 with starts 10 and 14: A's reference start is B's 14 (error 4)
  {
    qid: "q3",
    docid: "d1",
    judgements: [j("A", 3, null, 10), j("B", 3, null, 14)],
    adjudication: null,
    final: { grade: 3, startSeconds: 12 },
  },
  {
    qid: "q4",
    docid: "d1",
    judgements: [j("A", 0, 500), j("B", 0)],
    adjudication: null,
    final: { grade: 0, startSeconds: null },
  },
];

describe("annotator quality", () => {
  it("compares each grade with the reference without the annotator's own grade", () => {
    expect(leaveOneOutReference(items[0], "A")).toEqual({ grade: 3, startSeconds: null });
    expect(leaveOneOutReference(items[1], "A")).toEqual({ grade: 0, startSeconds: null });
    expect(leaveOneOutReference(items[2], "A")).toBeNull();
    expect(leaveOneOutReference(items[3], "A")).toBeNull();
    expect(leaveOneOutReference(items[4], "A")).toEqual({ grade: 3, startSeconds: 14 });
  });

  it("gives kappa, leniency, start error, overturned share and time per item derived by hand", () => {
    const [a, b] = annotatorQuality(items, { minPairs: 2, resamples: 200 });
    expect(a.annotator).toBe("A");
    expect(a.graded).toBe(6);
    // A's pairs (reference, A): (3,3) (0,2) (3,3) (0,0), questions q1 q3 q4.
    // Linear weights |i−j|/3: observed disagreement (2/3)/4 = 1/6; marginals reference {0: ½, 3: ½},
    // A {0: ¼, 2: ¼, 3: ½}; expected = ½·¼·⅔ + ½·½·1 + ½·¼·1 + ½·¼·⅓ = 1/12 + 1/4 + 1/8 + 1/24 = 1/2;
    // kappa = 1 − (1/6)/(1/2) = 2/3 (scikit-learn cohen_kappa_score(weights="linear") computes the same).
    // Quadratic weights (|i−j|/3)²: observed (4/9)/4 = 1/9; expected 1/18 + 1/4 + 1/8 + 1/72 = 4/9;
    // kappa = 1 − (1/9)/(4/9) = 3/4.
    const ref = a.reference;
    if ("reason" in ref) throw new Error(ref.reason);
    expect(ref.n).toBe(4);
    expect(ref.questions).toBe(3);
    expect(ref.linear).toBeCloseTo(2 / 3, 12);
    expect(ref.quadratic).toBeCloseTo(0.75, 12);
    expect(ref.rawAgreement).toBeCloseTo(0.75, 12);
    expect(ref.confusion).toEqual([
      [1, 0, 1, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 2],
    ]);
    // Leniency: (0 + 2 + 0 + 0) / 4 = 0.5; the question bootstrap's interval holds it.
    expect(ref.leniency?.value).toBeCloseTo(0.5, 12);
    expect(ref.leniency?.interval?.low).toBeLessThanOrEqual(0.5);
    expect(ref.leniency?.interval?.high).toBeGreaterThanOrEqual(0.5);
    expect(ref.linearInterval).not.toBeNull();
    expect(a.start).toEqual({ n: 1, meanAbsError: 4, medianAbsError: 4 });
    // Adjudicated once and overturned (2 → 0): 1 of 6 graded.
    expect(a.adjudication).toEqual({ adjudicated: 1, overturned: 1, share: 1 / 6 });
    // Times 500, 1000, 2000, 4000, 8000 ms: median 2000; 10th percentile (type 7) at h = 0.4:
    // 500 + 0.4·500 = 700; at or under 3 s: 3 of 5.
    expect(a.time).toEqual({ n: 5, medianMs: 2000, p10Ms: 700, fastShare: 0.6, fastMs: 3000 });
    // A against B on the five items both graded: (B, A) = (3,3) (0,2) (1,0) (3,3) (0,0).
    expect(a.peers.map((p) => [p.other, p.n])).toEqual([["B", 5]]);
    expect(b.adjudication).toEqual({ adjudicated: 1, overturned: 0, share: 0 });
    expect(b.time.n).toBe(0);
    expect(b.time.medianMs).toBeNull();
  });

  it("says why there is no number when the sample is small", () => {
    const [a] = annotatorQuality(items);
    expect(a.reference).toMatchObject({ n: 4, reason: "4 pairs: fewer than 10" });
    expect(a.reference).not.toHaveProperty("linear");
    const [few] = annotatorQuality(items.slice(0, 2), { minPairs: 1 });
    expect(few.reference).toMatchObject({ questions: 1, reason: "1 questions: fewer than 3" });
  });

  it("compares with a judge on the pairs both labelled, the annotator as reference", () => {
    const judge = [
      { qid: "q1", docid: "d1", grade: 3 },
      { qid: "q1", docid: "d2", grade: 2 },
      { qid: "q3", docid: "d1", grade: 3 },
      { qid: "q4", docid: "d1", grade: 0 },
      { qid: "q9", docid: "d9", grade: 1 },
    ];
    const [a] = annotatorQuality(items, { judge, minPairs: 2, resamples: 100 });
    // Judge equals A on all four shared pairs: kappa 1.
    expect(a.judge).toMatchObject({ n: 4, linear: 1, quadratic: 1, rawAgreement: 1 });
  });
});
