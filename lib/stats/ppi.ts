/**
 * Prediction-powered inference (PPI) of a mean: combines a few gold labels (here: a retrieval
 * measure computed with human labels on the n questions whose pool is completely human-labelled)
 * with many cheap predictions (the same measure computed with the LLM judge's labels on every
 * question), so that the estimate stays unbiased and its interval is narrower than the human-only
 * one whenever the judge is informative.
 *
 * Sources: Angelopoulos, Bates, Fannjiang, Jordan & Zrnic, "Prediction-powered inference",
 * Science 382 (2023); the power-tuned estimator PPI++: Angelopoulos, Duchi & Zrnic, "PPI++:
 * Efficient prediction-powered inference", arXiv:2311.01453 (2023); applied to model evaluation
 * by Boyeau, Angelopoulos, Yosef, Malik & Jordan, "AutoEval done right: using synthetic data for
 * model evaluation", arXiv:2403.07008 (2024). The numbers match the authors' package ppi-python
 * (`ppi_mean_ci`, `ppi_mean_pointestimate`, `ppi_mean_pval`, `_calc_lam_glm` with clip=True;
 * tests/fixtures/stats/ppi-reference.json, made by scripts/fixtures/ppi_reference.py).
 *
 * With Y_i the human value and Ŷ_i the judge value on the n labelled questions and Ŷᵘ_j the
 * judge value on the N questions without complete human labels:
 *
 *   θ̂(λ)  = λ · mean(Ŷᵘ) + mean(Y − λŶ)                                      (unbiased for any λ)
 *   se²(λ) = λ² · var(Ŷᵘ) / N + var(Y − λŶ) / n                    (var: population variance)
 *   λ̂     = cov(Y, Ŷ) / ((1 + n/N) · var(Ŷ ∪ Ŷᵘ)), clipped to [0, 1]
 *           (cov over the n labelled pairs with divisor n; var of all n + N judge values with
 *           divisor n + N − 1: PPI++'s plug-in for the variance-minimising λ of a mean)
 *   interval: θ̂ ± z_{1−α/2} · se;  p-value of H₀: θ = θ₀: 2 · Φ(−|θ̂ − θ₀| / max(se, 1e-16)).
 *
 * λ = 0 is the classical (human-only) estimate and interval; λ = 1 is the original PPI. A paired
 * difference between two systems is the same estimator on per-question differences (each system's
 * value minus the baseline's, for Y and Ŷ alike).
 *
 * Edge cases, decided here (tests/unit/stats/ppi.test.ts):
 * - n = 0: no estimate (null) and no interval; the judge-only figures are still given.
 * - n = 1: the estimate is the one human value (λ = 0), with no interval (no variance to estimate).
 * - N = 0 (every question human-labelled): λ = 0, i.e. the human-only estimate and interval
 *   (ppi-python would divide by zero).
 * - judge constant on the labelled questions: cov = 0, so λ = 0 (the judge adds nothing); also
 *   when every judge value is the same (0/0).
 * A question with no relevant chunk takes whatever its measure decides (Recall, MRR, nDCG: 0).
 *
 * The measure's range (`range`, e.g. [0, 1] for recall, MRR and nDCG; [−1, 1] for a difference of
 * two of them): the normal interval θ̂ ± z·se can reach past it (0.875 ± 0.229 → [0.646, 1.104])
 * although no mean can lie there. With `range` given, every estimate and interval (PPI,
 * human-only, judge-only) is clipped to it: the interval keeps the possible values it held, its
 * coverage is unchanged (the true mean is inside the range), and an estimate outside the range is
 * moved to its edge. `se` and the p-value are those of the unclipped estimate, and `narrowerBy`
 * compares standard errors, so clipping changes neither.
 */
import { normalCdf, normalQuantile } from "./normal.ts";

