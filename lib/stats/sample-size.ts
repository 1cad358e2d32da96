/**
 * How many queries a confidence interval of a mean needs to reach a target half-width:
 * n = ceil((z · sd / h)²), with z the normal quantile for the level and sd the per-query
 * standard deviation observed so far (sample sd, n − 1). A normal approximation: for small n the
 * t quantile is a little larger, so treat the answer as a lower bound below ~30 queries.
 */
import { normalCdf, normalQuantile } from "./normal.ts";
import { studentTQuantile } from "./student-t.ts";

export function sampleSd(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return NaN;
  let m = 0;
  for (const v of values) m += v;
  m /= n;
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return Math.sqrt(ss / (n - 1));
}

/**
 * Why an advice computed from an observed spread has no basis (it is then reported as "no basis",
 * never as a number):
 * - "too_few_questions": fewer than MIN_ADVICE_QUESTIONS values (an sd from two has one degree of
 *   freedom: its own 95% interval spans a factor of about 70);
 * - "no_spread": sd 0 (every question gave the same value or difference). The formulas would
 *   answer 1 or 2 questions, but the next question need not repeat the last ones: the spread is
 *   unknown, not zero.
 */
export type TNoBasis = "too_few_questions" | "no_spread";
export const MIN_ADVICE_QUESTIONS = 3;
export const NO_BASIS_TEXT: Record<TNoBasis, string> = {
  too_few_questions: `no basis: fewer than ${MIN_ADVICE_QUESTIONS} questions to estimate the spread`,
  no_spread: "no basis: the differences do not vary (sd 0), so their spread is unknown",
};

/** The sample sd of the values and whether an advice may rest on it (TNoBasis above). */
export function adviceSpread(values: readonly number[]): { sd: number; noBasis: TNoBasis | null } {
  const sd = sampleSd(values);
  if (values.length < MIN_ADVICE_QUESTIONS || !Number.isFinite(sd)) return { sd, noBasis: "too_few_questions" };
  // Differences of equal values can leave rounding noise (1e-17) instead of an exact 0.
  return { sd, noBasis: sd <= 1e-12 ? "no_spread" : null };
}

/** Queries for a 95% (level) interval of ±halfWidth; NaN without a basis (sd 0 or not finite, TNoBasis). */
export function queriesForHalfWidth(sd: number, halfWidth: number, level = 0.95): number {
  if (!(halfWidth > 0)) throw new RangeError(`half-width must be positive, got ${halfWidth}`);
  if (!Number.isFinite(sd) || sd <= 0) return NaN;
  const z = normalQuantile(1 - (1 - level) / 2);
  return Math.ceil(((z * sd) / halfWidth) ** 2);
}

/**
 * Topic-set-size design for a paired t-test (Sakai, "Topic set size design", Information
 * Retrieval Journal 19(3), 2016; "Statistical reform in information retrieval?", SIGIR Forum
 * 2014): the smallest number of questions n with which a two-sided paired t-test at level α
 * detects a true mean difference of `delta` with probability ≥ `power`, given the standard
 * deviation `sdDiff` of the per-question differences (observed on the questions labelled so far).
 *
 * Power uses the normal approximation of the noncentral t distribution that Sakai's tool uses
 * (after Nagata 2003), with φ = n − 1 degrees of freedom, w = t_{φ}(α) the two-sided critical
 * value and λ = √n · delta / sdDiff:
 *   1 − β ≈ Φ((λ − w(1 − 1/(4φ))) / √(1 + w²/(2φ))) + Φ((−w(1 − 1/(4φ)) − λ) / √(1 + w²/(2φ))).
 * The search starts at Sakai's closed form n₀ = ((z_{α/2} + z_β) / Δ)² + z²_{α/2} / 2 with
 * Δ = delta / sdDiff and moves to the smallest n that reaches the power. n ≥ 2. NaN when sdDiff
 * is 0 or not finite: no basis (TNoBasis), not "2 questions suffice".
 */
export function pairedTTestPower(n: number, delta: number, sdDiff: number, alpha = 0.05): number {
  const phi = n - 1;
  const w = studentTQuantile(1 - alpha / 2, phi);
  const lambda = (Math.sqrt(n) * Math.abs(delta)) / sdDiff;
  const shift = w * (1 - 1 / (4 * phi));
  const scale = Math.sqrt(1 + (w * w) / (2 * phi));
  return normalCdf((lambda - shift) / scale) + normalCdf((-shift - lambda) / scale);
}

export function queriesToDetect(sdDiff: number, delta: number, opts: { alpha?: number; power?: number } = {}): number {
  if (!(delta > 0)) throw new RangeError(`the difference to detect must be positive, got ${delta}`);
  if (!Number.isFinite(sdDiff) || sdDiff <= 0) return NaN;
  const alpha = opts.alpha ?? 0.05;
  const power = opts.power ?? 0.8;
  const effect = delta / sdDiff;
  const za = normalQuantile(1 - alpha / 2);
  const zb = normalQuantile(power);
  let n = Math.max(2, Math.ceil(((za + zb) / effect) ** 2 + (za * za) / 2));
  while (n > 2 && pairedTTestPower(n - 1, delta, sdDiff, alpha) >= power) n--;
  while (pairedTTestPower(n, delta, sdDiff, alpha) < power) n++;
  return n;
}
