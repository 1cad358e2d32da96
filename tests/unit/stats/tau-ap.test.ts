import { describe, expect, it } from "vitest";
import { rankingAgreement, symmetricTauAp, tauAp } from "../../../lib/stats/tau-ap.ts";

describe("τ_AP (Yilmaz, Aslam & Robertson 2008)", () => {
  it("costs a swap at the top more than one at the bottom", () => {
    // Truth A > B > C > D (scores 4 3 2 1).
    // Evaluated B > A > C > D, order B A C D: C(2) = 0 (B is not above A in truth), C(3) = 2, C(4) = 3
    // → 2/3 · (0/1 + 2/2 + 3/3) − 1 = 1/3 (Kendall τ: 5 concordant, 1 discordant → 2/3).
    expect(tauAp([3, 4, 2, 1], [4, 3, 2, 1])).toBeCloseTo(1 / 3, 12);
    // Evaluated A > B > D > C: C(2) = 1, C(3) = 2 (A, B above D), C(4) = 2 of 3 (D is not above C)
    // → 2/3 · (1 + 1 + 2/3) − 1 = 7/9.
    expect(tauAp([4, 3, 1, 2], [4, 3, 2, 1])).toBeCloseTo(7 / 9, 12);
    expect(tauAp([1, 2, 3], [1, 2, 3])).toBe(1);
    expect(tauAp([3, 2, 1], [1, 2, 3])).toBe(-1);
    expect(tauAp([1], [1])).toBeNull();
  });

  it("is asymmetric; the symmetric form is the mean of both directions", () => {
    // Truth X > Y > Z (3 2 1); evaluated Y > Z > X (1 3 2), order Y Z X: C(2) = 1 (Y above Z), C(3) = 0
    // → 2/2 · (1/1 + 0/2) − 1 = 0.
    expect(tauAp([1, 3, 2], [3, 2, 1])).toBeCloseTo(0, 12);
    // The other way: order X Y Z by truth, judged by Y > Z > X: C(2) = 0, C(3) = 1 of 2 (Y above Z)
    // → 1 · (0 + 1/2) − 1 = −1/2.
    expect(tauAp([3, 2, 1], [1, 3, 2])).toBeCloseTo(-0.5, 12);
    expect(symmetricTauAp([1, 3, 2], [3, 2, 1])).toBeCloseTo(-0.25, 12);
  });

  it("counts a tie in the reference as one half", () => {
    // Reference ties A and B (2 2 1); evaluated A > B > C: C(2) = ½, C(3) = 2 → 2/2 · (½ + 1) − 1 = ½.
    expect(tauAp([3, 2, 1], [2, 2, 1])).toBeCloseTo(0.5, 12);
  });
});

describe("ranking agreement between judge-based and human-based system rankings", () => {
  // Four systems on four questions; the judge's values are the human ones plus a shift that swaps
  // the two best systems' means: human means s0 0.8, s1 0.7, s2 0.4, s3 0.2; judge s0 0.7, s1 0.8.
  const human = [
    [0.8, 0.8, 0.8, 0.8],
    [0.7, 0.7, 0.7, 0.7],
    [0.4, 0.4, 0.4, 0.4],
    [0.2, 0.2, 0.2, 0.2],
  ];
  const judge = [
    [0.7, 0.7, 0.7, 0.7],
    [0.8, 0.8, 0.8, 0.8],
    [0.4, 0.4, 0.4, 0.4],
    [0.2, 0.2, 0.2, 0.2],
  ];
  it("over all systems and the human top half, with intervals", () => {
    const r = rankingAgreement(["s0", "s1", "s2", "s3"], judge, human, { resamples: 200 });
    // All: one discordant pair of 6 → τ = 4/6; τ_AP both ways 1/3 (the first case above).
    expect(r.all.tau).toBeCloseTo(2 / 3, 12);
    expect(r.all.tauAp).toBeCloseTo(1 / 3, 12);
    // Top half: s0 and s1, reversed → τ = −1, τ_AP = −1.
    expect(r.top.names).toEqual(["s0", "s1"]);
    expect(r.top.tau).toBe(-1);
    expect(r.top.tauAp).toBe(-1);
    // Every question says the same: each resample gives the same means, the interval is a point.
    expect(r.all.tauInterval).toEqual({ low: 2 / 3, high: 2 / 3 });
    expect(r.queries).toBe(4);
  });

  it("the interval widens when questions disagree, and holds the point estimate", () => {
    const h = [
      [1, 0, 1, 0, 1, 1],
      [0, 1, 0, 1, 0, 1],
      [0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
    ];
    const j = [
      [1, 0, 0, 0, 1, 1],
      [0, 1, 1, 1, 0, 1],
      [0.4, 0.5, 0.5, 0.5, 0.5, 0.6],
    ];
    const r = rankingAgreement(["a", "b", "c"], j, h, { resamples: 500, seed: 7 });
    expect(r.all.tauInterval).not.toBeNull();
    expect(r.all.tauInterval!.low).toBeLessThan(r.all.tauInterval!.high);
    expect(r.all.tauInterval!.low).toBeLessThanOrEqual(r.all.tau!);
    expect(r.all.tauInterval!.high).toBeGreaterThanOrEqual(r.all.tau!);
  });
});