export type TPpiSample = {
  /** The measure with human labels on the n completely labelled questions. */
  human: readonly number[];
  /** The measure with the judge's labels on the same questions, in the same order. */
  judgeLabelled: readonly number[];
  /** The measure with the judge's labels on the questions without complete human labels. */
  judgeUnlabelled: readonly number[];
};

export type TEstimate = { estimate: number; se: number; low: number; high: number };
export type TPpiWarning = "no_labelled" | "too_few_labelled" | "few_labelled" | "judge_adds_nothing" | "all_labelled";

export type TPpiResult = {
  n: number;
  /** N: questions with judge values only. */
  unlabelled: number;
  level: number;
  /** The power-tuning parameter used (null when there is no estimate). */
  lambda: number | null;
  /** judge + human (PPI++); null when n < 2. */
  ppi: TEstimate | null;
  /** Estimate only, when n = 1. */
  pointOnly: number | null;
  /** Two-sided p-value of H₀: mean = `nullValue` (PPI++), null without an interval. */
  p: number | null;
  /** Human labels only (λ = 0) on the n labelled questions. */
  human: TEstimate | null;
  /** Judge labels only, on all n + N questions (biased when the judge is). */
  judge: TEstimate | null;
  warnings: TPpiWarning[];
};

/** Below this λ the judge is reported as adding (almost) nothing. */
export const LAMBDA_NEAR_ZERO = 0.1;
/** Below this many labelled questions the interval rests on a thin sample (normal approximation). */
export const FEW_LABELLED = 10;

function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return s / xs.length;
}

/** Population variance (divisor n), as numpy's std(0) that ppi-python uses. */
function variance0(xs: ArrayLike<number>): number {
  const m = mean(xs);
  let ss = 0;
  for (let i = 0; i < xs.length; i++) ss += (xs[i] - m) ** 2;
  return ss / xs.length;
}

/** Mean and population variance of the judge's values on all n + N questions (no copy). */
function judgeOnly(yh: readonly number[], yu: readonly number[], z: number, range?: TRange): TEstimate {
  const total = yh.length + yu.length;
  let s = 0;
  for (const v of yh) s += v;
  for (const v of yu) s += v;
  const m = s / total;
  let ss = 0;
  for (const v of yh) ss += (v - m) ** 2;
  for (const v of yu) ss += (v - m) ** 2;
  return interval(m, Math.sqrt(ss / total / total), z, range);
}

/** A measure's possible values, [low, high] (see the file comment); undefined: unbounded. */
export type TRange = readonly [number, number];

function interval(estimate: number, se: number, z: number, range?: TRange): TEstimate {
  const clip = (v: number) => (range ? Math.min(range[1], Math.max(range[0], v)) : v);
  return { estimate: clip(estimate), se, low: clip(estimate - z * se), high: clip(estimate + z * se) };
}

/** PPI++'s λ̂ (formula above), clipped to [0, 1]; 0 when undefined. */
export function ppiLambda(sample: TPpiSample): number {
  const { human: y, judgeLabelled: yh, judgeUnlabelled: yu } = sample;
  const n = y.length;
  const N = yu.length;
  if (n < 2 || N === 0) return 0;
  const my = mean(y);
  const mh = mean(yh);
  let cov = 0;
  for (let i = 0; i < n; i++) cov += (y[i] - my) * (yh[i] - mh);
  cov /= n;
  let all = 0;
  for (let i = 0; i < n; i++) all += yh[i];
  for (let j = 0; j < N; j++) all += yu[j];
  all /= n + N;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += (yh[i] - all) ** 2;
  for (let j = 0; j < N; j++) ss += (yu[j] - all) ** 2;
  const varAll = ss / (n + N - 1);
  const lambda = cov / ((1 + n / N) * varAll);
  if (!Number.isFinite(lambda)) return 0;
  return Math.min(1, Math.max(0, lambda));
}

