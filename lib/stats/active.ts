/**
 * Active statistical inference of a mean: the estimator, the sampling design and the stopping
 * rule behind a decision ("is system A better than B on nDCG@10?") settled with few human labels.
 *
 * Source: Zrnic & Candès, "Active Statistical Inference", ICML 2024 (arXiv:2403.03208); the
 * authors' code, github.com/tijana-zrnic/active-inference at commit
 * 0f99f7ee6055b6f86c0ce88ece3cb2bf3c9c19cd (pew79-post-election-research.ipynb, the "active"
 * estimator, and its sequential notebook for the mixing with the uniform rule). The unit here is
 * a question (a per-question measure needs every pooled pair of the question labelled).
 *
 * For each of the N questions i the cheap sources give a prediction f_i (the measure, or the
 * paired difference of two systems' measures, computed with judge / transfer labels, human labels
 * where there are some); question i is sent to people with probability π_i > 0, ξ_i = 1 when it
 * was (and its human value Y_i is known). Then
 *
 *   t_i = f_i + (Y_i − f_i) · ξ_i / π_i            (Y_i − f_i is only needed where ξ_i = 1)
 *   θ̂  = mean(t)                                    (unbiased for E[Y] whatever f and π are)
 *   se  = std(t) / √N   (std with divisor N)        (the notebook's pointest_active_std)
 *   interval: θ̂ ± z_{1−α/2} · se
 *
 * With π ≡ 1 (every question labelled) t_i = Y_i: the classical interval on human values alone.
 * The variance is smallest when π_i grows with |Y_i − f_i|: label where the cheap sources are
 * unsure. The design (the notebook's `probs`):
 *
 *   π_i = clip((1 − τ) · η · u_i + τ · b, 0, 1),   b = budget / N,   η = b / mean(u)
 *
 * where u_i ≥ 0 is the expected error of f_i (see `differenceUncertainty`) and τ ∈ (0, 1] mixes in
 * the uniform rule, so that every question keeps π_i ≥ τ·b > 0 and a wrong u cannot make the
 * estimate unbiased-but-wild. τ = 1 is uniform sampling (plain PPI with λ = 1).
 *
 * Power tuning (PPI++: Angelopoulos, Duchi & Zrnic 2023, arXiv:2311.01453; github.com/
 * aangelopoulos/ppi_py at commit bd90caada03a1a3473eea62c53e39123371dedb8, ppi_py/ppi.py
 * `ppi_mean_pointestimate` / `ppi_mean_ci` with lam=None and `_calc_lam_glm(..., clip=True)`; the
 * active-inference notebooks pass the same λ as `lhat`, alphafold-ptm.ipynb `odds_ratio_ci`) puts the
 * prediction in with a weight λ:
 *
 *   t_i(λ) = λ f_i + (Y_i − λ f_i) · ξ_i / π_i  =  a_i + λ b_i,
 *   a_i = Y_i ξ_i / π_i,   b_i = f_i (1 − ξ_i / π_i)
 *
 * mean(t(λ)) is unbiased for every fixed λ (E[ξ_i / π_i] = 1, so E[b_i] = 0). λ = 1 is the estimator
 * above; λ = 0 is the inverse-probability-weighted (Horvitz–Thompson) mean of the human values alone.
 * The reported variance is se²(λ) = (1/N²) Σ (t_i − t̄)² = (S_aa + 2λ S_ab + λ² S_bb) / N², with
 * S_xy = Σ (x_i − x̄)(y_i − ȳ); setting d se²/dλ = 0 gives
 *
 *   λ̂ = −S_ab / S_bb,   clipped to [0, 1] (ppi_py's `clip`; λ = 1 when S_bb = 0),
 *
 * the empirical form of λ* = −Cov(a, b) / Var(b) = E[Y f (1/π − 1)] / E[f² (1/π − 1)] (with
 * E[ξ/π] = 1 and E[ξ/π²] = 1/π): the judge's covariance with the human value over its second
 * moment, each question weighted by 1/π − 1. A judge that tracks people gives λ̂ near 1; one that
 * does not gives λ̂ near 0, i.e. people's labels alone with their weights, so the judge can no
 * longer make the interval wider than labelling alone would. λ̂ is fitted on the same data, which
 * adds a bias of order 1/n (PPI++ §2 shows the interval stays asymptotically valid); the
 * simulation's coverage test (tests/unit/decisions/simulation.test.ts) checks it at this size.
 * With uniform π = n/N the point estimate for a given λ equals ppi_py's
 * `ppi_mean_pointestimate(Y, Yhat, Yhat_unlabeled = f of all N questions, lam = λ)`; ppi_py's λ̂
 * differs, because it takes the unlabelled predictions as an independent second sample
 * (λ̂ = Cov(Y, f) / ((1 + n/N) Var(f)), centred moments) while here the N questions hold the n
 * labelled ones and the sampling is Poisson (uncentred moments with the 1/π − 1 weights).
 *
 * Exactly `budget` questions are drawn with these inclusion probabilities by systematic
 * probability-proportional-to-size sampling in a random order (Madow 1949; Särndal, Swensson &
 * Wretman, "Model Assisted Survey Sampling", 1992, §3.6): each question is drawn with probability
 * exactly π_i; the variance estimate above treats the draws as independent (Poisson sampling),
 * which randomised systematic sampling approximates.
 *
 * A question drawn in an earlier batch keeps its draw; one not drawn can be drawn in a later batch
 * with a new probability p. Its overall inclusion probability after batches with probabilities
 * p_1 … p_k is 1 − Π(1 − p_j) (`combinedInclusion`), which is what the estimator divides by.
 *
 * Repeated looks: the lead looks after every batch; the error is spent over the looks by a spending
 * function of the looks' information fractions (lib/stats/sequential.ts, applied by
 * lib/decisions/looks.ts), and a look's interval is θ̂ ± z_k · se with that look's boundary z_k (a
 * repeated confidence interval, Jennison & Turnbull 2000 ch. 9): `activeMean(units, { z })`.
 */
