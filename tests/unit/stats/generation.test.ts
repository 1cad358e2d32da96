import { describe, expect, it } from "vitest";
import { bootstrapMeanCI } from "../../../lib/stats/bootstrap.ts";
import {
  attributionTable,
  averageRanks,
  claimAgreement,
  contextRelevance,
  faithfulness,
  faithfulnessAgreement,
  isGoodAnswer,
  spearman,
  systemMeans,
  type TSupportLabel,
} from "../../../lib/stats/generation.ts";

describe("faithfulness", () => {
  it("is (#s + w·#p) / #claims, with n and x counting 0", () => {
    // s p n x: (1 + 0.5) / 4 = 0.375 with partial = 0.5; 1 / 4 = 0.25 with partial = 0.
    expect(faithfulness(["s", "p", "n", "x"])).toBe(0.375);
    expect(faithfulness(["s", "p", "n", "x"], 0)).toBe(0.25);
    // Every claim true per the video but absent from the context: nothing supported by the context.
    expect(faithfulness(["x", "x"])).toBe(0);
    expect(faithfulness(["s", "s", "p"])).toBeCloseTo(2.5 / 3, 12);
  });

  it("is undefined for an answer without claims", () => {
    expect(faithfulness([])).toBeNull();
    expect(faithfulness([], 0)).toBeNull();
  });

  it("calls an answer good at supported share ≥ 0.5 and relevance ≥ 2", () => {
    expect(isGoodAnswer(["s", "p"], 2)).toBe(true); // 0.75
    expect(isGoodAnswer(["s", "n"], 2)).toBe(true); // exactly 0.5
    expect(isGoodAnswer(["s", "n"], 1)).toBe(false); // relevance too low
    expect(isGoodAnswer(["p", "n"], 3)).toBe(false); // 0.25
    expect(isGoodAnswer([], 3)).toBeNull();
  });
});

describe("claimAgreement (judge vs human on claim support)", () => {
  // human → judge: s→s, s→s, s→p, p→p, p→n, n→n, x→n, n→s
  const pairs: { human: TSupportLabel; judge: TSupportLabel }[] = [
    { human: "s", judge: "s" },
    { human: "s", judge: "s" },
    { human: "s", judge: "p" },
    { human: "p", judge: "p" },
    { human: "p", judge: "n" },
    { human: "n", judge: "n" },
    { human: "x", judge: "n" },
    { human: "n", judge: "s" },
  ];
  const r = claimAgreement(pairs);

  it("weights the ordered labels n < p < s with x as n", () => {
    // Ordinal codes (n, x = 0; p = 1; s = 2): human 2 2 2 1 1 0 0 0, judge 2 2 1 1 0 0 0 2.
    // Confusion rows human, cols judge: [2 0 1; 1 1 0; 0 1 2]; margins rows 3 2 3, cols 3 2 3, n = 8.
    // Linear: Σ|i−j|·O = 2 (0→2) + 1 (1→0) + 1 (2→1) = 4; Σ|i−j|·r_i·c_j / n = (24 + 12 + 24) / 8 = 7.5;
    //   κ = 1 − 4 / 7.5 = 7/15 (scikit-learn cohen_kappa_score(weights="linear") on the codes).
    expect(r.kappa.linear.value).toBeCloseTo(7 / 15, 12);
    // Quadratic: Σ(i−j)²·O = 4 + 1 + 1 = 6; Σ(i−j)²·r_i·c_j / n = (42 + 12 + 42) / 8 = 12; κ = 1 − 6/12 = 0.5.
    expect(r.kappa.quadratic.value).toBeCloseTo(0.5, 12);
    // Unweighted: p_o = 5/8, p_e = (9 + 4 + 9) / 64 = 22/64; κ = (40/64 − 22/64) / (42/64) = 18/42 = 3/7.
    expect(r.kappa.unweighted.value).toBeCloseTo(3 / 7, 12);
    expect(r.n).toBe(8);
  });

  it("shows the four labels apart: confusion, raw agreement, per-label precision and recall", () => {
    // Rows human s p n x, columns judge s p n x.
    expect(r.confusion).toEqual([
      [2, 1, 0, 0],
      [0, 1, 1, 0],
      [1, 0, 1, 0],
      [0, 0, 1, 0],
    ]);
    // Diagonal 2 + 1 + 1 + 0 = 4 of 8.
    expect(r.rawAgreement).toBe(0.5);
    // s: judge said s 3 times, 2 right → P 2/3; human said s 3 times, judge matched 2 → R 2/3.
    expect(r.perLabel.s.precision).toBeCloseTo(2 / 3, 12);
    expect(r.perLabel.s.recall).toBeCloseTo(2 / 3, 12);
    expect(r.perLabel.p).toEqual({ precision: 0.5, recall: 0.5, support: 2 });
    // n: judge said n 3 times (p→n, n→n, x→n), 1 right → P 1/3; human n twice → R 1/2.
    expect(r.perLabel.n.precision).toBeCloseTo(1 / 3, 12);
    expect(r.perLabel.n.recall).toBe(0.5);
    // x: the judge never says x → precision undefined; the human's one x missed → recall 0.
    expect(r.perLabel.x).toEqual({ precision: null, recall: 0, support: 1 });
  });

  it("reports kappa as undefined without pairs", () => {
    const empty = claimAgreement([]);
    expect(empty.kappa.linear.value).toBeNull();
    expect(empty.rawAgreement).toBeNull();
  });
});

