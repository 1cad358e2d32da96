/**
 * Dawid & Skene (1979), "Maximum Likelihood Estimation of Observer Error-Rates Using the EM
 * Algorithm", JRSS C 28(1): each annotator a has a confusion (error-rate) matrix π_a[j][l] =
 * P(a answers l | true class j); items' true classes have marginals p_j; EM alternates
 *   M-step (eq. 2.3, 2.4): p_j = mean_i T_ij;  π_a[j][l] ∝ Σ_i T_ij · n_ial (rows normalised; a row
 *     with no mass stays 0),
 *   E-step (eq. 2.5): T_ij ∝ p_j · Π_a Π_l π_a[j][l]^n_ial,
 * starting from each item's share of answers per class (eq. 3.1), until the marginals and the
 * error rates each move by less than `tol` in total (sum of absolute changes), or after
 * `maxIter` + 1 iterations. This follows Dallas Card's implementation line by line
 * (github.com/dallascard/dawid_skene @ 9f49db7, dawid_skene.py: initialize, m_step, e_step, run),
 * and the tests compare with its output on the paper's Table 1.
 *
 * Why this model for grades: it needs no gold labels, allows each annotator their own bias in
 * every direction (a lenient annotator's row j puts mass on l > j), and gives every item a
 * posterior over grades (a "judge-like" source). Ordinal structure is not imposed; with 2
 * annotators per item the matrices are weakly identified, which the question bootstrap's
 * intervals show (lib/stats/annotators-model.ts).
 */

export type TDawidSkeneFit = {
  /** p_j, the estimated share of items in class j. */
  marginals: Float64Array;
  /** π_a[j][l] for annotator a, flattened: errorRates[a][j * K + l]. */
  errorRates: Float64Array[];
  /** T_ij, each item's posterior over classes, flattened: posteriors[i * K + j]. */
  posteriors: Float64Array;
  iterations: number;
  logLikelihood: number;
};

/**
 * `counts[i][a]` is annotator a's answers on item i as counts per class (length K; all zero when a
 * did not label i). Every item needs at least one answer.
 */
export function dawidSkene(
  counts: readonly (readonly (readonly number[])[])[],
  classes: number,
  opts: { tol?: number; maxIter?: number; initial?: Float64Array } = {},
): TDawidSkeneFit {
  const tol = opts.tol ?? 1e-5;
  const maxIter = opts.maxIter ?? 100;
  const K = classes;
  const n = counts.length;
  const A = n ? counts[0].length : 0;
  // Initialise (eq. 3.1): each item's answers per class over its number of answers; or the
  // posteriors given (a warm start, e.g. a bootstrap resample from the full fit's posteriors).
  let T: Float64Array = opts.initial ? Float64Array.from(opts.initial) : new Float64Array(n * K);
  for (let i = 0; i < n && !opts.initial; i++) {
    let total = 0;
    for (let a = 0; a < A; a++) for (let l = 0; l < K; l++) total += counts[i][a][l];
    if (total === 0) throw new Error(`dawidSkene: item ${i} has no answers`);
    for (let a = 0; a < A; a++) for (let l = 0; l < K; l++) T[i * K + l] += counts[i][a][l] / total;
  }
  let marginals: Float64Array = new Float64Array(K);
  let errorRates: Float64Array[] = [];
  let previous: { marginals: Float64Array; errorRates: Float64Array[] } | null = null;
  let iterations = 0;
  for (;;) {
    iterations++;
    ({ marginals, errorRates } = mStep(counts, T, K, A));
    T = eStep(counts, marginals, errorRates, K, A);
    if (previous) {
      let dm = 0;
      for (let j = 0; j < K; j++) dm += Math.abs(marginals[j] - previous.marginals[j]);
      let de = 0;
      for (let a = 0; a < A; a++)
        for (let x = 0; x < K * K; x++) de += Math.abs(errorRates[a][x] - previous.errorRates[a][x]);
      if ((dm < tol && de < tol) || iterations > maxIter) break;
    }
    previous = { marginals, errorRates };
  }
  return {
    marginals,
    errorRates,
    posteriors: T,
    iterations,
    logLikelihood: logLikelihood(counts, marginals, errorRates, K, A),
  };
}

function mStep(
  counts: readonly (readonly (readonly number[])[])[],
  T: Float64Array,
  K: number,
  A: number,
): { marginals: Float64Array; errorRates: Float64Array[] } {
  const n = counts.length;
  const marginals = new Float64Array(K);
  for (let i = 0; i < n; i++) for (let j = 0; j < K; j++) marginals[j] += T[i * K + j];
  for (let j = 0; j < K; j++) marginals[j] /= n;
  const errorRates: Float64Array[] = [];
  for (let a = 0; a < A; a++) {
    const e = new Float64Array(K * K);
    for (let i = 0; i < n; i++) {
      const c = counts[i][a];
      for (let l = 0; l < K; l++) {
        if (c[l] === 0) continue;
        for (let j = 0; j < K; j++) e[j * K + l] += T[i * K + j] * c[l];
      }
    }
    for (let j = 0; j < K; j++) {
      let s = 0;
      for (let l = 0; l < K; l++) s += e[j * K + l];
      if (s > 0) for (let l = 0; l < K; l++) e[j * K + l] /= s;
    }
    errorRates.push(e);
  }
  return { marginals, errorRates };
}

/** p_j · Π_a Π_l π_a[j][l]^n_ial (0^0 = 1: an annotator who gave no answer l does not count). */
function classLikelihood(
  c: readonly (readonly number[])[],
  marginals: Float64Array,
  errorRates: Float64Array[],
  j: number,
  K: number,
  A: number,
): number {
  let v = marginals[j];
  for (let a = 0; a < A; a++)
    for (let l = 0; l < K; l++) if (c[a][l] !== 0) v *= Math.pow(errorRates[a][j * K + l], c[a][l]);
  return v;
}

function eStep(
  counts: readonly (readonly (readonly number[])[])[],
  marginals: Float64Array,
  errorRates: Float64Array[],
  K: number,
  A: number,
): Float64Array {
  const n = counts.length;
  const T = new Float64Array(n * K);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < K; j++) s += T[i * K + j] = classLikelihood(counts[i], marginals, errorRates, j, K, A);
    if (s > 0) for (let j = 0; j < K; j++) T[i * K + j] /= s;
  }
  return T;
}

/** Eq. 2.7: Σ_i log Σ_j p_j Π_a Π_l π_a[j][l]^n_ial. */
function logLikelihood(
  counts: readonly (readonly (readonly number[])[])[],
  marginals: Float64Array,
  errorRates: Float64Array[],
  K: number,
  A: number,
): number {
  let L = 0;
  for (const c of counts) {
    let p = 0;
    for (let j = 0; j < K; j++) p += classLikelihood(c, marginals, errorRates, j, K, A);
    L += Math.log(p);
  }
  return L;
}
