import { describe, expect, it } from "vitest";
import {
  fixedBudgetLook,
  fullPool,
  runDesign,
  simCollection,
  simulateDecisions,
} from "../../../lib/decisions/simulation.ts";
import {
  judgeAgreement,
  judgeGrade,
  juryFigures,
  juryGrades,
  sharperJudge,
  simQuestion,
  worldParams,
  worldTargets,
} from "../../../lib/decisions/simulation-world.ts";
import { seededRng } from "../../../lib/stats/random.ts";

/**
 * Coverage tolerance: over K independent simulated collections the number of intervals covering
 * the truth is Binomial(K, p); at the nominal p = 0.95 its share has sd √(0.95 · 0.05 / K). A
 * share below 0.95 − 3·sd (one-sided, probability < 0.2% under the nominal rate) fails.
 */
const tolerance = (k: number) => 3 * Math.sqrt((0.95 * 0.05) / k);

describe("the decision simulation's world", () => {
  it("is fitted to its published shape", () => {
    const w = worldParams();
    // Runs' mean nDCG@10 within 0.03 of the real runs' median (TREC DL 2019/2020, simulation-world.json).
    expect(Math.abs(w.ndcg - worldTargets.ndcg)).toBeLessThan(0.03);
    // Annotators' relevant-set overlap in Voorhees (2000)'s range 0.42–0.49.
    expect(w.annotatorOverlap).toBeGreaterThan(0.42);
    expect(w.annotatorOverlap).toBeLessThan(0.49);
    expect(w.shared).toBeGreaterThanOrEqual(0);
  });

  it("draws the judge's grades with the published confusion matrix", () => {
    // 20,000 draws for human grade 0: the share of judge grade 0 is the matrix's row share
    // 1521 / 2005 = 0.759 (sd √(0.759 · 0.241 / 20000) = 0.003; 4 sd allowed).
    const rng = seededRng(9);
    let zeros = 0;
    for (let i = 0; i < 20000; i++) if (judgeGrade(0, rng) === 0) zeros++;
    const row = worldTargets.confusion[0];
    const share = row[0] / row.reduce((a, b) => a + b, 0);
    expect(share).toBeCloseTo(1521 / 2005, 6);
    expect(Math.abs(zeros / 20000 - share)).toBeLessThan(0.012);
  });

  it("makes sharper judges for the sensitivity rows by mixing each row with the identity", () => {
    // The published judge's exact agreement: the diagonal 1521 + 457 + 270 + 113 = 2361 of the
    // 4,423 pairs (rows 2005, 1233, 808, 377) = 0.53380.
    expect(judgeAgreement()).toBeCloseTo(2361 / 4423, 10);
    expect(sharperJudge(0)).toEqual(worldTargets.confusion);
    // Row 0 at m = 0.5: (1521 + 2005) / 2, 369 / 2, 88 / 2, 27 / 2; the agreement 0.5 · 0.53380 + 0.5.
    expect(sharperJudge(0.5)[0]).toEqual([1763, 184.5, 44, 13.5]);
    expect(judgeAgreement(sharperJudge(0.5))).toBeCloseTo(0.5 * (2361 / 4423) + 0.5, 10);
    // m = 1: the judge always gives the human grade.
    const rng = seededRng(3);
    const q = simQuestion([1, 1], worldParams(), rng, sharperJudge(1));
    expect(Array.from(q.judge)).toEqual(Array.from(q.human));
    expect(() => sharperJudge(1.5)).toThrow(RangeError);
  });

  it("draws a jury's grades from the published joint grades, labelled by their median, unsure where they differ", () => {
    // The three UMBRELA prompt variants (willia-umbrela1–3 of llm4eval/LLMJudge-benchmark @ 968a1f9)
    // on the 4,423 pairs NIST graded (same rows as the single judge's: 2005, 1233, 808, 377). Counted
    // from the three files and the NIST qrels by a separate script, not this code: the median gives
    // people's grade on 2,388 pairs; the members differ on 702, where the median agrees on 271; on
    // the 3,721 others on 2,117.
    expect(worldTargets.jury.map((row) => row.reduce((a, b) => a + b, 0))).toEqual([2005, 1233, 808, 377]);
    const f = juryFigures();
    expect(f.agreement).toBeCloseTo(2388 / 4423, 12);
    expect(f.unstableShare).toBeCloseTo(702 / 4423, 12);
    expect(f.unstableAgreement).toBeCloseTo(271 / 702, 12);
    expect(f.stableAgreement).toBeCloseTo(2117 / 3721, 12);
    // The same draws with and without saying where the members differ.
    const withFlags = simQuestion([1, 1], worldParams(), seededRng(4), "jury");
    const labelsOnly = simQuestion([1, 1], worldParams(), seededRng(4), "jury-median");
    expect(Array.from(withFlags.judge)).toEqual(Array.from(labelsOnly.judge));
    expect(labelsOnly.unstable).toBeUndefined();
    expect(withFlags.unstable).toHaveLength(withFlags.judge.length);
    // 20,000 draws for human grade 0: all three members say 0 in the published share 1518 / 2005 =
    // 0.757 (sd √(0.757 · 0.243 / 20000) = 0.003; 4 sd allowed); the grades are decoded from the
    // cell 16·g₁ + 4·g₂ + g₃.
    const rng = seededRng(5);
    let allZero = 0;
    for (let i = 0; i < 20000; i++) if (juryGrades(0, rng).every((g) => g === 0)) allZero++;
    expect(Math.abs(allZero / 20000 - 1518 / 2005)).toBeLessThan(4 * 0.003);
    expect(juryGrades(3, seededRng(6)).every((g) => Number.isInteger(g) && g >= 0 && g <= 3)).toBe(true);
  });
});

