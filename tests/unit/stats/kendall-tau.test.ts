import { describe, expect, it } from "vitest";
import { kendallTau } from "../../../lib/stats/kendall-tau.ts";

// Expected values from scipy 1.x, scipy.stats.kendalltau (tau-b), computed once on this machine:
//   kendalltau([1,2,3,4,5],[3,4,1,2,5]) → 0.2
//   kendalltau([1,2,2,3],[1,3,2,2]) → 0.4
//   kendalltau([0.5,0.3,0.3,0.9,0.1],[0.4,0.4,0.2,0.8,0.05]) → 0.8888888888888888
describe("kendallTau (tau-b)", () => {
  it("without ties equals (C − D) / n0: 6 concordant, 4 discordant of 10 pairs", () => {
    const r = kendallTau([1, 2, 3, 4, 5], [3, 4, 1, 2, 5]);
    expect(r.tau).toBeCloseTo(0.2, 12);
    expect(r).toMatchObject({ concordant: 6, discordant: 4 });
  });

  it("corrects for ties on both sides as scipy does", () => {
    expect(kendallTau([1, 2, 2, 3], [1, 3, 2, 2]).tau).toBeCloseTo(0.4, 12);
    expect(kendallTau([0.5, 0.3, 0.3, 0.9, 0.1], [0.4, 0.4, 0.2, 0.8, 0.05]).tau).toBeCloseTo(0.8888888888888888, 12);
  });

  it("is 1 for the same order and −1 for the reversed order", () => {
    expect(kendallTau([0.1, 0.2, 0.3], [10, 20, 30]).tau).toBe(1);
    expect(kendallTau([0.1, 0.2, 0.3], [30, 20, 10]).tau).toBe(-1);
  });

  it("is undefined (null with a reason) for fewer than two items or a constant side", () => {
    expect(kendallTau([1], [2])).toEqual({ tau: null, n: 1, reason: "fewer than two items to order" });
    const constant = kendallTau([0.5, 0.5, 0.5], [1, 2, 3]);
    expect(constant.tau).toBeNull();
    expect(() => kendallTau([1, 2], [1])).toThrow(/pair them/);
  });
});
