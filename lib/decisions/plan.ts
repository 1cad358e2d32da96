/**
 * The planner (`decide plan`): before labelling, the questions (and pair labels) expected to settle
 * a decision for a range of true differences, under the active design and under uniform sampling.
 */
import type { Db } from "../db/client.ts";
import { inclusionProbabilities, studentMultiplier } from "../stats/active.ts";
import { normalQuantile } from "../stats/normal.ts";
import { spendingFunction } from "../stats/sequential.ts";
import { decisionResidualScale, pairsOf, predictionSpread } from "./model.ts";
import { isAnswerMeasure } from "./answers.ts";
import { decisionInput, type TDecision } from "./store.ts";
import { itemsPerQuestion, loaded, presentPopulation, systemValues } from "./values.ts";

export type TPlanRow = { difference: number; active: number | null; uniform: number | null };

/**
 * The planner (before any labelling): for each true difference δ, the fewest questions to label
 * so that the decision settles with probability `power` at the first look, under the active design
 * (τ = 0.5) and under uniform sampling (τ = 1). The variance of the estimator with n questions
 * drawn (π_q = inclusionProbabilities(u, n, τ)) is taken as
 *
 *   se²(n) = s²_f / N + (1/N²) · Σ_q u_q² · (1/π_q − 1)
 *
 * (the spread of the questions, estimated by the predictions' variance s²_f, plus the labels' part
 * with the expected squared error of a prediction u_q², as for the Horvitz–Thompson estimator
 * under Poisson sampling). The labels' part is E[(Y_q − λ f_q)²] for the power-tuned estimator;
 * before any label it is taken as u_q² (λ = 1, the calibration at its word); once questions are
 * labelled the caller passes `residualScale` ρ (`residualScale` above, with the decision's λ̂) and
 * the part becomes ρ · u_q², so a judge whose errors turn out larger than its calibration says, or
 * that λ̂ weighs down, is planned with what was seen. The decision settles when (z_{1−α/2} + z_power) · se(n) ≤ |δ|
 * (a normal power calculation); with `firstLookAlpha` (the decision's spending: the error a first
 * look with n questions drawn may spend, lib/decisions/looks.ts) z_{1−α/2} becomes that look's
 * boundary z_{1−α(t)/2}. Null: even every question labelled would not be enough (more questions are
 * needed, not more labels).
 */
export function planQuestions(
  uncertainty: readonly number[],
  predictionVariance: number,
  differences: readonly number[],
  opts: { level?: number; power?: number; residualScale?: number; firstLookAlpha?: (n: number) => number } = {},
): TPlanRow[] {
  const rho = opts.residualScale ?? 1;
  if (!(rho >= 0) || !Number.isFinite(rho))
    throw new RangeError(`residualScale must be a finite number ≥ 0, got ${rho}`);
  const N = uncertainty.length;
  const zPower = normalQuantile(opts.power ?? 0.8);
  const zAt = (n: number) => {
    const alpha = opts.firstLookAlpha ? opts.firstLookAlpha(n) : 1 - (opts.level ?? 0.95);
    return alpha > 0 ? studentMultiplier(-normalQuantile(alpha / 2), N) + zPower : Infinity;
  };
  const se2 = (n: number, tau: number) => {
    const pi = inclusionProbabilities(uncertainty, n, { tau });
    let s = 0;
    uncertainty.forEach((u, q) => (s += u * u * (1 / pi[q] - 1)));
    return Math.max(0, predictionVariance) / N + (rho * s) / (N * N);
  };
  const smallest = (delta: number, tau: number): number | null => {
    if (N === 0) return null;
    // z falls and se² falls as n grows, so "settles with n" is monotone in n.
    const settles = (n: number) => se2(n, tau) <= (Math.abs(delta) / zAt(n)) ** 2;
    if (!settles(N)) return null;
    let lo = 1;
    let hi = N;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (settles(mid)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
  return differences.map((difference) => ({
    difference,
    active: smallest(difference, 0.5),
    uniform: smallest(difference, 1),
  }));
}

export type TDecisionPlan = {
  rows: (TPlanRow & { activeLabels: number | null; uniformLabels: number | null })[];
  questions: number;
  pairsPerQuestion: number;
  /** What a question's items are: pooled pairs (runs) or answers (generators). */
  items: "pooled pairs" | "answers";
  perItem: number;
};

/**
 * `decide plan`: the questions (and pair labels) expected to settle the decision for a range of
 * true differences, under the active design and under uniform sampling (lib/decisions/model.ts
 * planQuestions), from the uncertainty frozen at creation and the spread of the predictions.
 */
export async function decisionPlan(
  db: Db,
  projectId: number,
  d: TDecision,
  differences: readonly number[],
): Promise<TDecisionPlan> {
  const l = await loaded(db, projectId, { answers: isAnswerMeasure(d.measure) });
  const values = systemValues(l, d);
  const population = presentPopulation(l, d);
  const variance = predictionSpread(population, values);
  const uncertain = population.filter((p) => !p.certain);
  // A drawn question costs its discriminating pairs when it has them, else its whole pool (runs), or
  // the compared systems' answers (generators).
  const items = itemsPerQuestion(l.data, d);
  const pairsPerQuestion = uncertain.length ? uncertain.reduce((s, p) => s + items(p), 0) / uncertain.length : 0;
  const perItem =
    (await db.project.findUnique({ where: { id: projectId }, select: { annotatorsPerItem: true } }))
      ?.annotatorsPerItem ?? 2;
  const labels = (n: number | null) => (n === null ? null : Math.round(n * pairsPerQuestion * perItem));
  const rows = planQuestions(
    population.map((p) => p.uncertainty),
    variance,
    differences,
    {
      level: d.level,
      residualScale: decisionResidualScale(decisionInput(d, population), values),
      // The first look's error at n questions drawn, split over the pairs (lib/decisions/looks.ts).
      firstLookAlpha: (n) =>
        spendingFunction(
          d.spending,
          (1 - d.level) / Math.max(1, pairsOf(d.systems).length),
          Math.min(1, (d.population.filter((p) => p.certain).length + n) / Math.max(1, d.population.length)),
        ),
    },
  ).map((r) => ({ ...r, activeLabels: labels(r.active), uniformLabels: labels(r.uniform) }));
  return {
    rows,
    questions: population.length,
    pairsPerQuestion,
    items: isAnswerMeasure(d.measure) ? "answers" : "pooled pairs",
    perItem,
  };
}