/** The PPI++ estimate, interval and p-value of a mean (see the file comment). */
export function ppiMean(
  sample: TPpiSample,
  opts: { level?: number; lambda?: number; nullValue?: number; range?: TRange } = {},
): TPpiResult {
  const { human: y, judgeLabelled: yh, judgeUnlabelled: yu } = sample;
  if (y.length !== yh.length)
    throw new RangeError(`ppiMean: ${y.length} human values but ${yh.length} judge values on the labelled questions`);
  const level = opts.level ?? 0.95;
  const z = normalQuantile(1 - (1 - level) / 2);
  const n = y.length;
  const N = yu.length;
  const warnings: TPpiWarning[] = [];
  const range = opts.range;
  const judge = n + N ? judgeOnly(yh, yu, z, range) : null;
  const base = { n, unlabelled: N, level, judge };
  if (n === 0)
    return { ...base, lambda: null, ppi: null, pointOnly: null, p: null, human: null, warnings: ["no_labelled"] };
  if (n === 1)
    return { ...base, lambda: 0, ppi: null, pointOnly: y[0], p: null, human: null, warnings: ["too_few_labelled"] };
  if (n < FEW_LABELLED) warnings.push("few_labelled");
  if (N === 0) warnings.push("all_labelled");
  const lambda = opts.lambda ?? ppiLambda(sample);
  if (N > 0 && lambda < LAMBDA_NEAR_ZERO) warnings.push("judge_adds_nothing");
  const rectifier = new Float64Array(n);
  for (let i = 0; i < n; i++) rectifier[i] = y[i] - lambda * yh[i];
  const imputed = N > 0 ? lambda * mean(yu) : 0;
  const estimate = imputed + mean(rectifier);
  const se = Math.sqrt((N > 0 ? (lambda * lambda * variance0(yu)) / N : 0) + variance0(rectifier) / n);
  const zObs = Math.abs(estimate - (opts.nullValue ?? 0)) / Math.max(se, 1e-16);
  return {
    ...base,
    lambda,
    ppi: interval(estimate, se, z, range),
    pointOnly: null,
    p: zObs === 0 ? 1 : Math.min(1, 2 * normalCdf(-zObs)),
    human: interval(mean(y), Math.sqrt(variance0(y) / n), z, range),
    warnings,
  };
}

/** Per-question differences system − baseline of two samples over the same questions. */
export function differenceSample(system: TPpiSample, baseline: TPpiSample): TPpiSample {
  const diff = (a: readonly number[], b: readonly number[], what: string) => {
    if (a.length !== b.length)
      throw new RangeError(
        `ppi paired difference: ${what}: ${a.length} vs ${b.length} questions (pair them by question first)`,
      );
    return a.map((v, i) => v - b[i]);
  };
  return {
    human: diff(system.human, baseline.human, "human"),
    judgeLabelled: diff(system.judgeLabelled, baseline.judgeLabelled, "judge (labelled)"),
    judgeUnlabelled: diff(system.judgeUnlabelled, baseline.judgeUnlabelled, "judge (unlabelled)"),
  };
}

/**
 * PPI++ for the mean paired difference system − baseline, with its p-value against 0; `range` is
 * the measure's (a difference lies in [low − high, high − low]).
 */
export function ppiPairedDifference(
  system: TPpiSample,
  baseline: TPpiSample,
  opts: { level?: number; range?: TRange } = {},
): TPpiResult {
  const r = opts.range;
  return ppiMean(differenceSample(system, baseline), {
    level: opts.level,
    nullValue: 0,
    range: r ? [r[0] - r[1], r[1] - r[0]] : undefined,
  });
}

/**
 * How much narrower the PPI interval is than the human-only one (0.38 = 38% narrower), from the
 * unclipped widths (the ratio of standard errors); null when either is missing.
 */
export function narrowerBy(r: Pick<TPpiResult, "ppi" | "human">): number | null {
  if (!r.ppi || !r.human || !(r.human.se > 0)) return null;
  return 1 - r.ppi.se / r.human.se;
}
