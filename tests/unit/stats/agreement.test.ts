import { describe, expect, it } from "vitest";
import { alignLabels } from "../../../lib/stats/agreement/align.ts";
import { binaryAgreement } from "../../../lib/stats/agreement/binary.ts";
import {
  confusionOf,
  perGrade,
  rawAgreement,
  toRows,
  withinOne,
  leniency,
} from "../../../lib/stats/agreement/confusion.ts";
import { BOTH_CONSTANT, cohenKappa, type Weighting } from "../../../lib/stats/agreement/kappa.ts";
import { alphaFromConfusion, krippendorffAlpha } from "../../../lib/stats/agreement/krippendorff.ts";
import { agreementReport } from "../../../lib/stats/agreement/report.ts";
import { quantileSorted } from "../../../lib/stats/bootstrap.ts";
import { seededRng } from "../../../lib/stats/random.ts";

const m = (ref: number[], other: number[]) => confusionOf(ref.map((r, i) => ({ reference: r, other: other[i] })));
const kappas = (ref: number[], other: number[]) =>
  Object.fromEntries(
    (["unweighted", "linear", "quadratic"] as Weighting[]).map((w) => [w, cohenKappa(m(ref, other), w)]),
  );

/*
 * Expected values from scikit-learn 1.2.1 (Debian python3-sklearn), computed once with
 *   cohen_kappa_score(ref, other, labels=[0,1,2,3], weights=None | "linear" | "quadratic")
 *   confusion_matrix(ref, other, labels=[0,1,2,3])
 *   precision_recall_fscore_support(ref, other, labels=[0,1,2,3], zero_division=0)
 * and the standard errors from statsmodels 0.13.5 (Debian python3-statsmodels),
 *   statsmodels.stats.inter_rater.cohens_kappa(confusion, wt=None | "linear" | "quadratic").std_kappa
 * (its asymptotic SE is the Fleiss–Cohen–Everitt 1969 formula). Where scikit-learn reports a
 * precision or recall of 0 only because the divisor is 0 (zero_division=0), we report null.
 */
