import { describe, expect, it } from "vitest";
import { dawidSkene, dawidSkeneSparse, sparseAnswers } from "../../../lib/stats/dawid-skene.ts";

/**
 * Dawid & Skene (1979), Table 1: 45 patients, 5 observers (observer 1 answered three times),
 * classes 1–4. Reference values: Dallas Card's implementation (github.com/dallascard/dawid_skene
 * @ 9f49db7, dawid_skene.py; its print statements ported to Python 3, nothing else changed), run
 * with tol 1e-5 and max_iter 100 from its `initialize` (eq. 3.1), on the table as
 * `generate_sample_data()` gives it, and on a sparse version of it: patient p keeps only observers
 * ((p−1) mod 5) + 1 and (p mod 5) + 1, observer 1 its first answer only (two answers per item, as
 * a pool item's two annotators give).
 */
const TABLE_1: number[][][] = [
  [[1, 1, 1], [1], [1], [1], [1]],
  [[3, 3, 3], [4], [3], [3], [4]],
  [[1, 1, 2], [2], [1], [2], [2]],
  [[2, 2, 2], [3], [1], [2], [1]],
  [[2, 2, 2], [3], [2], [2], [2]],
  [[2, 2, 2], [3], [3], [2], [2]],
  [[1, 2, 2], [2], [1], [1], [1]],
  [[3, 3, 3], [3], [4], [3], [3]],
  [[2, 2, 2], [2], [2], [2], [3]],
  [[2, 3, 2], [2], [2], [2], [3]],
  [[4, 4, 4], [4], [4], [4], [4]],
  [[2, 2, 2], [3], [3], [4], [3]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[2, 2, 2], [3], [2], [1], [2]],
  [[1, 2, 1], [1], [1], [1], [1]],
  [[1, 1, 1], [2], [1], [1], [1]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[2, 2, 2], [2], [2], [2], [1]],
  [[2, 2, 2], [1], [3], [2], [2]],
  [[2, 2, 2], [2], [2], [2], [2]],
  [[2, 2, 2], [2], [2], [2], [1]],
  [[2, 2, 2], [3], [2], [2], [2]],
  [[2, 2, 1], [2], [2], [2], [2]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[2, 3, 2], [2], [2], [2], [2]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[1, 1, 2], [1], [1], [2], [1]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[3, 3, 3], [3], [2], [3], [3]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[2, 2, 2], [2], [2], [2], [2]],
  [[2, 2, 2], [3], [2], [3], [2]],
  [[4, 3, 3], [4], [3], [4], [3]],
  [[2, 2, 1], [2], [2], [3], [2]],
  [[2, 3, 2], [3], [2], [3], [3]],
  [[3, 3, 3], [3], [4], [3], [2]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[1, 1, 1], [1], [1], [1], [1]],
  [[1, 2, 1], [2], [1], [1], [1]],
  [[2, 3, 2], [2], [2], [2], [2]],
  [[1, 2, 1], [1], [1], [1], [1]],
  [[2, 2, 2], [2], [2], [2], [2]],
];

function countsOf(table: number[][][], keep: (patient: number, observer: number) => boolean, firstOnly: boolean) {
  return table.map((row, i) =>
    row.map((answers, o) => {
      const c = [0, 0, 0, 0];
      if (!keep(i + 1, o + 1)) return c;
      for (const x of firstOnly && o === 0 ? answers.slice(0, 1) : answers) c[x - 1]++;
      return c;
    }),
  );
}

const row = (e: Float64Array, j: number) => Array.from(e.subarray(j * 4, j * 4 + 4));
const close = (actual: readonly number[], expected: readonly number[], digits = 9) =>
  actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i], digits));

