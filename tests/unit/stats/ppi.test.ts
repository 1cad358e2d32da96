import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { confusionOf } from "../../../lib/stats/agreement/confusion.ts";
import { cohenKappa } from "../../../lib/stats/agreement/kappa.ts";
import { ndcg } from "../../../lib/stats/measures/ndcg.ts";
import { recallAt } from "../../../lib/stats/measures/recall.ts";
import { reciprocalRank } from "../../../lib/stats/measures/recip-rank.ts";
import type { RankedQuery } from "../../../lib/stats/measures/types.ts";
import { narrowerBy, ppiLambda, ppiMean, ppiPairedDifference, type TPpiSample } from "../../../lib/stats/ppi.ts";
import { ppiTable } from "../../../lib/stats/ppi-table.ts";
import { seededRng, type Rng } from "../../../lib/stats/random.ts";
import {
  adviceSpread,
  pairedTTestPower,
  queriesForHalfWidth,
  queriesToDetect,
} from "../../../lib/stats/sample-size.ts";
import { studentTCdf, studentTQuantile } from "../../../lib/stats/student-t.ts";

/** Reference values from ppi-python (scripts/fixtures/ppi_reference.py states the pinned commit). */
type TReferenceCase = TPpiSample & {
  name: string;
  lambda: number;
  estimate: number;
  low: number;
  high: number;
  p: number;
  classicalLow: number;
  classicalHigh: number;
};
const reference = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "stats", "ppi-reference.json"), "utf8"),
) as {
  cases: TReferenceCase[];
  topicSetSize: { sd: number; delta: number; n: number }[];
};

describe("PPI++ mean (reference: ppi-python)", () => {
  for (const c of reference.cases) {
    it(`${c.name}: λ, estimate, 95% interval, p-value and the classical interval`, () => {
      const r = ppiMean(c);
      expect(r.lambda).toBeCloseTo(c.lambda, 10);
      expect(r.ppi!.estimate).toBeCloseTo(c.estimate, 10);
      // Φ⁻¹ (Acklam) differs from scipy's in the 9th digit.
      expect(r.ppi!.low).toBeCloseTo(c.low, 8);
      expect(r.ppi!.high).toBeCloseTo(c.high, 8);
      expect(r.human!.low).toBeCloseTo(c.classicalLow, 8);
      expect(r.human!.high).toBeCloseTo(c.classicalHigh, 8);
      // Φ (erfc fit): relative error < 1.2e-7.
      expect(Math.abs(r.p! - c.p)).toBeLessThanOrEqual(2e-7 * c.p + 1e-15);
    });
  }

  it("λ: clipped to [0, 1] at both ends, as ppi-python's clip=True", () => {
    expect(reference.cases.find((c) => c.name === "anticorrelated")!.lambda).toBe(0);
    expect(reference.cases.find((c) => c.name === "clipped_at_one")!.lambda).toBe(1);
  });

  it("a paired difference is the estimator on per-question differences", () => {
    const sys: TPpiSample = {
      human: [0.5, 0.7, 0.2, 0.9],
      judgeLabelled: [0.4, 0.8, 0.3, 0.8],
      judgeUnlabelled: [0.6, 0.1, 0.5],
    };
    const base: TPpiSample = {
      human: [0.4, 0.5, 0.2, 0.6],
      judgeLabelled: [0.4, 0.6, 0.1, 0.6],
      judgeUnlabelled: [0.5, 0.2, 0.3],
    };
    const d = ppiPairedDifference(sys, base);
    const direct = ppiMean({
      human: [0.1, 0.2, 0, 0.3],
      judgeLabelled: [0, 0.2, 0.2, 0.2],
      judgeUnlabelled: [0.1, -0.1, 0.2],
    });
    expect(d.ppi!.estimate).toBeCloseTo(direct.ppi!.estimate, 12);
    expect(d.p).toBeCloseTo(direct.p!, 12);
    expect(() => ppiPairedDifference(sys, { ...base, human: [1] })).toThrow(/pair them by question/);
  });
});

