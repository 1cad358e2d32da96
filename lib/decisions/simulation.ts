/**
 * The decision benchmark's simulation (scripts/bench/decide.ts; a small run is a unit test): on a
 * simulated collection (lib/decisions/simulation-world.ts) two runs A and B are compared on
 * nDCG@10, and a decision is settled three ways:
 *
 * - the full pool: every pooled pair labelled by people; the paired t-test's 95% interval of the mean
 *   paired difference over the questions (π ≡ 1). Its mean is the truth the other intervals are
 *   judged against (the estimator's target is this finite-population mean).
 * - the active design as the app runs it (lib/decisions/model.ts decisionState): batches of BATCH
 *   questions drawn with the probabilities of lib/stats/active.ts (τ = 0.5) from the uncertainty of
 *   questionUncertainty (the judge's grades and a calibration from CALIBRATION_QUESTIONS other
 *   questions labelled by both people and the judge), a look after every batch at its boundary
 *   (the error spent over the looks, lib/decisions/looks.ts), stopping when settled or when every question has been drawn.
 * - uniform sampling + PPI: the same with τ = 1.
 *
 * Human labels are counted as the app assigns them: every pooled pair of a drawn question, by two
 * annotators (adjudications are not counted).
 */
import {
  activeMean,
  inclusionProbabilities,
  systematicSample,
  verdict,
  type TLambda,
  type TVerdict,
} from "../stats/active.ts";
import { seededRng, type Rng } from "../stats/random.ts";
import { SpendingBoundaries, type TSpending } from "../stats/sequential.ts";
import { DEFAULT_SPENDING } from "./looks.ts";
import { decisionState, plannedSpread, variance0, type TBatch, type TPopulationEntry } from "./model.ts";
import { pearson, residualShare } from "../stats/correlation.ts";
import { median as medianOrNull } from "../stats/median.ts";
import type { TSimJudge } from "./simulation-world.ts";

/**
 * A design's information fractions (lib/decisions/looks.ts): counted (the app's); planned, with the
 * spread s² a decision has at creation (`plannedSpread`); or planned with the true spread (people's
 * differences, known only here: where the planned variant's savings come from).
 */
export type TInformation = "counted" | "planned" | "planned-true-spread";

import { CALIBRATION_QUESTIONS, PER_ITEM, simCollection, type TSimCollection } from "./simulation-collection.ts";

export { CALIBRATION_QUESTIONS, PER_ITEM, simCollection, type TSimCollection };

const outcomeOf = (v: TVerdict): string | null => (v === "better" ? "A" : v === "worse" ? "B" : null);

/** The full pool's verdict and the true difference (the mean over the questions). */
export function fullPool(c: TSimCollection, level = 0.95): { truth: number; outcome: string | null; z: number } {
  const units = c.humanA.map((a, q) => ({ prediction: a - c.humanB[q], human: a - c.humanB[q], probability: 1 }));
  const est = activeMean(units, { level, student: true })!;
  return {
    truth: est.estimate,
    outcome: outcomeOf(verdict(est)),
    z: est.se > 0 ? Math.abs(est.estimate) / est.se : Infinity,
  };
}

export type TDesignRun = {
  outcome: string | null;
  labels: number;
  looks: number;
  covered: boolean;
  /** λ̂ of the power-tuned estimate where the design stopped (lib/stats/active.ts). */
  lambda: number;
};

/** How a sequential design runs, besides its batches (the app's where not given). */
export type TDesignOptions = {
  /** The judge's weight: "tuned" (the app's; default) or fixed (1: before power tuning). */
  lambda?: TLambda;
  /** How the error is spent over the looks (default: the app's, lib/decisions/looks.ts). */
  spending?: TSpending;
  /** Label only each drawn question's discriminating pairs (TSimCollection's minimal test collection). */
  minimal?: boolean;
  /** The looks' information fractions (TInformation; default counted, the app's). */
  information?: TInformation;
};

/**
 * The sequential design (module comment) with batches of `batch` questions and mixing τ (0.5
 * active, 1 uniform); stops when settled or when every question has been drawn.
 */