describe("Dawid–Skene EM", () => {
  it("gives the reference implementation's estimates on the paper's Table 1", () => {
    const fit = dawidSkene(
      countsOf(TABLE_1, () => true, false),
      4,
    );
    expect(fit.iterations).toBe(15);
    close(
      Array.from(fit.marginals),
      [0.3995547535811126, 0.42198344324644854, 0.11179513650577232, 0.06666666666666667],
    );
    close(row(fit.errorRates[0], 0), [0.88948834780961, 0.11051165219039, 0, 0]);
    close(row(fit.errorRates[0], 1), [0.07058544130000363, 0.8763799501872713, 0.053034608512724964, 0]);
    close(row(fit.errorRates[0], 2), [0, 0.3388212412885003, 0.6611787587114998, 0]);
    close(row(fit.errorRates[0], 3), [0, 0, 0.5555555555555556, 0.4444444444444444]);
    close(row(fit.errorRates[4], 1), [0.15903920932279614, 0.7345204218624357, 0.10644036881476826, 0]);
    close(row(fit.errorRates[4], 2), [0, 0.2091135378157503, 0.7908864621842497, 0]);
    close(row(fit.posteriors, 2), [7.938460440572719e-10, 0.999999999206154, 0, 0]);
    close(row(fit.posteriors, 6), [0.9810203051542588, 0.01897969484574129, 0, 0]);
    expect(fit.logLikelihood).toBeCloseTo(-192.89088235113152, 8);
  });

  it("gives the reference implementation's estimates with two answers per item", () => {
    const fit = dawidSkene(
      countsOf(TABLE_1, (p, o) => o === ((p - 1) % 5) + 1 || o === (p % 5) + 1, true),
      4,
    );
    // Not converged within max_iter: both stop after 101 iterations.
    expect(fit.iterations).toBe(101);
    close(
      Array.from(fit.marginals),
      [0.4667712241566131, 0.31877122734163976, 0.12556865961285812, 0.08888888888888889],
      8,
    );
    close(row(fit.errorRates[1], 0), [0.625000000013715, 0.374999999986285, 0, 0], 8);
    close(row(fit.errorRates[1], 1), [0, 0.8575382409909736, 0.14246175900902636, 0], 8);
    close(row(fit.posteriors, 2), [0.999999999951525, 4.8474983051219995e-11, 0, 0], 8);
    expect(fit.logLikelihood).toBeCloseTo(-72.69089569124122, 6);
  });

  it("refuses an item without answers", () => {
    expect(() => dawidSkene([[[0, 0]], [[1, 0]]], 2)).toThrow(/item 0 has no answers/);
  });
});

describe("Dawid–Skene EM, accelerated and weighted", () => {
  // The sparse Table 1 (two answers a patient): plain EM crawls there (not converged after 101
  // iterations above), which is the case SQUAREM is for.
  const sparse = countsOf(TABLE_1, (p, o) => o === ((p - 1) % 5) + 1 || o === (p % 5) + 1, true);

  it("reaches plain EM's maximum with SQUAREM, in far fewer EM steps", () => {
    // Both run to a tight tolerance from the same start (eq. 3.1); SQUAREM's fixed points are EM's
    // (Varadhan & Roland 2008, §2). Here the maximum is a ridge: with two answers a patient, mass
    // can move between classes 2 and 3 without changing the likelihood (−72.690609183980 for both,
    // found by running both to tol 1e-13), so the two stop at the same height in different places
    // along it: the likelihood and what the ridge does not move (classes 1 and 4) agree.
    const plain = dawidSkene(sparse, 4, { tol: 1e-11, maxIter: 200_000 });
    const fast = dawidSkene(sparse, 4, { tol: 1e-11, maxIter: 200_000, accelerate: true });
    expect(plain.converged).toBe(true);
    expect(fast.converged).toBe(true);
    expect(fast.logLikelihood).toBeCloseTo(plain.logLikelihood, 10);
    expect(fast.logLikelihood).toBeCloseTo(-72.69060918398, 10);
    for (const j of [0, 3]) expect(fast.marginals[j]).toBeCloseTo(plain.marginals[j], 8);
    expect(fast.marginals[1] + fast.marginals[2]).toBeCloseTo(plain.marginals[1] + plain.marginals[2], 8);
    expect(fast.iterations * 4).toBeLessThan(plain.iterations);
    // Better than the reference implementation's stopping point after 101 plain iterations (above).
    expect(fast.logLikelihood).toBeGreaterThan(-72.69089569124122);
  });

  it("counts an item of weight 2 as the item written out twice", () => {
    // The likelihood and the M-step's sums are linear in the items' weights, so duplicating every
    // item and weighting each item by 2 are the same fit.
    const twice = sparse.flatMap((item) => [item, item]);
    const byCopy = dawidSkene(twice, 4, { tol: 1e-9, maxIter: 5000, accelerate: true });
    const byWeight = dawidSkeneSparse(sparseAnswers(sparse, 4), 4, {
      tol: 1e-9,
      maxIter: 5000,
      accelerate: true,
      weight: new Float64Array(sparse.length).fill(2),
    });
    expect(byWeight.iterations).toBe(byCopy.iterations);
    close(Array.from(byWeight.marginals), Array.from(byCopy.marginals), 12);
    byCopy.errorRates.forEach((e, a) => close(Array.from(byWeight.errorRates[a]), Array.from(e), 12));
    expect(byWeight.logLikelihood).toBeCloseTo(byCopy.logLikelihood, 9);
  });
});
