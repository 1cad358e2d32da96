import { describe, expect, it } from "vitest";
import {
  bootstrapDistribution,
  bootstrapMeanCI,
  percentileInterval,
  quantileSorted,
} from "../../../lib/stats/bootstrap.ts";
import { bootstrapMeanIntervals } from "../../../lib/stats/bootstrap-means.ts";
import { normalCdf, normalQuantile } from "../../../lib/stats/normal.ts";
import { pairedBootstrapTest, pairedRandomizationTest, pairedRandomizationTests } from "../../../lib/stats/paired.ts";
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

describe("batched intervals and tests (one set of draws for many columns)", () => {
  // Per-query values like the dashboard's: discrete (recall, reciprocal rank) with many ties and
  // zeros, continuous (nDCG-like), and large ones (start errors in seconds).
  const rng = seededRng(5);
  const kinds = [
    (): number => rng.int(11) / 10,
    (): number => (rng.next() < 0.4 ? 0 : 1 / (1 + rng.int(10))),
    (): number => rng.next(),
    (): number => Math.round(rng.next() * 600),
  ];
  const column = (n: number, kind: number) => Array.from({ length: n }, kinds[kind % kinds.length]);

  it("pairedRandomizationTests gives every pair exactly pairedRandomizationTest's result", () => {
    const pairs: { a: number[]; b: number[] }[] = [];
    for (const n of [0, 1, 7, 8, 9, 37, 64, 200])
      for (let kind = 0; kind < 4; kind++) {
        const a = column(n, kind);
        pairs.push({ a, b: column(n, kind) });
        // Ties with the observed sum: identical runs, and runs differing on one or two queries.
        pairs.push({ a, b: [...a] });
        pairs.push({ a, b: a.map((v, i) => (i === 0 ? v + 0.1 : v)) });
        pairs.push({ a, b: a.map((v, i) => (i === 1 ? v + 0.5 : i === 2 ? v - 0.5 : v)) });
      }
    for (const [trials, seed] of [
      [1000, 1],
      [333, 7],
    ]) {
      const batched = pairedRandomizationTests(pairs, { trials, seed });
      pairs.forEach((p, k) => expect(batched[k]).toEqual(pairedRandomizationTest(p.a, p.b, { trials, seed })));
    }
    expect(() => pairedRandomizationTests([{ a: [1], b: [1, 2] }])).toThrow(RangeError);
  });

  it("with a memo, tests whose values changed on a few queries (label changes) still give pairedRandomizationTest's result", () => {
    const memo = new Map();
    const n = 77;
    let pairs = [0, 1, 2, 3].map((kind) => ({ a: column(n, kind), b: column(n, kind) }));
    pairs.push({ a: pairs[0].a, b: [...pairs[0].a] });
    const keys = pairs.map((_, k) => `test ${k}`);
    for (let round = 0; round < 30; round++) {
      const got = pairedRandomizationTests(pairs, { trials: 500, seed: 2, memo, keys });
      pairs.forEach((p, k) =>
        expect(got[k], `round ${round}, test ${k}`).toEqual(
          pairedRandomizationTest(p.a, p.b, { trials: 500, seed: 2 }),
        ),
      );
      // One or two queries change per round; now and then a run becomes equal to the baseline on
      // all queries but one, or the number of queries changes.
      pairs = pairs.map((p, k) => {
        const b = [...p.b];
        b[rng.int(n)] = kinds[k % 4]();
        if (round % 3 === 0) b[rng.int(n)] = kinds[k % 4]();
        if (round % 7 === k) for (let i = 1; i < n; i++) b[i] = p.a[i];
        return { a: p.a, b };
      });
    }
    expect(memo.size).toBe(5);
    const shorter = pairs.map((p) => ({ a: p.a.slice(1), b: p.b.slice(1) }));
    pairedRandomizationTests(shorter, { trials: 500, seed: 2, memo, keys }).forEach((r, k) =>
      expect(r).toEqual(pairedRandomizationTest(shorter[k].a, shorter[k].b, { trials: 500, seed: 2 })),
    );
  });

  it("bootstrapMeanIntervals: complete columns get bootstrapMeanCI's interval; undefined values are left out of each resample's mean", () => {
    const n = 53;
    const columns: (number | null)[][] = [0, 1, 2, 3].map((k) => column(n, k));
    const withNulls = column(n, 3).map((v, i) => (i % 3 === 0 ? null : v));
    const mostlyNull = column(n, 2).map((v, i) => (i === 4 ? v : null));
    columns.push(withNulls, mostlyNull);
    const opts = { resamples: 500, seed: 11, level: 0.9 };
    const got = bootstrapMeanIntervals(columns, n, opts);
    for (let c = 0; c < 4; c++) expect(got[c]).toEqual(bootstrapMeanCI(columns[c] as number[], opts));
    // Reference for a column with nulls: the same draws, each resample's mean over the drawn
    // queries where the value is defined (weighted by multiplicity); a resample without any is dropped.
    const reference = (values: (number | null)[]) => {
      const { values: dist } = bootstrapDistribution(
        n,
        (m) => {
          let s = 0;
          let w = 0;
          for (let i = 0; i < n; i++)
            if (values[i] !== null) {
              s += m[i] * (values[i] as number);
              w += m[i];
            }
          return w > 0 ? s / w : null;
        },
        opts,
      );
      return percentileInterval(dist, opts.level, opts.resamples);
    };
    expect(got[4]).toEqual(reference(withNulls));
    expect(got[5]).toEqual(reference(mostlyNull));
    // About a third of 500 resamples miss query 4 (e^-1), yet an interval remains.
    expect(got[5]).not.toBeNull();
    expect(bootstrapMeanIntervals([[]], 0)).toEqual([null]);
  });

  it("with a memo, columns whose values changed on a few units still get exactly the intervals of a new computation", () => {
    const memo = new Map();
    const n = 61;
    let columns: (number | null)[][] = [0, 1, 2, 3].map((k) => column(n, k));
    columns.push(
      column(n, 3).map((v, i) => (i % 4 === 0 ? null : v)),
      new Array<number | null>(n).fill(0.5),
    );
    const keys = columns.map((_, c) => `column ${c}`);
    for (let round = 0; round < 25; round++) {
      for (const level of [0.95, 0.9]) {
        const opts = { resamples: 400, seed: 6, level };
        expect(bootstrapMeanIntervals(columns, n, { ...opts, memo, keys }), `round ${round}`).toEqual(
          bootstrapMeanIntervals(columns, n, opts),
        );
      }
      columns = columns.map((col, c) => {
        const next = [...col];
        const i = rng.int(n);
        next[i] = c === 4 && round % 2 === 0 ? (next[i] === null ? 1 : null) : c === 5 ? next[i] : kinds[c % 4]();
        if (round % 4 === c) next[rng.int(n)] = kinds[c % 4]();
        return next;
      });
    }
    expect(memo.size).toBe(6);
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