describe("PPI edge cases", () => {
  it("n = 0: no estimate, judge-only figures still given", () => {
    const r = ppiMean({ human: [], judgeLabelled: [], judgeUnlabelled: [0.2, 0.4] });
    expect(r.ppi).toBeNull();
    expect(r.lambda).toBeNull();
    expect(r.judge!.estimate).toBeCloseTo(0.3, 12);
    expect(r.warnings).toEqual(["no_labelled"]);
  });

  it("n = 1: the human value, no interval", () => {
    const r = ppiMean({ human: [0.7], judgeLabelled: [0.5], judgeUnlabelled: [0.2, 0.4] });
    expect(r.ppi).toBeNull();
    expect(r.pointOnly).toBe(0.7);
    expect(r.warnings).toEqual(["too_few_labelled"]);
  });

  it("a judge constant on the calibration set: λ = 0, the human-only interval, a warning", () => {
    const s = { human: [0.1, 0.5, 0.9, 0.3], judgeLabelled: [0.5, 0.5, 0.5, 0.5], judgeUnlabelled: [0.1, 0.9, 0.4] };
    const r = ppiMean(s);
    expect(r.lambda).toBe(0);
    expect(r.ppi).toEqual(r.human);
    expect(r.warnings).toContain("judge_adds_nothing");
    expect(r.warnings).toContain("few_labelled");
    // Every judge value equal (0/0): λ = 0 too.
    expect(ppiLambda({ human: [0.1, 0.5], judgeLabelled: [0, 0], judgeUnlabelled: [0, 0] })).toBe(0);
  });

  it("every question human-labelled (no unlabelled one): the human-only estimate", () => {
    const r = ppiMean({ human: [0.1, 0.5, 0.9], judgeLabelled: [0.2, 0.4, 0.8], judgeUnlabelled: [] });
    expect(r.lambda).toBe(0);
    expect(r.ppi).toEqual(r.human);
    expect(r.warnings).toContain("all_labelled");
  });

  it("a question with no relevant chunk scores 0 under Recall, MRR and nDCG, with either label set", () => {
    const none: RankedQuery = { qid: "q", grades: [0, -1, 0], judgedAtGrade: [2, 0, 0, 0] };
    expect(recallAt(none, 5, { relevanceLevel: 1 })).toBe(0);
    expect(reciprocalRank(none, { relevanceLevel: 2 })).toBe(0);
    expect(ndcg(none, { cutoff: 10, gain: "exponential" })).toBe(0);
    const r = ppiMean({ human: [0, 0, 0], judgeLabelled: [0, 0, 0], judgeUnlabelled: [0, 0] });
    expect(r.ppi).toMatchObject({ estimate: 0, se: 0, low: 0, high: 0 });
    expect(r.p).toBe(1);
  });

  it("narrowerBy compares the unclipped widths (standard errors), whatever clipping did to low and high", () => {
    expect(
      narrowerBy({
        ppi: { estimate: 0, se: 0.31 / 1.96, low: -0.31, high: 0.31 },
        human: { estimate: 0, se: 0.5 / 1.96, low: -0.5, high: 0.5 },
      }),
    ).toBeCloseTo(0.38, 12);
    expect(
      narrowerBy({
        ppi: { estimate: 0.9, se: 0.31 / 1.96, low: 0.59, high: 1 },
        human: { estimate: 0.9, se: 0.5 / 1.96, low: 0.4, high: 1 },
      }),
    ).toBeCloseTo(0.38, 12);
    expect(narrowerBy({ ppi: null, human: null })).toBeNull();
  });
});

/**
 * A synthetic collection with known truth: 2,000 questions, 10 ranked chunks each, human grades
 * 0–3; the judge gives the human grade with probability `agree`, otherwise a uniform grade.
 * The measure is nDCG@10 (exponential gain); the truth is its mean with human labels over the
 * whole collection. Each draw labels n random questions completely.
 */
function collection(rng: Rng, agree: number, questions = 2000) {
  const human: number[] = [];
  const judge: number[] = [];
  const pairs: { reference: number; other: number }[] = [];
  const grade = () => {
    const u = rng.next();
    return u < 0.55 ? 0 : u < 0.8 ? 1 : u < 0.93 ? 2 : 3;
  };
  for (let q = 0; q < questions; q++) {
    const h = Array.from({ length: 10 }, grade);
    const j = h.map((g) => (rng.next() < agree ? g : rng.int(4)));
    for (let i = 0; i < 10; i++) pairs.push({ reference: h[i], other: j[i] });
    const at = (gs: number[]) => [0, 1, 2, 3].map((g) => gs.filter((x) => x === g).length);
    human.push(ndcg({ qid: String(q), grades: h, judgedAtGrade: at(h) }, { cutoff: 10, gain: "exponential" }));
    judge.push(ndcg({ qid: String(q), grades: j, judgedAtGrade: at(j) }, { cutoff: 10, gain: "exponential" }));
  }
  const kappa = cohenKappa(confusionOf(pairs), "unweighted").value!;
  return { human, judge, kappa, truth: human.reduce((a, b) => a + b, 0) / questions };
}