export function runDesign(
  c: TSimCollection,
  opts: TDesignOptions & { batch: number; tau: number; level?: number; maxLooks?: number },
  rng: Rng,
): TDesignRun {
  const level = opts.level ?? 0.95;
  const spending = opts.spending ?? DEFAULT_SPENDING;
  // One decision's looks extend the boundaries of the looks before (lib/decisions/looks.ts).
  const boundaries = new SpendingBoundaries(spending, 1 - level);
  const n = c.questions.length;
  const population: TPopulationEntry[] = c.uncertainty.map((u, q) => ({ queryId: q, uncertainty: u, certain: false }));
  const humanA = opts.minimal ? c.minimalA : c.humanA;
  const humanB = opts.minimal ? c.minimalB : c.humanB;
  const values = [
    { system: "A", predicted: new Map(c.judgeA.map((v, q) => [q, v])), human: new Map(humanA.map((v, q) => [q, v])) },
    { system: "B", predicted: new Map(c.judgeB.map((v, q) => [q, v])), human: new Map(humanB.map((v, q) => [q, v])) },
  ];
  const truth = fullPool(c, level).truth;
  const spread = {
    planned: () => plannedSpread(population, values),
    "planned-true-spread": () => variance0(humanA.map((a, q) => a - humanB[q])),
  };
  const info = opts.information ?? "counted";
  const planned = info === "counted" ? undefined : { entries: population, spread: spread[info]() };
  const decision = {
    systems: ["A", "B"],
    margin: 0,
    level,
    population,
    lambda: opts.lambda,
    spending,
    boundaries,
    planned,
  };
  const batches: TBatch[] = [];
  const drawn = new Set<number>();
  const maxLooks = opts.maxLooks ?? 200;
  for (;;) {
    const probabilities = inclusionProbabilities(c.uncertainty, opts.batch, { tau: opts.tau });
    const chosen = systematicSample(probabilities, rng);
    for (const q of chosen) drawn.add(q);
    const probs: Record<string, number> = {};
    probabilities.forEach((p, q) => (probs[String(q)] = p));
    batches.push({ look: batches.length + 1, budget: opts.batch, tau: opts.tau, probabilities: probs, drawn: chosen });
    const state = decisionState({ ...decision, batches }, values);
    const est = state.pairs[0].estimate;
    if (state.status === "settled" || drawn.size === n || batches.length >= maxLooks) {
      let labels = 0;
      for (const q of drawn) labels += (opts.minimal ? c.discriminating[q] : c.questions[q].human.length) * PER_ITEM;
      return {
        outcome: state.status === "settled" ? state.outcome : null,
        labels,
        looks: batches.length,
        covered: est !== null && est.low <= truth && truth <= est.high,
        lambda: est?.lambda ?? 1,
      };
    }
  }
}

/**
 * One look at a fixed budget (no correction for looks): does the active 95% interval (power-tuned,
 * as the app's) cover the truth, with which λ̂, and its se over the se with λ = 1?
 */
export function fixedBudgetLook(
  c: TSimCollection,
  budget: number,
  tau: number,
  rng: Rng,
): { covered: boolean; lambda: number; seRatio: number } {
  const probabilities = inclusionProbabilities(c.uncertainty, budget, { tau });
  const chosen = new Set(systematicSample(probabilities, rng));
  const units = c.judgeA.map((a, q) => {
    const f = a - c.judgeB[q];
    return { prediction: f, human: chosen.has(q) ? c.humanA[q] - c.humanB[q] : null, probability: probabilities[q] };
  });
  const est = activeMean(units, { level: 0.95, lambda: "tuned", student: true })!;
  const truth = fullPool(c).truth;
  const untuned = activeMean(units, { level: 0.95, lambda: 1, student: true })!;
  return {
    covered: est.low <= truth && truth <= est.high,
    lambda: est.lambda,
    seRatio: untuned.se > 0 ? est.se / untuned.se : 1,
  };
}

/** Decisions the full pool settles, grouped by how clearly: |estimate| / se of the full pool's interval. */
export type TSimBand = { fromZ: number; toZ: number; decisions: number; same: number; medianShareOfFullPool: number };
export const Z_BANDS = [1.96, 3, 5, Infinity];

export type TSimSummary = {
  collections: number;
  /** Collections whose full pool settles the decision. */
  settledByFullPool: number;
  /** Among those: the active design's outcome equals the full pool's. */
  sameAsFullPool: number;
  /** Medians over those of active labels / full-pool labels and active labels / uniform labels. */
  medianShareOfFullPool: number;
  /** The mean of the same shares (the tie-break between spending families of equal median). */
  meanShareOfFullPool: number;
  medianRatioToUniform: number;
  medianActiveLabels: number;
  medianUniformLabels: number;
  medianFullPoolLabels: number;
  /** Share of collections the active design settled: with `delta: 0` (equal systems) its error rate against the population. */
  activeSettled: number;
  /** Coverage of the interval where the active design stopped (corrected level), over every collection. */
  coverageAtStop: number;
  /** Coverage of the 95% interval at one look with a budget of a fifth of the questions, τ = 0.5, over every collection. */
  coverageFixedBudget: number;
  bands: TSimBand[];
  /**
   * How well the judge predicts a question's paired difference, pooled over every question of
   * every collection: Pearson's r of f and Y, and E[(Y − f)²] / var(Y) (the share of the variance
   * the judge leaves: PPI with λ = 1 gains over people alone only when it is well below 1).
   */
  predictionR: number;
  residualShare: number;
  /** Pearson's r of the design's uncertainty u and the judge's actual error |Y − f|, pooled likewise. */
  uncertaintyR: number;
  /** Σ u² / Σ (Y − f)², pooled likewise: the scale of u against the judge's actual squared error (the planner's u²). */
  uncertaintyScale: number;
  /**
   * Median λ̂ (the judge's weight in the power-tuned estimate) at the fixed-budget look, every
   * collection (where the design stops it is mostly after every question was drawn, π near 1 for
   * all, and λ changes nothing there).
   */
  medianLambda: number;
  /** Median, at that look, of the power-tuned se over the se with λ = 1 (the judge at full weight). */
  medianSeRatio: number;
};