describe("coverage of the active interval on simulated collections", () => {
  it("covers the full pool's difference at one look, at the nominal rate within the binomial tolerance", () => {
    const K = 300;
    const rng = seededRng(11);
    let covered = 0;
    const lambdas: number[] = [];
    for (let k = 0; k < K; k++) {
      const c = simCollection(40, (2 * rng.next() - 1) * 1, rng);
      const look = fixedBudgetLook(c, 8, 0.5, rng);
      if (look.covered) covered++;
      lambdas.push(look.lambda);
    }
    // The interval is the power-tuned one (λ̂ estimated on the same labels), and the tuning is at work:
    // the simulated judge (r ≈ 0.5 with people) is weighed well below 1.
    expect(covered / K).toBeGreaterThanOrEqual(0.95 - tolerance(K));
    lambdas.sort((x, y) => x - y);
    expect(lambdas[K / 2]).toBeLessThan(0.8);
  });

  it("covers it where the sequential design stops (repeated confidence interval at the spending boundary)", () => {
    const K = 120;
    const rng = seededRng(12);
    let covered = 0;
    for (let k = 0; k < K; k++) {
      const c = simCollection(30, (2 * rng.next() - 1) * 1, rng);
      if (runDesign(c, { batch: 3, tau: 0.5 }, rng).covered) covered++;
    }
    expect(covered / K).toBeGreaterThanOrEqual(0.95 - tolerance(K));
  });

  it("labels every question's pool in the full pool, and a settled design agrees with a clear full pool", () => {
    const rng = seededRng(13);
    // δ = 2: A's signal three times B's, a difference the full pool settles clearly.
    const c = simCollection(40, 2, rng);
    const ref = fullPool(c);
    expect(ref.outcome).toBe("A");
    expect(c.fullPoolLabels).toBe(c.questions.reduce((s, q) => s + q.human.length, 0) * 2);
    const run = runDesign(c, { batch: 4, tau: 0.5 }, rng);
    expect(run.outcome).toBe("A");
    expect(run.labels).toBeLessThanOrEqual(c.fullPoolLabels);
  });

  it("labels only the discriminating pairs in the minimal test collection and still covers the full pool's difference", () => {
    const K = 120;
    const rng = seededRng(14);
    let covered = 0;
    for (let k = 0; k < K; k++) {
      const c = simCollection(30, (2 * rng.next() - 1) * 1, rng);
      // A pair both runs weigh alike cannot move the difference: the discriminating pairs are a subset of the pool.
      c.questions.forEach((q, i) => expect(c.discriminating[i]).toBeLessThanOrEqual(q.human.length));
      const run = runDesign(c, { batch: 3, tau: 0.5, minimal: true }, rng);
      if (run.covered) covered++;
    }
    // Same binomial tolerance as above, against the full pool's all-human difference.
    expect(covered / K).toBeGreaterThanOrEqual(0.95 - tolerance(K));
  });

  it("settles equal systems (population difference 0) no more often than the error allows, looking after every batch", () => {
    // With δ = 0, A and B are exchangeable, so the population's difference is 0 and every settled
    // decision is an error: the error rate against the population, not against the 50 questions'
    // own difference (which the coverage above uses). Nominal 5%; the same one-sided binomial
    // tolerance.
    const K = 300;
    const s = simulateDecisions({ collections: K, questions: 50, seed: 15, delta: 0, minimal: true });
    expect(s.activeSettled).toBeLessThanOrEqual(0.05 + tolerance(K));
    // The check can fail: the same design run at an overall error of 20% settles equal systems in
    // about a fifth of the collections.
    const rng = seededRng(16);
    let loose = 0;
    for (let k = 0; k < 100; k++) {
      const c = simCollection(50, 0, rng);
      if (runDesign(c, { batch: 5, tau: 0.5, minimal: true, level: 0.8 }, rng).outcome !== null) loose++;
    }
    expect(loose / 100).toBeGreaterThan(0.05 + tolerance(K));
  });

  it("summarises the decisions the full pool settles", () => {
    const s = simulateDecisions({ collections: 12, questions: 20, seed: 3 });
    expect(s.collections).toBe(12);
    expect(s.sameAsFullPool).toBeLessThanOrEqual(s.settledByFullPool);
    expect(s.bands.reduce((n, b) => n + b.decisions, 0)).toBe(s.settledByFullPool);
  });
});