function drawIndices(rng: Rng, total: number, n: number): Set<number> {
  const picked = new Set<number>();
  while (picked.size < n) picked.add(rng.int(total));
  return picked;
}

describe("PPI simulation: coverage and width (seeded, deterministic)", () => {
  it("over 1,000 calibration draws the 95% interval covers the truth 93–97% of the time and is narrower than human-only at kappa ≥ 0.5", () => {
    const rng = seededRng(12);
    const c = collection(rng, 0.6);
    expect(c.kappa).toBeGreaterThanOrEqual(0.5);
    let covered = 0;
    let ppiWidth = 0;
    let humanWidth = 0;
    const draws = 1000;
    for (let d = 0; d < draws; d++) {
      const labelled = drawIndices(rng, c.human.length, 60);
      const s: { human: number[]; judgeLabelled: number[]; judgeUnlabelled: number[] } = {
        human: [],
        judgeLabelled: [],
        judgeUnlabelled: [],
      };
      for (let i = 0; i < c.human.length; i++) {
        if (labelled.has(i)) {
          s.human.push(c.human[i]);
          s.judgeLabelled.push(c.judge[i]);
        } else s.judgeUnlabelled.push(c.judge[i]);
      }
      const r = ppiMean(s);
      if (r.ppi!.low <= c.truth && c.truth <= r.ppi!.high) covered++;
      ppiWidth += r.ppi!.high - r.ppi!.low;
      humanWidth += r.human!.high - r.human!.low;
    }
    const coverage = covered / draws;
    expect(coverage).toBeGreaterThanOrEqual(0.93);
    expect(coverage).toBeLessThanOrEqual(0.97);
    expect(ppiWidth / draws).toBeLessThan(humanWidth / draws);
  });
});

describe("topic-set-size design (Sakai): paired t-test, α = 0.05, power 0.8", () => {
  it("matches the exact noncentral-t answer (scipy) on the reference designs", () => {
    for (const d of reference.topicSetSize) expect(queriesToDetect(d.sd, d.delta)).toBe(d.n);
  });
  it("power rises with n and the answer is the smallest n reaching 0.8", () => {
    const n = queriesToDetect(0.2, 0.05);
    expect(pairedTTestPower(n, 0.05, 0.2)).toBeGreaterThanOrEqual(0.8);
    expect(pairedTTestPower(n - 1, 0.05, 0.2)).toBeLessThan(0.8);
    expect(queriesToDetect(NaN, 0.05)).toBeNaN();
    expect(() => queriesToDetect(0.2, 0)).toThrow(/positive/);
  });
  it("Student t agrees with scipy.stats.t", () => {
    // scipy 1.17: t.cdf(1.3, 4) = 0.868274201764388, t.ppf(0.975, 9) = 2.262157162798205, t.ppf(0.975, 1) = 12.706204736174694
    expect(studentTCdf(1.3, 4)).toBeCloseTo(0.868274201764388, 12);
    expect(studentTQuantile(0.975, 9)).toBeCloseTo(2.262157162798205, 9);
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.706204736174694, 8);
  });
});

describe("ppiTable: runs × measures, differences from the baseline, advisor", () => {
  const judge = [[[0.2, 0.4, 0.6, 0.8, 0.5]], [[0.3, 0.6, 0.6, 0.9, 0.7]]];
  it("one cell per run and measure; the baseline has no difference; the advisor uses the human sd", () => {
    const t = ppiTable({
      columns: [{ id: "m", label: "M" }],
      runs: ["a", "b"],
      baseline: 0,
      judge,
      human: [[[0.1, 0.5, 0.7]], [[0.3, 0.6, 0.8]]],
      labelled: [0, 1, 2],
      delta: 0.1,
    });
    expect(t).toMatchObject({ questions: 5, labelled: 3, delta: 0.1, halfWidth: 0.05 });
    expect(t.rows[0].cells[0].diff).toBeNull();
    const direct = ppiPairedDifference(
      { human: [0.3, 0.6, 0.8], judgeLabelled: [0.3, 0.6, 0.6], judgeUnlabelled: [0.9, 0.7] },
      { human: [0.1, 0.5, 0.7], judgeLabelled: [0.2, 0.4, 0.6], judgeUnlabelled: [0.8, 0.5] },
    );
    expect(t.rows[1].cells[0].diff!.ppi!.estimate).toBeCloseTo(direct.ppi!.estimate, 12);
    // Human differences 0.2, 0.1, 0.1: sd = 0.0577…; detecting 0.1 needs 5 questions (scipy noncentral t: power 0.821 at n = 5).
    expect(t.advisor).toEqual([expect.objectContaining({ system: "b", sdSource: "human", toDetect: 5 })]);
    expect(t.advisor[0].sd).toBeCloseTo(Math.sqrt(1 / 300), 12);
  });
  it("fewer than two labelled questions: the advisor falls back on the judge's differences", () => {
    const t = ppiTable({
      columns: [{ id: "m", label: "M" }],
      runs: ["a", "b"],
      baseline: 0,
      judge,
      human: [[[0.1]], [[0.3]]],
      labelled: [0],
    });
    expect(t.advisor[0].sdSource).toBe("judge");
    expect(t.rows[1].cells[0].mean.warnings).toEqual(["too_few_labelled"]);
  });
});

