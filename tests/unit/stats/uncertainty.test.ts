import { describe, expect, it } from "vitest";
import { bootstrapMeanCI, quantileSorted } from "../../../lib/stats/bootstrap.ts";
import { normalCdf, normalQuantile } from "../../../lib/stats/normal.ts";
import { pairedBootstrapTest, pairedRandomizationTest } from "../../../lib/stats/paired.ts";
import { seededRng } from "../../../lib/stats/random.ts";
import { queriesForHalfWidth, sampleSd } from "../../../lib/stats/sample-size.ts";

describe("seeded PRNG", () => {
  it("is reproducible, seed-dependent, and roughly uniform", () => {
    const a = seededRng(42);
    const b = seededRng(42);
    const xs = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
    expect(seededRng(43).next()).not.toBe(xs[0]);
    const r = seededRng(1);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 40000; i++) counts[r.int(4)]++;
    // Each bucket expects 10,000; 4 standard deviations is ±346.
    for (const c of counts) expect(Math.abs(c - 10000)).toBeLessThan(346);
  });
});

describe("normal distribution", () => {
  it("matches tabulated values", () => {
    // Standard normal tables: Φ⁻¹(0.975) = 1.959963985, Φ⁻¹(0.95) = 1.644853627, Φ(1) = 0.841344746.
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963985, 8);
    expect(normalQuantile(0.95)).toBeCloseTo(1.644853627, 8);
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326347874, 8);
    expect(normalCdf(1)).toBeCloseTo(0.841344746, 6);
  });
});

describe("bootstrap CI of a mean", () => {
  it("uses R's type-7 quantiles", () => {
    // R: quantile(c(1,2,3,4), 0.25) = 1.75
    expect(quantileSorted([1, 2, 3, 4], 0.25)).toBe(1.75);
    expect(quantileSorted([1, 2, 3, 4], 1)).toBe(4);
  });
  it("is a point for constant values, brackets the mean otherwise, and is reproducible", () => {
    expect(bootstrapMeanCI([0.5, 0.5, 0.5])).toMatchObject({ low: 0.5, high: 0.5 });
    const vals = Array.from({ length: 50 }, (_, i) => (i % 10) / 10);
    const ci = bootstrapMeanCI(vals, { resamples: 2000, seed: 3 });
    expect(ci?.low).toBeLessThan(0.45);
    expect(ci?.high).toBeGreaterThan(0.45);
    // The normal-theory half-width is 1.96 · sd / √50 = 0.0800 for these values; the percentile
    // bootstrap should be close to it.
    const half = ((ci?.high ?? 0) - (ci?.low ?? 0)) / 2;
    expect(half).toBeGreaterThan(0.07);
    expect(half).toBeLessThan(0.09);
    expect(bootstrapMeanCI(vals, { resamples: 2000, seed: 3 })).toEqual(ci);
  });
});

describe("paired tests", () => {
  it("randomization test approaches the exact permutation p-value", () => {
    // Differences 1..5, all positive: of the 2^5 sign patterns only all-plus and all-minus reach
    // |sum| = 15, so the exact two-sided p = 2/32 = 0.0625.
    const a = [0, 0, 0, 0, 0];
    const b = [1, 2, 3, 4, 5];
    const t = pairedRandomizationTest(a, b, { trials: 20000, seed: 9 });
    expect(t.meanDiff).toBe(3);
    expect(Math.abs(t.p - 0.0625)).toBeLessThan(0.006);
  });
  it("gives p = 1 for identical runs and a small p for a consistent large difference", () => {
    const a = Array.from({ length: 30 }, (_, i) => (i % 7) / 7);
    expect(pairedRandomizationTest(a, a).p).toBe(1);
    expect(pairedBootstrapTest(a, a).p).toBe(1);
    const b = a.map((v, i) => v + 0.1 + (i % 3) * 0.01);
    expect(pairedRandomizationTest(a, b, { trials: 5000 }).p).toBeLessThan(0.001);
    const bt = pairedBootstrapTest(a, b, { resamples: 5000 });
    expect(bt.p).toBeLessThan(0.001);
    expect(bt.ci?.low).toBeGreaterThan(0.1);
    expect(bt.ci?.high).toBeLessThan(0.12);
  });
  it("refuses unpaired inputs", () => {
    expect(() => pairedRandomizationTest([1], [1, 2])).toThrow(RangeError);
  });
});

describe("queries needed for a CI half-width", () => {
  it("n = ceil((z·sd/h)²)", () => {
    // z(0.975) = 1.959964; (1.959964 · 0.2 / 0.05)² = 61.46 → 62.
    expect(queriesForHalfWidth(0.2, 0.05)).toBe(62);
    // 90%: (1.644854 · 0.2 / 0.05)² = 43.29 → 44.
    expect(queriesForHalfWidth(0.2, 0.05, 0.9)).toBe(44);
    expect(sampleSd([1, 2, 3, 4])).toBeCloseTo(1.2909944, 6);
    expect(() => queriesForHalfWidth(0.2, 0)).toThrow(RangeError);
  });
});