import { normalCdf, normalQuantile } from "./normal.ts";
import { studentTQuantile } from "./student-t.ts";
import type { Rng } from "./random.ts";

export type TActiveUnit = {
  /** f_i: the value from the cheap sources. */
  prediction: number;
  /** Y_i when people labelled the question (ξ_i = 1), else null. */
  human: number | null;
  /** π_i: the probability with which the question was sent to people, in (0, 1]. */
  probability: number;
};

export type TActiveEstimate = {
  estimate: number;
  se: number;
  low: number;
  high: number;
  level: number;
  /** The interval's half-width in se: z_{1−α/2} of the level, or the look's boundary (with `student`, its `studentMultiplier`). */
  z: number;
  /** N: questions in the population. */
  questions: number;
  /** Questions with a human value. */
  labelled: number;
  /** λ: the weight of the predictions (1 unless power-tuned; file comment). */
  lambda: number;
};

/** λ fixed, or "tuned": λ̂ minimising the reported variance, clipped to [0, 1] (file comment). */
export type TLambda = number | "tuned";

function checkProbability(p: number, where: string): void {
  if (!(p > 0 && p <= 1)) throw new RangeError(`${where}: an inclusion probability must be in (0, 1], got ${p}`);
}

/** The terms t_i(λ) = λ f_i + (Y_i − λ f_i) · ξ_i / π_i of the estimator (file comment). */
export function activeTerms(units: readonly TActiveUnit[], lambda = 1): Float64Array {
  const t = new Float64Array(units.length);
  units.forEach((u, i) => {
    checkProbability(u.probability, `unit ${i}`);
    const f = lambda * u.prediction;
    t[i] = u.human === null ? f : f + (u.human - f) / u.probability;
  });
  return t;
}

/**
 * λ̂ = −S_ab / S_bb clipped to [0, 1], with a_i = Y_i ξ_i / π_i and b_i = f_i (1 − ξ_i / π_i): the
 * λ minimising the reported variance of mean(t(λ)) (file comment); 1 when S_bb = 0 (λ changes
 * nothing then but the mean's constant shift, which is 0 in expectation).
 */
export function tunedLambda(units: readonly TActiveUnit[]): number {
  const n = units.length;
  if (n === 0) return 1;
  const a = new Float64Array(n);
  const b = new Float64Array(n);
  let ma = 0;
  let mb = 0;
  units.forEach((u, i) => {
    checkProbability(u.probability, `unit ${i}`);
    const w = u.human === null ? 0 : 1 / u.probability;
    a[i] = u.human === null ? 0 : u.human * w;
    b[i] = u.prediction * (1 - w);
    ma += a[i] / n;
    mb += b[i] / n;
  });
  let sab = 0;
  let sbb = 0;
  for (let i = 0; i < n; i++) {
    sab += (a[i] - ma) * (b[i] - mb);
    sbb += (b[i] - mb) ** 2;
  }
  if (!(sbb > 1e-300)) return 1;
  return Math.min(1, Math.max(0, -sab / sbb));
}