describe("Cohen's kappa, confusion and per-grade scores against scikit-learn", () => {
  it("a mixed case using every grade (16 pairs)", () => {
    const ref = [0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 1, 2, 0, 3];
    const other = [0, 1, 1, 2, 2, 3, 3, 2, 0, 0, 2, 3, 1, 1, 1, 3];
    const k = kappas(ref, other);
    expect(k.unweighted.value).toBeCloseTo(0.41666666666666663, 12);
    expect(k.linear.value).toBeCloseTo(0.641025641025641, 12);
    expect(k.quadratic.value).toBeCloseTo(0.8157894736842105, 12);
    expect(k.unweighted.se).toBeCloseTo(0.16558259269578438, 12);
    expect(k.linear.se).toBeCloseTo(0.11317663167850817, 12);
    expect(k.quadratic.se).toBeCloseTo(0.06703805892169837, 12);
    expect(toRows(m(ref, other))).toEqual([
      [2, 2, 0, 0],
      [1, 2, 1, 0],
      [0, 1, 2, 1],
      [0, 0, 1, 3],
    ]);
    const pg = perGrade(m(ref, other));
    expect([0, 1, 2, 3].map((g) => pg[g].precision)).toEqual([0.6666666666666666, 0.4, 0.5, 0.75]);
    expect([0, 1, 2, 3].map((g) => pg[g].recall)).toEqual([0.5, 0.5, 0.5, 0.75]);
    expect([0, 1, 2, 3].map((g) => pg[g].support)).toEqual([4, 4, 4, 4]);
  });
  it("a grade the other side never uses (2)", () => {
    const ref = [0, 1, 2, 3, 3, 2, 1, 0, 2, 3];
    const other = [0, 1, 1, 3, 3, 3, 1, 0, 1, 3];
    const k = kappas(ref, other);
    expect(k.unweighted.value).toBeCloseTo(0.6052631578947368, 12);
    expect(k.linear.value).toBeCloseTo(0.7692307692307693, 12);
    expect(k.quadratic.value).toBeCloseTo(0.8872180451127819, 12);
    expect(k.quadratic.se).toBeCloseTo(0.07158785096575264, 12);
    const pg = perGrade(m(ref, other));
    // scikit-learn: precision [1, 0.5, 0.0, 0.75]; grade 2 is never predicted, so we say null.
    expect([0, 1, 2, 3].map((g) => pg[g].precision)).toEqual([1, 0.5, null, 0.75]);
    expect([0, 1, 2, 3].map((g) => pg[g].recall)).toEqual([1, 1, 0, 1]);
    expect([0, 1, 2, 3].map((g) => pg[g].support)).toEqual([2, 2, 3, 3]);
  });
  it("a grade neither side uses (1) does not change the weights", () => {
    const ref = [0, 2, 3, 0, 3, 2];
    const other = [0, 3, 3, 0, 2, 2];
    const k = kappas(ref, other);
    expect(k.unweighted.value).toBeCloseTo(0.5, 12);
    expect(k.linear.value).toBeCloseTo(0.75, 12);
    expect(k.quadratic.value).toBeCloseTo(0.8928571428571429, 12);
    expect(k.linear.se).toBeCloseTo(0.16601434844280444, 12);
    expect(perGrade(m(ref, other))["1"]).toEqual({ precision: null, recall: null, support: 0 });
  });
  it("perfect agreement: every kappa is 1 with SE 0", () => {
    const g = [0, 1, 2, 3, 3, 1];
    for (const k of Object.values(kappas(g, g))) expect(k).toEqual({ value: 1, se: 0 });
  });
  it("both sides constant: undefined (scikit-learn gives NaN), reported as null with a reason", () => {
    const k = kappas([2, 2, 2], [2, 2, 2]);
    for (const v of Object.values(k)) expect(v).toEqual({ value: null, se: null, reason: BOTH_CONSTANT });
    const r = agreementReport(
      alignLabels(
        ["a", "b", "c"].map((d) => ({ qid: "q", docid: d, grade: 2 })),
        ["a", "b", "c"].map((d) => ({ qid: "q", docid: d, grade: 2 })),
      ),
      { bootstrap: 0 },
    );
    expect(r.kappa).toEqual({ unweighted: null, linear: null, quadratic: null, reason: BOTH_CONSTANT });
    expect(r.raw_agreement).toBe(1);
    expect(r.alpha_ordinal).toBeNull();
  });
  it("n = 3", () => {
    const ref = [0, 1, 3];
    const other = [1, 1, 2];
    const k = kappas(ref, other);
    expect(k.unweighted.value).toBeCloseTo(0.1428571428571428, 12);
    expect(k.linear.value).toBeCloseTo(0.3999999999999999, 12);
    expect(k.quadratic.value).toBeCloseTo(0.625, 12);
    expect(k.unweighted.se).toBeCloseTo(0.13226001425322162, 12);
    expect(k.quadratic.se).toBeCloseTo(0.06899813176818866, 12);
    const pg = perGrade(m(ref, other));
    // scikit-learn: precision [0, 0.5, 0, 0], recall [0, 1, 0, 0]; 0/0 cells are null here.
    expect([0, 1, 2, 3].map((g) => pg[g].precision)).toEqual([null, 0.5, 0, null]);
    expect([0, 1, 2, 3].map((g) => pg[g].recall)).toEqual([0, 1, null, 0]);
  });
});