const median = (xs: number[]) => medianOrNull(xs) ?? NaN;

/**
 * Runs `collections` simulated decisions of `questions` questions each, the true advantage δ of A
 * drawn uniformly in [−maxDelta, maxDelta] (relative to the runs' signal) unless `delta` fixes it,
 * batches of a tenth of the questions.
 */
export function simulateDecisions(
  opts: TDesignOptions & {
    collections: number;
    questions: number;
    seed: number;
    maxDelta?: number;
    /** A fixed advantage of A for every collection (0: the systems are equal) instead of a drawn one. */
    delta?: number;
    /** The judge: a confusion matrix (default: the published judge; sensitivity rows pass sharper ones) or the published jury. */
    judge?: TSimJudge;
  },
): TSimSummary {
  const maxDelta = opts.maxDelta ?? 1;
  const batch = Math.max(1, Math.round(opts.questions / 10));
  const { lambda, spending, minimal, information } = opts;
  const design = { batch, lambda, spending, minimal, information };
  const shares: number[] = [];
  const ratios: number[] = [];
  const active: number[] = [];
  const uniform: number[] = [];
  const full: number[] = [];
  const lambdas: number[] = [];
  const seRatios: number[] = [];
  let settled = 0;
  let same = 0;
  let coveredStop = 0;
  let coveredFixed = 0;
  let activeSettled = 0;
  const predicted: [number, number][] = [];
  const errors: [number, number][] = [];
  const byBand = Z_BANDS.slice(1).map(() => ({ decisions: 0, same: 0, shares: [] as number[] }));
  for (let k = 0; k < opts.collections; k++) {
    // Each decision has generators of its own, one for its collection and one for the designs'
    // draws, so that runs with another λ compare the same collections (paired).
    const made = seededRng(opts.seed * 1_000_003 + 2 * k);
    const rng = seededRng(opts.seed * 1_000_003 + 2 * k + 1);
    // The draw of δ is made even when δ is fixed, so that the collections are otherwise the same.
    const drawnDelta = (2 * made.next() - 1) * maxDelta;
    const c = simCollection(opts.questions, opts.delta ?? drawnDelta, made, opts.judge);
    const reference = fullPool(c);
    c.judgeA.forEach((a, q) => {
      const f = a - c.judgeB[q];
      const y = c.humanA[q] - c.humanB[q];
      errors.push([c.uncertainty[q], Math.abs(y - f)]);
      predicted.push([f, y]);
    });
    const a = runDesign(c, { ...design, tau: 0.5 }, rng);
    if (a.covered) coveredStop++;
    if (a.outcome !== null) activeSettled++;
    const fixed = fixedBudgetLook(c, Math.max(1, Math.round(opts.questions / 5)), 0.5, rng);
    if (fixed.covered) coveredFixed++;
    lambdas.push(fixed.lambda);
    seRatios.push(fixed.seRatio);
    if (reference.outcome === null) continue;
    const u = runDesign(c, { ...design, tau: 1 }, rng);
    settled++;
    if (a.outcome === reference.outcome) same++;
    shares.push(a.labels / c.fullPoolLabels);
    const band = byBand[Z_BANDS.findIndex((z, i) => reference.z >= z && reference.z < Z_BANDS[i + 1])];
    if (band) {
      band.decisions++;
      if (a.outcome === reference.outcome) band.same++;
      band.shares.push(a.labels / c.fullPoolLabels);
    }
    ratios.push(a.labels / u.labels);
    active.push(a.labels);
    uniform.push(u.labels);
    full.push(c.fullPoolLabels);
  }
  return {
    collections: opts.collections,
    settledByFullPool: settled,
    sameAsFullPool: same,
    medianShareOfFullPool: median(shares),
    meanShareOfFullPool: shares.reduce((x, y) => x + y, 0) / Math.max(1, shares.length),
    medianRatioToUniform: median(ratios),
    medianActiveLabels: median(active),
    medianUniformLabels: median(uniform),
    medianFullPoolLabels: median(full),
    activeSettled: activeSettled / opts.collections,
    coverageAtStop: coveredStop / opts.collections,
    coverageFixedBudget: coveredFixed / opts.collections,
    predictionR: pearson(predicted),
    uncertaintyR: pearson(errors),
    uncertaintyScale: errors.reduce((x, [u]) => x + u * u, 0) / errors.reduce((x, [, e]) => x + e * e, 0),
    residualShare: residualShare(predicted),
    medianLambda: median(lambdas),
    medianSeRatio: median(seRatios),
    bands: byBand.map((b, i) => ({
      fromZ: Z_BANDS[i],
      toZ: Z_BANDS[i + 1],
      decisions: b.decisions,
      same: b.same,
      medianShareOfFullPool: median(b.shares),
    })),
  };
}