describe("faithfulness judge vs human", () => {
  it("ranks ties by their average rank", () => {
    expect(averageRanks([0.375, 1, 0.5, 0.5, 0])).toEqual([2, 5, 3.5, 3.5, 1]);
  });

  it("gives the mean absolute difference and Spearman's rho (scipy.stats.spearmanr)", () => {
    const human = [0.375, 1, 0.5, 0.5, 0];
    const judge = [0.25, 1, 0.75, 0.5, 0.25];
    const r = faithfulnessAgreement(human.map((h, i) => ({ human: h, judge: judge[i] })));
    // |Δ| = 0.125, 0, 0.25, 0, 0.25 → 0.625 / 5.
    expect(r.meanAbsDiff).toBeCloseTo(0.125, 12);
    // Ranks human 2 5 3.5 3.5 1, judge 1.5 5 4 3 1.5; centred (mean 3): Σab = 9, Σa² = Σb² = 9.5
    // → ρ = 9 / 9.5 = 0.9473684…; scipy.stats.spearmanr gives 0.9473684210526317.
    expect(r.spearman.rho).toBeCloseTo(0.9473684210526317, 12);
    // scipy.stats.spearmanr([1,2,3,4],[1,3,2,4]) → 0.8 (no ties: 1 − 6·Σd²/(n(n²−1)) = 1 − 12/60).
    expect(spearman([1, 2, 3, 4], [1, 3, 2, 4]).rho).toBeCloseTo(0.8, 12);
  });

  it("is undefined for fewer than two answers or a constant side", () => {
    expect(spearman([0.5], [0.5]).rho).toBeNull();
    expect(spearman([0.5, 0.5, 0.5], [0, 0.5, 1]).rho).toBeNull();
    expect(faithfulnessAgreement([]).meanAbsDiff).toBeNull();
  });
});

describe("contextRelevance", () => {
  // Context chunks 10, 11, 12 in that order; the query's reference labels 10:0, 12:3, 20:2 (20 not in the context).
  const judged = new Map([
    [10, 0],
    [12, 3],
    [20, 2],
  ]);

  it("takes the highest reference grade in the context and the context's nDCG@10", () => {
    const exp = contextRelevance([10, 11, 12], judged, "exponential");
    expect(exp.maxGrade).toBe(3);
    // DCG = (2³ − 1) / log2(4) = 3.5; ideal = 7 / log2(2) + 3 / log2(3) = 7 + 1.892789 = 8.892789.
    expect(exp.ndcg).toBeCloseTo(3.5 / (7 + 3 / Math.log2(3)), 12);
    const lin = contextRelevance([10, 11, 12], judged, "linear");
    // DCG = 3 / 2 = 1.5; ideal = 3 + 2 / log2(3) = 4.261860.
    expect(lin.ndcg).toBeCloseTo(1.5 / (3 + 2 / Math.log2(3)), 12);
  });

  it("has no nDCG when the query has no relevant reference label, and max grade −1 when none of the context is labelled", () => {
    expect(contextRelevance([11], judged, "exponential")).toEqual({ maxGrade: -1, ndcg: 0 });
    expect(contextRelevance([10], new Map([[10, 0]]), "exponential")).toEqual({ maxGrade: 0, ndcg: null });
    expect(contextRelevance([10], new Map(), "exponential")).toEqual({ maxGrade: -1, ndcg: null });
  });
});