describe("descriptive agreement (hand-computed)", () => {
  // ref 0 1 2 3 3, other 0 2 2 1 3: exact 3/5, within one 4/5 (3 vs 1 is two apart),
  // leniency = (0 + 1 + 0 − 2 + 0) / 5 = −0.2.
  const c = m([0, 1, 2, 3, 3], [0, 2, 2, 1, 3]);
  it("raw agreement, within one, leniency", () => {
    expect(rawAgreement(c)).toBe(0.6);
    expect(withinOne(c)).toBe(0.8);
    expect(leniency(c)).toBeCloseTo(-0.2, 12);
  });
  it("binary agreement at ≥2: tables and kappa by hand", () => {
    // ≥2: ref [0,0,1,1,1], other [0,1,1,0,1]: agree 3/5; p_e = 0.6·0.6 + 0.4·0.4 = 0.52;
    // kappa = (0.6 − 0.52) / 0.48 = 1/6.
    const b = binaryAgreement(c, 2);
    expect(b.agreement).toBe(0.6);
    expect(b.kappa).toBeCloseTo(1 / 6, 12);
    // Alpha on the same 2×2 equals the general algorithm on the same units.
    expect(b.alpha).toBeCloseTo(
      krippendorffAlpha(
        [
          [0, 0],
          [0, 1],
          [1, 1],
          [1, 0],
          [1, 1],
        ],
        "nominal",
      ) as number,
      12,
    );
  });
  it("alignment counts pairs, reference-only and other-only labels", () => {
    const a = alignLabels(
      [
        { qid: "q", docid: "a", grade: 1 },
        { qid: "q", docid: "b", grade: 2 },
        { qid: "r", docid: "a", grade: 3 },
      ],
      [
        { qid: "q", docid: "a", grade: 0 },
        { qid: "r", docid: "b", grade: 3 },
      ],
    );
    expect(a).toEqual({ pairs: [{ qid: "q", docid: "a", reference: 1, other: 0 }], referenceOnly: 2, otherOnly: 1 });
  });
});

describe("Krippendorff's alpha against Krippendorff (2011), 'Computing Krippendorff's Alpha-Reliability'", () => {
  // Section C: four observers, twelve units, values 1–5, with missing data (null). Unit 12 has a
  // single value and is not pairable. Published: nominal α = 0.743, ordinal α = 0.815,
  // interval α = 0.849.
  const N = null;
  const A = [1, 2, 3, 3, 2, 1, 4, 1, 2, N, N, N];
  const B = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, N, 3];
  const C = [N, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, N];
  const D = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, N];
  const units = A.map((_, i) => [A[i], B[i], C[i], D[i]]);
  it("nominal 0.743, ordinal 0.815, interval 0.849", () => {
    expect(krippendorffAlpha(units, "nominal")).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(units, "ordinal")).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(units, "interval")).toBeCloseTo(0.849, 3);
  });
  it("section A: binary data, two observers, ten units: α = 0.095", () => {
    const a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    const b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0];
    expect(
      krippendorffAlpha(
        a.map((x, i) => [x, b[i]]),
        "nominal",
      ),
    ).toBeCloseTo(0.095, 3);
  });
  it("the two-rater shortcut from a confusion matrix equals the general algorithm", () => {
    const ref = [0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 1, 2, 0, 3];
    const other = [0, 1, 1, 2, 2, 3, 3, 2, 0, 0, 2, 3, 1, 1, 1, 3];
    const general = krippendorffAlpha(
      ref.map((r, i) => [r, other[i]]),
      "ordinal",
    ) as number;
    expect(alphaFromConfusion(m(ref, other), [0, 1, 2, 3], "ordinal")).toBeCloseTo(general, 12);
  });
  it("is undefined without variation", () => {
    expect(
      krippendorffAlpha(
        [
          [1, 1],
          [1, 1],
        ],
        "ordinal",
      ),
    ).toBeNull();
  });
});

