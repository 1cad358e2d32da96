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
 * The answers in compressed form: item i's entries are start[i] … start[i + 1] − 1, each an
 * annotator, a class and how many times that annotator gave it (entries of an item in annotator,
 * then class order: the dense loops' order, so products and sums are taken in the same order).
 * `weight[i]` is how many times item i counts (1 each by default; a question bootstrap gives a
 * resampled question's items its multiplicity and the others 0, which is the same fit as the
 * resample written out item by item, at the cost of the distinct items only).
 */
export type TSparseAnswers = {
  items: number;
  annotators: number;
  start: Int32Array;
  annotator: Int32Array;
  cls: Int32Array;
  count: Float64Array;
};

/** The dense `counts[i][a][l]` as compressed answers. */
export function sparseAnswers(counts: readonly (readonly (readonly number[])[])[], classes: number): TSparseAnswers {
  const n = counts.length;
  const A = n ? counts[0].length : 0;
  const start = new Int32Array(n + 1);
  const annotator: number[] = [];
  const cls: number[] = [];
  const count: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < A; a++)
      for (let l = 0; l < classes; l++)
        if (counts[i][a][l] !== 0) {
          annotator.push(a);
          cls.push(l);
          count.push(counts[i][a][l]);
        }
    start[i + 1] = annotator.length;
  }
  return {
    items: n,
    annotators: A,
    start,
    annotator: Int32Array.from(annotator),
    cls: Int32Array.from(cls),
    count: Float64Array.from(count),
  };
}

/**
 * `counts[i][a]` is annotator a's answers on item i as counts per class (length K; all zero when a
 * did not label i). Every item needs at least one answer.
 */
export function dawidSkene(
  counts: readonly (readonly (readonly number[])[])[],
  classes: number,
  opts: { tol?: number; maxIter?: number; initial?: Float64Array } = {},
): TDawidSkeneFit {
  return dawidSkeneSparse(sparseAnswers(counts, classes), classes, opts);
}

/**
 * The same EM on compressed answers, optionally weighted per item (items of weight 0 take no part
 * and keep their initial posteriors). Each iteration costs O(answers × K) instead of
 * O(items × annotators × K²): what makes a project of 50 annotators and 100,000 grades fit in
 * well under a second.
 */
export function dawidSkeneSparse(
  data: TSparseAnswers,
  classes: number,
  opts: {
    tol?: number;
    maxIter?: number;
    initial?: Float64Array;
    weight?: Float64Array;
  } = {},
): TDawidSkeneFit {
  const tol = opts.tol ?? 1e-5;
  const maxIter = opts.maxIter ?? 100;
  const K = classes;
  const { items: n, annotators: A, start, count, cls } = data;
  const weight = opts.weight;
  // Initialise (eq. 3.1): each item's answers per class over its number of answers; or the
  // posteriors given (a warm start, e.g. a bootstrap resample from the full fit's posteriors).
  let T: Float64Array = opts.initial ? Float64Array.from(opts.initial) : new Float64Array(n * K);
  for (let i = 0; i < n && !opts.initial; i++) {
    let total = 0;
    for (let e = start[i]; e < start[i + 1]; e++) total += count[e];
    if (total === 0) throw new Error(`dawidSkene: item ${i} has no answers`);
    for (let e = start[i]; e < start[i + 1]; e++) T[i * K + cls[e]] += count[e] / total;
  }
  let marginals: Float64Array = new Float64Array(K);
  let errorRates: Float64Array[] = [];
  let previous: { marginals: Float64Array; errorRates: Float64Array[] } | null = null;
  let iterations = 0;
  for (;;) {
    iterations++;
    ({ marginals, errorRates } = mStep(data, T, K, weight));
    T = eStep(data, T, marginals, errorRates, K, weight);
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
    logLikelihood: logLikelihood(data, marginals, errorRates, K, weight),
  };
}

function mStep(
  data: TSparseAnswers,
  T: Float64Array,
  K: number,
  weight: Float64Array | undefined,
): { marginals: Float64Array; errorRates: Float64Array[] } {
  const { items: n, annotators: A, start, annotator, cls, count } = data;
  const marginals = new Float64Array(K);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = weight ? weight[i] : 1;
    if (w === 0) continue;
    total += w;
    for (let j = 0; j < K; j++) marginals[j] += w === 1 ? T[i * K + j] : w * T[i * K + j];
  }
  for (let j = 0; j < K; j++) marginals[j] /= total;
  const errorRates: Float64Array[] = Array.from({ length: A }, () => new Float64Array(K * K));
  for (let i = 0; i < n; i++) {
    const w = weight ? weight[i] : 1;
    if (w === 0) continue;
    for (let e = start[i]; e < start[i + 1]; e++) {
      const m = errorRates[annotator[e]];
      const l = cls[e];
      const c = w === 1 ? count[e] : w * count[e];
      for (let j = 0; j < K; j++) m[j * K + l] += T[i * K + j] * c;
    }
  }
  for (const m of errorRates)
    for (let j = 0; j < K; j++) {
      let s = 0;
      for (let l = 0; l < K; l++) s += m[j * K + l];
      if (s > 0) for (let l = 0; l < K; l++) m[j * K + l] /= s;
    }
  return { marginals, errorRates };
}

/** p_j · Π_a Π_l π_a[j][l]^n_ial over item i's answers (0^0 = 1: an answer not given does not count). */
function classLikelihood(
  data: TSparseAnswers,
  i: number,
  marginals: Float64Array,
  errorRates: Float64Array[],
  j: number,
  K: number,
): number {
  const { start, annotator, cls, count } = data;
  let v = marginals[j];
  for (let e = start[i]; e < start[i + 1]; e++) {
    const p = errorRates[annotator[e]][j * K + cls[e]];
    v *= count[e] === 1 ? p : Math.pow(p, count[e]);
  }
  return v;
}

function eStep(
  data: TSparseAnswers,
  previous: Float64Array,
  marginals: Float64Array,
  errorRates: Float64Array[],
  K: number,
  weight: Float64Array | undefined,
): Float64Array {
  const n = data.items;
  const T = new Float64Array(n * K);
  for (let i = 0; i < n; i++) {
    if (weight && weight[i] === 0) {
      for (let j = 0; j < K; j++) T[i * K + j] = previous[i * K + j];
      continue;
    }
    let s = 0;
    for (let j = 0; j < K; j++) s += T[i * K + j] = classLikelihood(data, i, marginals, errorRates, j, K);
    if (s > 0) for (let j = 0; j < K; j++) T[i * K + j] /= s;
  }
  return T;
}

/** Eq. 2.7: Σ_i w_i log Σ_j p_j Π_a Π_l π_a[j][l]^n_ial. */
function logLikelihood(
  data: TSparseAnswers,
  marginals: Float64Array,
  errorRates: Float64Array[],
  K: number,
  weight: Float64Array | undefined,
): number {
  let L = 0;
  for (let i = 0; i < data.items; i++) {
    const w = weight ? weight[i] : 1;
    if (w === 0) continue;
    let p = 0;
    for (let j = 0; j < K; j++) p += classLikelihood(data, i, marginals, errorRates, j, K);
    L += w === 1 ? Math.log(p) : w * Math.log(p);
  }
  return L;
}
