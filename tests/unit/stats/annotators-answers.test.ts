import { describe, expect, it } from "vitest";
import { answerLeaveOneOut, answerQuality, type TAnnotatedAnswer } from "../../../lib/stats/annotators-answers.ts";
import type { TSupportLabel } from "../../../lib/stats/generation.ts";

const l = (annotator: string, claimLabels: TSupportLabel[], relevance: number, timeSpentMs: number | null = null) => ({
  annotator,
  claimVersion: 1,
  claimLabels,
  relevance,
  timeSpentMs,
});

const answers: TAnnotatedAnswer[] = [
  // agreed: A's reference is B's labels
  {
    qid: "q1",
    answerId: "a1",
    labels: [l("A", ["s", "n"], 2, 1000), l("B", ["s", "n"], 2)],
    adjudication: null,
    final: { claimVersion: 1, claimLabels: ["s", "n"], relevance: 2 },
  },
  // adjudicated with B's labels: A overturned
  {
    qid: "q2",
    answerId: "a2",
    labels: [l("A", ["s", "s"], 3, 3000), l("B", ["n", "s"], 1)],
    adjudication: { claimVersion: 1, claimLabels: ["n", "s"], relevance: 1 },
    final: { claimVersion: 1, claimLabels: ["n", "s"], relevance: 1 },
  },
  // only A labelled it: left out of A's comparisons
  {
    qid: "q3",
    answerId: "a3",
    labels: [l("A", ["p"], 1, 5000)],
    adjudication: null,
    final: { claimVersion: 1, claimLabels: ["p"], relevance: 1 },
  },
  // disputed, waiting: left out
  {
    qid: "q3",
    answerId: "a4",
    labels: [l("A", ["x", "s"], 0, 7000), l("B", ["n", "s"], 0)],
    adjudication: null,
    final: null,
  },
];

describe("answer-label quality per annotator", () => {
  it("leaves the annotator's own labels out of the reference", () => {
    expect(answerLeaveOneOut(answers[0], "A")?.claimLabels).toEqual(["s", "n"]);
    expect(answerLeaveOneOut(answers[1], "A")?.relevance).toBe(1);
    expect(answerLeaveOneOut(answers[2], "A")).toBeNull();
    expect(answerLeaveOneOut(answers[3], "A")).toBeNull();
  });

  it("gives claim kappa, overturned share and time derived by hand", () => {
    const [a, b] = answerQuality(answers, { minPairs: 2, resamples: 100 });
    // A's claims (reference, A): (s,s) (n,n) (n,s) (s,s); ordinal n=0 < p=1 < s=2 (x as n), on the
    // 0–3 scale. Linear: observed disagreement (2/3)/4 = 1/6; marginals reference {0: ½, 2: ½},
    // A {0: ¼, 2: ¾}; expected ½·¾·⅔ + ½·¼·⅔ = 1/3; kappa = 1 − (1/6)/(1/3) = 0.5.
    // Quadratic: observed (4/9)/4 = 1/9, expected ½·(4/9) = 2/9: kappa 0.5. Raw agreement 3/4.
    expect(a.claims).toMatchObject({ n: 4, linear: 0.5, rawAgreement: 0.75 });
    if ("reason" in a.claims) throw new Error(a.claims.reason);
    expect(a.claims.quadratic).toBeCloseTo(0.5, 12);
    expect(a.claims.linearInterval!.low).toBeLessThan(0.5);
    // Relevance pairs (2,2) and (1,3) on two questions: too few questions for a number.
    expect(a.relevance).toMatchObject({ n: 2, questions: 2, reason: "2 questions: fewer than 3" });
    expect(a.labelled).toBe(4);
    expect(a.adjudication).toEqual({ adjudicated: 1, overturned: 1, share: 0.25 });
    // Times 1, 3, 5, 7 s: median 4 s; 10th percentile (type 7) 1 + 0.3·2 = 1.6 s; ≤ 3 s: 2 of 4.
    expect(a.time).toEqual({ n: 4, medianMs: 4000, p10Ms: 1600, fastShare: 0.5, fastMs: 3000 });
    expect(b.labelled).toBe(3);
    expect(b.adjudication).toEqual({ adjudicated: 1, overturned: 0, share: 0 });
  });

  it("says why there is no number with few claims", () => {
    const [a] = answerQuality(answers);
    expect(a.claims).toEqual({ n: 4, reason: "4 claims: fewer than 10" });
  });
});