/**
 * The active estimate of the mean with its normal interval (file comment); null without units.
 * `lambda`: the predictions' weight, 1 by default (Zrnic & Candès's estimator), or "tuned" (PPI++).
 * `z`: the interval's half-width in se (a look's boundary; ∞: nothing spent yet, the whole line)
 * instead of the level's z_{1−α/2}.
 */
export function activeMean(
  units: readonly TActiveUnit[],
  opts: { level?: number; lambda?: TLambda; z?: number; student?: boolean } = {},
): TActiveEstimate | null {
  if (opts.z !== undefined && !(opts.z > 0)) throw new RangeError(`z must be > 0, got ${opts.z}`);
  const level = opts.z !== undefined ? 1 - 2 * normalCdf(-opts.z) : (opts.level ?? 0.95);
  const n = units.length;
  if (n === 0) return null;
  const lambda = opts.lambda === "tuned" ? tunedLambda(units) : (opts.lambda ?? 1);
  if (!Number.isFinite(lambda)) throw new RangeError(`lambda must be a finite number, got ${lambda}`);
  const t = activeTerms(units, lambda);
  let s = 0;
  for (const v of t) s += v;
  const m = s / n;
  let ss = 0;
  for (const v of t) ss += (v - m) ** 2;
  const se = Math.sqrt(ss / n) / Math.sqrt(n);
  const normal = opts.z ?? normalQuantile(1 - (1 - level) / 2);
  const z = opts.student ? studentMultiplier(normal, n) : normal;
  let labelled = 0;
  for (const u of units) if (u.human !== null) labelled++;
  const half = z === Infinity ? Infinity : z * se;
  return { estimate: m, se, low: m - half, high: m + half, level, z, questions: n, labelled, lambda };
}

/**
 * The small-sample half-width of an interval over n questions (`activeMean` with `student`): the
 * Student-t quantile with n − 1 degrees of freedom at the normal quantile z's own one-sided level,
 * times √(n / (n − 1)) because the estimator's se has divisor n (as in the reference code). With
 * every question labelled (π ≡ 1) the interval is then exactly the paired t-test's, mean ± t_{n−1} ·
 * s / √n with s of divisor n − 1 (Student 1908): the test IR evaluations run over topics (Smucker,
 * Allan & Carterette, CIKM 2007). For a look's boundary z the same conversion at z's nominal
 * significance level is the usual one for t statistics in group-sequential designs (Pocock,
 * Biometrika 1977; Jennison & Turnbull 2000, ch. 3). z unchanged when infinite or n < 2.
 * Example (derived by hand, tests/unit/stats/active.test.ts): z = 1.959964, n = 50 gives
 * t_{49, 0.975} · √(50/49) = 2.009575 · 1.010153 = 2.029978.
 */
export function studentMultiplier(z: number, n: number): number {
  if (!Number.isFinite(z) || n < 2) return z;
  return -studentTQuantile(normalCdf(-z), n - 1) * Math.sqrt(n / (n - 1));
}

/**
 * π_i = clip((1 − τ) · η · u_i + τ · b, 0, 1) with b = budget / N and η = b / mean(u) (file
 * comment). When every u_i is 0 (nothing to tell the questions apart) the rule is uniform.
 */
export function inclusionProbabilities(
  uncertainty: readonly number[],
  budget: number,
  opts: { tau?: number } = {},
): number[] {
  const tau = opts.tau ?? 0.5;
  if (!(tau > 0 && tau <= 1)) throw new RangeError(`tau must be in (0, 1], got ${tau}`);
  const n = uncertainty.length;
  if (n === 0) return [];
  if (!(budget > 0)) throw new RangeError(`the budget must be positive, got ${budget}`);
  const b = Math.min(1, budget / n);
  let sum = 0;
  for (const u of uncertainty) {
    if (!(u >= 0) || !Number.isFinite(u)) throw new RangeError(`an uncertainty must be a finite number ≥ 0, got ${u}`);
    sum += u;
  }
  const meanU = sum / n;
  if (meanU === 0) return uncertainty.map(() => b);
  const eta = b / meanU;
  return uncertainty.map((u) => Math.min(1, Math.max(0, (1 - tau) * eta * u + tau * b)));
}

