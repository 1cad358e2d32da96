/**
 * A decision's statistics, pure (no database): which questions to label and what the labels so far
 * settle. The estimator, the design and the correction for repeated looks are lib/stats/active.ts;
 * this module applies them to retrieval measures of systems compared on the same questions.
 *
 * - Unit: a question. Its paired difference M_A − M_B needs people's labels on the pairs that can
 *   move it: for nDCG@k and Recall@k with a judge, the discriminating pairs frozen at creation
 *   (`discriminatingChunks`; the judge's grades fill the others, which enter only the normaliser);
 *   otherwise every pooled pair (a "complete" question, lib/dashboard/complete.ts).
 * - Prediction f_q: the difference computed with the judge's labels (and, on questions completely
 *   labelled when the decision was created, the human labels: those are certain units with π = 1).
 *   Human labels that arrive later on questions the decision did not draw are not used: their
 *   inclusion probability is unknown, and using them would bias the estimate.
 * - Human value Y_q: the difference with human labels (on the discriminating pairs, the judge's
 *   elsewhere, when the question has them), on drawn questions once those are all labelled.
 * - Inclusion probability of a drawn or undrawn question after batches 1…k: 1 − Π(1 − p_j(q)),
 *   where p_j(q) is the batch's probability, computed from the uncertainty frozen at creation and
 *   the batch's budget alone (never from labels gathered since), so it is known exactly.
 * - Looks: each stored batch is a look; the error is spent over the looks by a spending function
 *   of the share of questions drawn (lib/decisions/looks.ts, lib/stats/sequential.ts), and the
 *   interval reported at a look is the repeated confidence interval at that look's boundary, its
 *   half-width Student's over the population's questions (lib/stats/active.ts studentMultiplier).
 * - Several systems: every pair, with a Bonferroni split of the error over the pairs.
 *   Settled when one system is better than every other, or every pair is equivalent (margin).
 * - Until every drawn question is complete the verdict waits ("labelling"): using a drawn question
 *   without its human value would bias the estimate towards the judge.
 */
import {
  activeMean,
  combinedInclusion,
  labelsToSettle,
  verdict,
  type TActiveEstimate,
  type TLambda,
  type TVerdict,
} from "../stats/active.ts";
import { normalCdf } from "../stats/normal.ts";
import type { SpendingBoundaries, TLookBoundary, TSpending } from "../stats/sequential.ts";
import { DEFAULT_SPENDING, decisionLooks, informationFractions, plannedFractions } from "./looks.ts";

/**
 * A question of a decision, frozen at creation. `chunks`: the pooled pairs whose grades can move the
 * compared systems' difference (lib/decisions/design.ts `discriminatingChunks`), the only ones people
 * label when the question is drawn; absent: every pooled pair (a measure that is not a weighted sum
 * of grades, a decision without a judge, or one created before pairs were chosen).
 */
export type TPopulationEntry = { queryId: number; uncertainty: number; certain: boolean; chunks?: number[] };
export type TBatch = {
  look: number;
  budget: number;
  tau: number;
  probabilities: Record<string, number>;
  drawn: number[];
};

export type TPairState = {
  a: string;
  b: string;
  estimate: TActiveEstimate | null;
  verdict: TVerdict;
  /** Questions still to label (projected) before this pair settles; 0 settled, null when labels alone cannot. */
  toSettle: number | null;
};

export type TDecisionState = {
  status: "settled" | "open" | "labelling" | "no_basis";
  /** What it settled: the better system, or "equivalent". */
  outcome: string | null;
  /** Distinct looks so far (batches that drew nothing new share the look before). */
  look: number;
  /** Each pair's interval level at this look: 1 − 2(1 − Φ(z)) of the look's boundary z. */
  level: number;
  /** The spending family (obf, pocock, hsd(γ)) and the looks' boundaries, per pair (α split over the pairs). */
  spending: string;
  looks: TLookBoundary[];
  questions: number;
  certain: number;
  drawn: number;
  /** Drawn questions not yet completely labelled. */
  pending: number;
  pairs: TPairState[];
  /** Questions still to label (projected) to settle the whole decision; null when labels alone cannot. */
  toSettle: number | null;
};

/** Values of one system on every question of the population: with the cheap sources, and with people (null: not complete). */
export type TSystemValues = { system: string; predicted: Map<number, number>; human: Map<number, number | null> };

/** Every pair (i, j), i < j, of the compared systems' positions. */
export function pairsOf(systems: readonly unknown[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < systems.length; i++) for (let j = i + 1; j < systems.length; j++) out.push([i, j]);
  return out;
}

/** Variance with divisor n (0 without values): the spread of the predictions, as the estimator's se uses. */
export function variance0(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  let mean = 0;
  for (const x of xs) mean += x;
  mean /= xs.length;
  let ss = 0;
  for (const x of xs) ss += (x - mean) ** 2;
  return ss / xs.length;
}