describe("agreement report", () => {
  const ref = [0, 0, 1, 1, 2, 2, 3, 3, 0, 1, 2, 3, 1, 2, 0, 3];
  const other = [0, 1, 1, 2, 2, 3, 3, 2, 0, 0, 2, 3, 1, 1, 1, 3];
  const labels = (grades: number[]) => grades.map((grade, i) => ({ qid: `q${i % 4}`, docid: `d${i}`, grade }));
  it("has the documented shape, with analytic and bootstrap intervals", () => {
    const r = agreementReport(alignLabels(labels(ref), labels(other)), { bootstrap: 500, seed: 7 });
    expect(Object.keys(r)).toEqual([
      "n",
      "unmatched",
      "kappa",
      "raw_agreement",
      "within_one",
      "confusion",
      "per_grade",
      "leniency",
      "alpha_ordinal",
      "binary",
      "ci",
    ]);
    expect(r.n).toBe(16);
    expect(r.kappa.quadratic).toBeCloseTo(0.8157894736842105, 12);
    expect(Object.keys(r.binary)).toEqual(["ge1", "ge2", "ge3"]);
    const a = r.ci.analytic.quadratic;
    expect(a?.se).toBeCloseTo(0.06703805892169837, 12);
    expect(a?.low).toBeCloseTo(0.8157894736842105 - 1.959963984540054 * 0.06703805892169837, 8);
    const b = r.ci.bootstrap;
    expect(b?.queries).toBe(4);
    expect(b?.kappa_quadratic?.low).toBeLessThanOrEqual(b?.kappa_quadratic?.high as number);
    // Reproducible from the seed, different with another seed.
    expect(agreementReport(alignLabels(labels(ref), labels(other)), { bootstrap: 500, seed: 7 }).ci.bootstrap).toEqual(
      b,
    );
    expect(
      agreementReport(alignLabels(labels(ref), labels(other)), { bootstrap: 500, seed: 8 }).ci.bootstrap,
    ).not.toEqual(b);
  });
  it("numbers queries in qid order: the intervals do not depend on the order of the labels", () => {
    const opts = { bootstrap: 300, seed: 3 };
    const sorted = agreementReport(alignLabels(labels(ref), labels(other)), opts);
    const order = [13, 2, 7, 0, 15, 9, 4, 11, 1, 14, 6, 3, 12, 8, 5, 10];
    const shuffled = agreementReport(
      alignLabels(
        order.map((i) => labels(ref)[i]),
        order.map((i) => labels(other)[i]),
      ),
      opts,
    );
    expect(shuffled.ci.bootstrap).toEqual(sorted.ci.bootstrap);
    // Reference: raw agreement resampled by hand, queries q0…q3 numbered in that order.
    const rng = seededRng(3);
    const draws: number[] = [];
    for (let b = 0; b < 300; b++) {
      const m = [0, 0, 0, 0];
      for (let i = 0; i < 4; i++) m[rng.int(4)]++;
      let agree = 0;
      let total = 0;
      ref.forEach((g, i) => {
        total += m[i % 4];
        if (g === other[i]) agree += m[i % 4];
      });
      draws.push(agree / total);
    }
    draws.sort((x, y) => x - y);
    expect(sorted.ci.bootstrap?.raw_agreement).toEqual({
      low: quantileSorted(draws, 0.025),
      high: quantileSorted(draws, 0.975),
    });
  });
  it("with a memo, a report after a few labels changed has exactly the intervals of a new computation", () => {
    const memo = new Map();
    const rng = seededRng(4);
    const refs = Array.from({ length: 300 }, () => rng.int(4));
    let others = refs.map((g) => (rng.next() < 0.7 ? g : rng.int(4)));
    const many = (grades: number[]) =>
      grades.map((grade, i) => ({ qid: `q${String(i % 40).padStart(2, "0")}`, docid: `d${i}`, grade }));
    for (let round = 0; round < 12; round++) {
      const aligned = alignLabels(many(refs), many(others));
      const kept = agreementReport(aligned, { bootstrap: 200, seed: 5, memo, memoKey: "judge" });
      expect(kept, `round ${round}`).toEqual(agreementReport(aligned, { bootstrap: 200, seed: 5 }));
      others = [...others];
      for (let k = 0; k <= round % 3; k++) others[rng.int(others.length)] = rng.int(4);
    }
    // A query set that changes (one query loses its pairs) is computed anew.
    const fewer = alignLabels(many(refs).slice(1, 39), many(others).slice(1, 39));
    expect(agreementReport(fewer, { bootstrap: 200, seed: 5, memo, memoKey: "judge" })).toEqual(
      agreementReport(fewer, { bootstrap: 200, seed: 5 }),
    );
  });
  it("resamples whole queries: one query holding every pair gives a zero-width interval", () => {
    const one = (grades: number[]) => grades.map((grade, i) => ({ qid: "only", docid: `d${i}`, grade }));
    const b = agreementReport(alignLabels(one(ref), one(other)), { bootstrap: 200 }).ci.bootstrap;
    expect(b?.kappa_linear).toEqual({ low: 0.641025641025641, high: 0.641025641025641 });
  });
});