/**
 * Systematic PPS sampling in a random order: indices drawn, each i with probability exactly π_i
 * (every π_i in (0, 1]); the count is ⌊Σπ⌋ or ⌈Σπ⌉ (exactly Σπ when it is a whole number).
 */
export function systematicSample(probabilities: readonly number[], rng: Rng): number[] {
  const order = probabilities.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const start = rng.next();
  const drawn: number[] = [];
  let cumulative = 0;
  let next = start;
  for (const i of order) {
    const p = probabilities[i];
    if (!(p >= 0 && p <= 1)) throw new RangeError(`unit ${i}: an inclusion probability must be in [0, 1], got ${p}`);
    cumulative += p;
    // A point start + k (k = 0, 1, …) falling in [cumulative − p, cumulative) draws i; p ≤ 1 means at most one does.
    if (next < cumulative) {
      drawn.push(i);
      next += 1;
    }
  }
  return drawn.sort((a, b) => a - b);
}

/** Overall inclusion probability of a question offered in several batches with probabilities p_1 … p_k: 1 − Π(1 − p_j). */
export function combinedInclusion(batchProbabilities: readonly number[]): number {
  let miss = 1;
  for (const p of batchProbabilities) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`a batch probability must be in [0, 1], got ${p}`);
    miss *= 1 - p;
  }
  return 1 - miss;
}

/**
 * The expected error of a question's predicted paired difference: √(Σ_j d_j² · v_j) over its
 * pooled pairs j, with d_j the difference of the pair's weight in the two systems' measures (0
 * when both rank it alike: it cannot move the difference) and v_j the variance of the human grade
 * (as a gain) given what the cheap sources say about the pair (from the judge's calibration, or
 * its samples' spread). The pairs' errors are taken as independent.
 */
export function differenceUncertainty(pairs: readonly { weightDifference: number; variance: number }[]): number {
  let s = 0;
  for (const p of pairs) s += p.weightDifference * p.weightDifference * Math.max(0, p.variance);
  return Math.sqrt(s);
}

export type TVerdict = "better" | "worse" | "equivalent" | "open";

/**
 * What an interval of a difference A − B settles: "better" (above 0, and above +margin when a
 * margin is given), "worse" (below 0, or −margin), "equivalent" (inside ±margin; only with a
 * margin), else "open".
 */
export function verdict(interval: { low: number; high: number }, margin = 0): TVerdict {
  if (!(margin >= 0)) throw new RangeError(`margin must be ≥ 0, got ${margin}`);
  if (interval.low > margin) return "better";
  if (interval.high < -margin) return "worse";
  if (margin > 0 && interval.low >= -margin && interval.high <= margin) return "equivalent";
  return "open";
}

/**
 * Human labels (questions) still needed to settle, projected from the current estimate: the
 * interval's half-width z·se is taken to shrink as se² = A + R·n/m when m questions are labelled
 * instead of n, where A = var(f)/N is what labels cannot remove (the spread of the questions
 * themselves, var(Y)/N, for which var(f) stands; it does not depend on the predictions' weight λ:
 * with every question labelled t_i = Y_i whatever λ) and R = se² − A the part the labels carry
 * (smaller with a power-tuned se). It must fall below the distance from the
 * estimate to the nearest boundary that would settle it (0 or ±margin). Returns 0 when settled,
 * null when labels alone cannot settle it (the estimate sits on a boundary, or A alone is too
 * wide: more questions are needed, not more labels on these), else the projected extra questions
 * (at least 1, capped at the unlabelled ones).
 */
export function labelsToSettle(
  est: { estimate: number; se: number; level: number; z?: number; questions: number; labelled: number },
  predictionVariance: number,
  margin = 0,
): number | null {
  const z = est.z ?? normalQuantile(1 - (1 - est.level) / 2);
  if (!Number.isFinite(z)) return null;
  if (verdict({ low: est.estimate - z * est.se, high: est.estimate + z * est.se }, margin) !== "open") return 0;
  const distance = Math.max(Math.abs(est.estimate) - margin, margin > 0 ? margin - Math.abs(est.estimate) : 0);
  if (!(distance > 0)) return null;
  const target = (distance / z) ** 2;
  const floor = Math.max(0, predictionVariance) / est.questions;
  const carried = Math.max(0, est.se * est.se - floor);
  if (target <= floor) return null;
  const n = Math.max(1, est.labelled);
  const needed = Math.ceil((carried * n) / (target - floor));
  const left = est.questions - est.labelled;
  return Math.min(left, Math.max(1, needed - est.labelled));
}