/** Each question's inclusion probability over the batches so far (certain questions: 1). */
export function inclusionByQuestion(
  population: readonly TPopulationEntry[],
  batches: readonly TBatch[],
): Map<number, number> {
  const out = new Map<number, number>();
  for (const p of population) {
    if (p.certain) out.set(p.queryId, 1);
    else out.set(p.queryId, combinedInclusion(batches.map((b) => b.probabilities[String(p.queryId)] ?? 0)));
  }
  return out;
}

/** What a decision's state is computed from (besides the systems' values). */
export type TDecisionInput = {
  systems: readonly string[];
  margin: number;
  level: number;
  population: readonly TPopulationEntry[];
  batches: readonly TBatch[];
  /** The judge's weight: "tuned" (the app's, PPI++), or fixed (1: before power tuning; the benchmark's comparison). */
  lambda?: TLambda;
  /** How the error is spent over the looks (lib/decisions/looks.ts DEFAULT_SPENDING when not given). */
  spending?: TSpending;
  /** Questions of the population as frozen at creation (the information fractions' denominator; default: population.length). */
  plannedQuestions?: number;
  /** Questions completely labelled at creation, as frozen (default: the certain entries of population). */
  plannedCertain?: number;
  /**
   * Planned information fractions instead of counted ones (lib/decisions/looks.ts
   * `plannedFractions`: the benchmark's variant, not a stored decision's): the population as frozen
   * at creation and the questions' spread s² (`plannedSpread`).
   */
  planned?: { entries: readonly TPopulationEntry[]; spread: number };
  /** The boundaries computed at the previous look of this decision, extended rather than recomputed (the simulation's). */
  boundaries?: SpendingBoundaries;
};

/** The looks of a decision and the boundary of its last one (z = ∞ before any look: nothing can settle). */
export function lookBoundaries(input: TDecisionInput): { spending: string; looks: TLookBoundary[]; z: number } {
  const pairs = Math.max(1, pairsOf(input.systems).length);
  const fractions = input.planned
    ? plannedFractions(input.planned.entries, input.planned.spread, input.batches)
    : informationFractions(
        input.plannedQuestions ?? input.population.length,
        input.plannedCertain ?? input.population.filter((p) => p.certain).length,
        input.batches,
      );
  const { spending, looks } = decisionLooks(
    fractions,
    input.spending ?? DEFAULT_SPENDING,
    (1 - input.level) / pairs,
    input.boundaries,
  );
  return { spending, looks, z: looks.length ? looks[looks.length - 1].z : Infinity };
}

export function decisionState(input: TDecisionInput, values: readonly TSystemValues[]): TDecisionState {
  const { population, batches, margin } = input;
  const pairs = pairsOf(input.systems);
  const sequence = lookBoundaries(input);
  // Before the first look (no batch) the interval is at the fixed-sample level: nothing is settled then anyway.
  const level = sequence.looks.length
    ? 1 - 2 * normalCdf(-sequence.z)
    : 1 - (1 - input.level) / Math.max(1, pairs.length);
  const inclusion = inclusionByQuestion(population, batches);
  const drawnSet = new Set(batches.flatMap((b) => b.drawn));
  const certain = population.filter((p) => p.certain).length;
  let pending = 0;
  for (const q of drawnSet) if (values.some((v) => (v.human.get(q) ?? null) === null)) pending++;

  // Before the first batch only the certain questions carry human values: the uncertain ones would
  // enter with the judge's value uncorrected, so nothing can be settled yet.
  const unsampled = batches.length === 0 && certain < population.length;
  const pairStates: TPairState[] = pairs.map(([i, j]) => {
    const A = values[i];
    const B = values[j];
    const units = population.flatMap((p) => {
      const pi = inclusion.get(p.queryId) ?? 0;
      const fa = A.predicted.get(p.queryId);
      const fb = B.predicted.get(p.queryId);
      if (fa === undefined || fb === undefined) return [];
      const sampled = p.certain || drawnSet.has(p.queryId);
      const ha = sampled ? (A.human.get(p.queryId) ?? null) : null;
      const hb = sampled ? (B.human.get(p.queryId) ?? null) : null;
      const human = ha === null || hb === null ? null : ha - hb;
      // A certain question is its own human value (π = 1); an undrawn one keeps π for the estimator's weights of the others.
      if (p.certain && human !== null) return [{ prediction: human, human, probability: 1 }];
      return [{ prediction: fa - fb, human, probability: pi > 0 ? pi : 1 }];
    });
    // Power-tuned (PPI++): the judge's values weigh λ̂ ∈ [0, 1], estimated to minimise the variance,
    // so a judge that does not track people costs no more than labelling alone (lib/stats/active.ts).
    const estimate = activeMean(units, {
      ...(sequence.looks.length ? { z: sequence.z } : { level }),
      lambda: input.lambda ?? "tuned",
      student: true,
    });
    if (!estimate) return { a: A.system, b: B.system, estimate: null, verdict: "open" as const, toSettle: null };
    if (unsampled) return { a: A.system, b: B.system, estimate, verdict: "open" as const, toSettle: null };
    const v = pending > 0 ? "open" : verdict(estimate, margin);
    return {
      a: A.system,
      b: B.system,
      estimate,
      verdict: v,
      toSettle: v !== "open" ? 0 : labelsToSettle(estimate, variance0(units.map((u) => u.prediction)), margin),
    };
  });

  const better = new Map<string, number>();
  for (const p of pairStates) {
    if (p.verdict === "better") better.set(p.a, (better.get(p.a) ?? 0) + 1);
    if (p.verdict === "worse") better.set(p.b, (better.get(p.b) ?? 0) + 1);
  }
  const winner = input.systems.find((s) => (better.get(s) ?? 0) === input.systems.length - 1) ?? null;
  const equivalent = pairStates.length > 0 && pairStates.every((p) => p.verdict === "equivalent");
  const settled = pending === 0 && (winner !== null || equivalent);
  const open = pairStates.filter((p) => p.verdict === "open");
  const toSettle = settled
    ? 0
    : open.some((p) => p.toSettle === null)
      ? null
      : Math.max(0, ...open.map((p) => p.toSettle ?? 0));
  const anyEstimate = pairStates.some((p) => p.estimate !== null);
  return {
    status: !anyEstimate || unsampled ? "no_basis" : pending > 0 ? "labelling" : settled ? "settled" : "open",
    outcome: settled ? (winner ?? "equivalent") : null,
    look: sequence.looks.length,
    level,
    spending: sequence.spending,
    looks: sequence.looks,
    questions: population.length,
    certain,
    drawn: drawnSet.size,
    pending,
    pairs: pairStates,
    toSettle,
  };
}