describe("attributionTable", () => {
  const rows = [
    { qid: "q1", maxGrade: 3, good: true },
    { qid: "q2", maxGrade: 1, good: true },
    { qid: "q3", maxGrade: 0, good: false },
    { qid: "q4", maxGrade: -1, good: true },
    { qid: "q5", maxGrade: 2, good: false },
    { qid: "q6", maxGrade: 1, good: false },
  ];

  it("splits question × system into the four cells at grade ≥ 1", () => {
    const t = attributionTable(rows, 1);
    // relevant (≥ 1): q1 q2 q5 q6; good: q1 q2 q4.
    expect(t.counts).toEqual({ retrieval_failed: 1, generator_failed: 2, good_without_evidence: 1, fine: 2 });
    expect(t.examples).toEqual({
      retrieval_failed: ["q3"],
      generator_failed: ["q5", "q6"],
      good_without_evidence: ["q4"],
      fine: ["q1", "q2"],
    });
    expect(t.n).toBe(6);
  });

  it("moves grade-1 contexts to the no-evidence side at grade ≥ 2", () => {
    const t = attributionTable(rows, 2);
    // relevant (≥ 2): q1 q5 → q2 becomes good without evidence, q6 retrieval failed.
    expect(t.counts).toEqual({ retrieval_failed: 2, generator_failed: 1, good_without_evidence: 2, fine: 1 });
    expect(t.examples.good_without_evidence).toEqual(["q2", "q4"]);
    expect(attributionTable(rows, 2, 1).examples.retrieval_failed).toEqual(["q3"]);
  });
});

describe("systemMeans", () => {
  const opts = { resamples: 1000, trials: 1000, seed: 1, level: 0.95 };
  // Questions q0–q3; A: 1, 0.5, –, 0; B: 0.5, 0.5, 1, –; C: 0.2, 0.4, 0.6, 0.8.
  const values = [
    [1, 0.5, null, 0],
    [0.5, 0.5, 1, null],
    [0.2, 0.4, 0.6, 0.8],
  ];
  const cells = systemMeans(values, 0, opts);

  it("averages over the questions where the value is defined", () => {
    expect(cells[0]).toMatchObject({ mean: 0.5, n: 3, test: null }); // (1 + 0.5 + 0) / 3
    expect(cells[1].mean).toBeCloseTo(2 / 3, 12);
    expect(cells[2].mean).toBeCloseTo(0.5, 12);
  });

  it("tests each system against the baseline on the questions both have", () => {
    // B vs A on q0, q1: differences −0.5 and 0 → mean −0.25 over 2; a single non-zero difference
    // is as extreme under every sign flip, so p = (T + 1) / (T + 1) = 1.
    expect(cells[1].test).toEqual({ meanDiff: -0.25, p: 1, n: 2 });
    // C vs A on q0, q1, q3: −0.8, −0.1, 0.8 → mean −0.1/3.
    expect(cells[2].test?.n).toBe(3);
    expect(cells[2].test?.meanDiff).toBeCloseTo(-0.1 / 3, 12);
  });

  it("gives a column without gaps the plain bootstrap interval of its mean", () => {
    expect(cells[2].ci).toEqual(bootstrapMeanCI(values[2] as number[], { resamples: 1000, seed: 1, level: 0.95 }));
    expect(cells[2].ci!.low).toBeGreaterThanOrEqual(0.2);
    expect(cells[2].ci!.high).toBeLessThanOrEqual(0.8);
  });

  it("gives the same intervals and tests when updated from a memo after a value changed", () => {
    const memo = { intervals: new Map(), paired: new Map() };
    const keys = ["A", "B", "C"];
    systemMeans(values, 0, { ...opts, memo, keys });
    const changed = [values[0], [0.5, 0, 1, null], values[2]];
    expect(systemMeans(changed, 0, { ...opts, memo, keys })).toEqual(systemMeans(changed, 0, opts));
  });
});
