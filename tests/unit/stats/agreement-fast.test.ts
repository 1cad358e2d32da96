/**
 * The agreement bootstrap's fast paths give exactly the numbers of the plain computation they
 * replace: each resample's matrix built from the drawn queries' counts, linear and quadratic kappa
 * in one pass, the interval's order statistics selected instead of sorted, and the leniency
 * bootstrap over the kept draws. Compared bit for bit (toEqual / Object.is) on random data.
 */
import { describe, expect, it } from "vitest";
import type { LabelPair } from "../../../lib/stats/agreement/align.ts";
import { confusionOf, emptyConfusion, K } from "../../../lib/stats/agreement/confusion.ts";
import { kappaValue, linearQuadraticKappa } from "../../../lib/stats/agreement/kappa.ts";
import { agreementReport } from "../../../lib/stats/agreement/report.ts";
import { leniencyWithInterval } from "../../../lib/stats/annotators.ts";
import { bootstrapDistribution, percentileInterval, percentileIntervalUnsorted } from "../../../lib/stats/bootstrap.ts";
import { seededRng, type Rng } from "../../../lib/stats/random.ts";

/** Pairs over `questions` questions; grades skewed so that some resamples are degenerate. */
function randomPairs(rng: Rng, n: number, questions: number, skew: number): LabelPair[] {
  const grade = () => (rng.next() < skew ? 0 : rng.int(K));
  return Array.from({ length: n }, (_, i) => {
    const reference = grade();
    return {
      qid: `q${rng.int(questions)}`,
      docid: `d${i}`,
      reference,
      other: rng.next() < 0.6 ? reference : grade(),
    };
  });
}

/** The plain computation: every resample's matrix from the pairs, each kappa by kappaValue, sorted. */
function plainKappaIntervals(pairs: LabelPair[], resamples: number, seed: number, level: number) {
  const qids = [...new Set(pairs.map((p) => p.qid))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const perQuery = qids.map((q) => confusionOf(pairs.filter((p) => p.qid === q)));
  const interval = (w: "linear" | "quadratic") => {
    const { values } = bootstrapDistribution(
      qids.length,
      (mult) => {
        const m = emptyConfusion();
        perQuery.forEach((c, q) => c.forEach((v, cell) => (m[cell] += mult[q] * v)));
        return kappaValue(m, w);
      },
      { resamples, seed },
    );
    const iv = percentileInterval(values, level, resamples);
    return iv ? { low: iv.low, high: iv.high } : null;
  };
  return { linear: interval("linear"), quadratic: interval("quadratic") };
}

describe("agreement bootstrap fast paths", () => {
  it("linearQuadraticKappa gives kappaValue's numbers, NaN where it gives null", () => {
    const rng = seededRng(11);
    const out = new Float64Array(2);
    for (let t = 0; t < 5000; t++) {
      const m = emptyConfusion();
      const cells = t % 7 === 0 ? 1 : 1 + rng.int(16);
      for (let c = 0; c < cells; c++) m[rng.int(K * K)] += 1 + rng.int(t % 3 === 0 ? 3 : 500);
      if (t % 50 === 0) m.fill(0);
      linearQuadraticKappa(m, out);
      for (const [i, w] of [
        [0, "linear"],
        [1, "quadratic"],
      ] as const) {
        const v = kappaValue(m, w);
        if (v === null) expect(out[i]).toBeNaN();
        else expect(Object.is(out[i], v)).toBe(true);
      }
    }
  });

  it("percentileIntervalUnsorted gives percentileInterval's interval of the sorted values", () => {
    const rng = seededRng(12);
    for (let t = 0; t < 2000; t++) {
      const n = 1 + rng.int(t % 4 === 0 ? 5 : 400);
      const distinct = 1 + rng.int(t % 2 === 0 ? 4 : 1000);
      const draws = Float64Array.from({ length: n + rng.int(5) }, () => rng.int(distinct) / distinct - 0.3);
      const level = [0.95, 0.9, 0.5, 0.99, 0.8][t % 5];
      const expected = percentileInterval(draws.slice(0, n).sort(), level, 1000);
      expect(percentileIntervalUnsorted(draws.slice(), n, level, 1000)).toEqual(expected);
    }
    expect(percentileIntervalUnsorted(new Float64Array(3), 0, 0.95, 10)).toBeNull();
  });

  it("the report's kappa intervals are the plain computation's, with and without the two-kappa path", () => {
    const rng = seededRng(13);
    for (let t = 0; t < 40; t++) {
      const pairs = randomPairs(rng, 10 + rng.int(300), 3 + rng.int(t % 2 ? 10 : 80), t % 3 === 0 ? 0.9 : 0.3);
      const resamples = 50 + rng.int(300);
      const seed = 1 + rng.int(1000);
      const level = t % 2 ? 0.95 : 0.9;
      const aligned = { pairs, referenceOnly: 0, otherOnly: 0 };
      const plain = plainKappaIntervals(pairs, resamples, seed, level);
      const two = agreementReport(aligned, {
        bootstrap: resamples,
        seed,
        level,
        bootstrapStats: ["kappa_linear", "kappa_quadratic"],
      }).ci.bootstrap;
      const all = agreementReport(aligned, { bootstrap: resamples, seed, level }).ci.bootstrap;
      // With a memo the resamples' matrices are kept, added up query by query (the other path).
      const kept = agreementReport(aligned, { bootstrap: resamples, seed, level, memo: new Map(), memoKey: "k" }).ci
        .bootstrap;
      for (const b of [two, all, kept]) {
        expect(b?.kappa_linear).toEqual(plain.linear);
        expect(b?.kappa_quadratic).toEqual(plain.quadratic);
      }
      expect(all).toEqual(kept);
    }
  });

  it("leniencyWithInterval's interval is bootstrapDistribution's over the same questions", () => {
    const rng = seededRng(14);
    for (let t = 0; t < 40; t++) {
      const pairs = randomPairs(rng, 5 + rng.int(300), 3 + rng.int(60), 0.3);
      const resamples = 50 + rng.int(300);
      const seed = 1 + rng.int(1000);
      const qids = [...new Set(pairs.map((p) => p.qid))];
      const { values } = bootstrapDistribution(
        qids.length,
        (mult) => {
          let s = 0;
          let c = 0;
          qids.forEach((q, i) => {
            for (const p of pairs)
              if (p.qid === q) {
                s += mult[i] * (p.other - p.reference);
                c += mult[i];
              }
          });
          return c > 0 ? s / c : null;
        },
        { resamples, seed },
      );
      const iv = percentileInterval(values, 0.95, resamples);
      expect(leniencyWithInterval(pairs, { resamples, seed })?.interval).toEqual(
        iv ? { low: iv.low, high: iv.high } : null,
      );
    }
  });
});