/**
 * The planner's scale for the labels' part once questions are labelled: over the drawn, labelled,
 * uncertain questions q, ρ = Σ_q (Y_q − λ f_q)² / π_q ÷ Σ_q u_q² / π_q (Horvitz–Thompson estimates
 * of the two population totals), with λ the pair's power-tuned λ̂: how large the judge's weighted
 * errors actually are against the design's expectation u² (ρ > 1: the calibration was optimistic;
 * λ̂ < 1 caps (Y − λf)² near Y² for a judge that does not track people). 1 when there is nothing to
 * compare (no such question, or every u = 0).
 */
export function residualScale(
  input: { population: readonly TPopulationEntry[]; batches: readonly TBatch[] },
  A: TSystemValues,
  B: TSystemValues,
  lambda: number,
): number {
  const inclusion = inclusionByQuestion(input.population, input.batches);
  const drawn = new Set(input.batches.flatMap((b) => b.drawn));
  let seen = 0;
  let expected = 0;
  for (const p of input.population) {
    const pi = inclusion.get(p.queryId) ?? 0;
    if (p.certain || !drawn.has(p.queryId) || !(pi > 0)) continue;
    const fa = A.predicted.get(p.queryId);
    const fb = B.predicted.get(p.queryId);
    const ha = A.human.get(p.queryId) ?? null;
    const hb = B.human.get(p.queryId) ?? null;
    if (fa === undefined || fb === undefined || ha === null || hb === null) continue;
    seen += (ha - hb - lambda * (fa - fb)) ** 2 / pi;
    expected += (p.uncertainty * p.uncertainty) / pi;
  }
  return expected > 0 && seen > 0 ? seen / expected : 1;
}

/** The planner's spread of the questions: the largest variance0 of the predicted differences over the pairs. */
export function predictionSpread(population: readonly TPopulationEntry[], values: readonly TSystemValues[]): number {
  let variance = 0;
  for (const [i, j] of pairsOf(values))
    variance = Math.max(
      variance,
      variance0(
        population.map((p) => (values[i].predicted.get(p.queryId) ?? 0) - (values[j].predicted.get(p.queryId) ?? 0)),
      ),
    );
  return variance;
}

/**
 * s², the expected spread of the questions' true differences, for the planned information fractions
 * (lib/decisions/looks.ts `plannedFractions`, the benchmark's variant): the largest variance of the predicted
 * differences over the pairs (`predictionSpread`) plus the mean expected squared error of a
 * question's prediction, mean(u²) (a true difference is its prediction plus an error of variance u²).
 */
export function plannedSpread(population: readonly TPopulationEntry[], values: readonly TSystemValues[]): number {
  if (population.length === 0) return 0;
  let u2 = 0;
  for (const p of population) u2 += p.uncertainty * p.uncertainty;
  return predictionSpread(population, values) + u2 / population.length;
}

/**
 * The planner's ρ for a decision: the largest `residualScale` over its pairs, each with its own
 * power-tuned λ̂ (as the planner takes the largest spread over the pairs); 1 before any label.
 */
export function decisionResidualScale(input: TDecisionInput, values: readonly TSystemValues[]): number {
  const state = decisionState(input, values);
  let rho = 0;
  pairsOf(values).forEach(([i, j], k) => {
    rho = Math.max(rho, residualScale(input, values[i], values[j], state.pairs[k]?.estimate?.lambda ?? 1));
  });
  return rho > 0 ? rho : 1;
}