describe("no advice without a basis, no interval past the measure's range", () => {
  it("an sd of 0 or from fewer than 3 questions gives no number of questions, only the reason", () => {
    // sd 0: the formulas would say 2 (paired t-test) and 1 (half-width); the spread is unknown, not 0.
    expect(queriesToDetect(0, 0.05)).toBeNaN();
    expect(queriesForHalfWidth(0, 0.05)).toBeNaN();
    expect(adviceSpread([0.1, 0.1, 0.1, 0.1])).toEqual({ sd: 0, noBasis: "no_spread" });
    expect(adviceSpread([0.1, 0.3]).noBasis).toBe("too_few_questions");
    expect(adviceSpread([0.1, 0.3, 0.2]).noBasis).toBeNull();
  });

  it("ppiTable: the advisor says no basis where every question differs by the same amount", () => {
    const same = [[[0.2, 0.4, 0.6, 0.8, 0.5]], [[0.3, 0.5, 0.7, 0.9, 0.6]]];
    const t = ppiTable({
      columns: [{ id: "m", label: "M" }],
      runs: ["a", "b"],
      baseline: 0,
      judge: same,
      human: [[[0.1, 0.5, 0.7]], [[0.2, 0.6, 0.8]]],
      labelled: [0, 1, 2],
    });
    expect(t.advisor[0]).toMatchObject({ sdSource: "human", noBasis: "no_spread", toDetect: null, forHalfWidth: null });
  });

  it("clips the estimate and every interval to the range; se, p and narrowerBy are the unclipped ones", () => {
    // The numbers: 7 of 8 questions at 1, one at 0: mean 0.875, se = √(0.109375 / 8) = 0.1169,
    // 0.875 ± 1.96 · 0.1169 = [0.646, 1.104] unclipped.
    const human = [1, 1, 1, 1, 1, 1, 0, 1];
    const sample = { human, judgeLabelled: human, judgeUnlabelled: [1, 1, 0.9] };
    const open = ppiMean(sample);
    expect(open.human!.high).toBeCloseTo(1.104, 3);
    const r = ppiMean(sample, { range: [0, 1] });
    expect(r.human).toMatchObject({ estimate: 0.875, high: 1 });
    expect(r.human!.low).toBeCloseTo(0.646, 3);
    expect(r.human!.se).toBe(open.human!.se);
    for (const e of [r.ppi!, r.human!, r.judge!])
      expect([e.low >= 0, e.high <= 1, e.low <= e.estimate, e.estimate <= e.high]).toEqual([true, true, true, true]);
    expect(r.p).toBe(open.p);
    expect(narrowerBy(r)).toBeCloseTo(narrowerBy(open)!, 12);
  });

  it("ppiTable clips means to [0, 1] and differences to [-1, 1]", () => {
    const ones = [1, 1, 1, 1, 1, 1, 0, 1];
    const zeros = ones.map(() => 0);
    const t = ppiTable({
      columns: [{ id: "m", label: "M" }],
      runs: ["a", "b"],
      baseline: 0,
      judge: [[[...zeros, 0]], [[...ones, 1]]],
      human: [[zeros], [ones]],
      labelled: ones.map((_, i) => i),
    });
    const b = t.rows[1].cells[0];
    expect(b.mean.ppi!.high).toBe(1);
    expect(b.diff!.ppi!.high).toBe(1);
    expect(b.diff!.ppi!.low).toBeGreaterThan(0.6);
    expect(t.advisor[0].high).toBe(1);
  });
});
