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
 * annotators per item the matrices are weakly identified (the maximum can be a ridge; the tests
 * show one), which the intervals' widths show (lib/stats/annotators-model.ts).
 */

export type TDawidSkeneFit = {
  /** p_j, the estimated share of items in class j. */
  marginals: Float64Array;
  /** π_a[j][l] for annotator a, flattened: errorRates[a][j * K + l]. */
  errorRates: Float64Array[];
  /** T_ij, each item's posterior over classes, flattened: posteriors[i * K + j]. */
  posteriors: Float64Array;
  /** EM steps taken (each an E-step and an M-step). */
  iterations: number;
  logLikelihood: number;
  /** Whether the parameters moved by less than the tolerance before the cap. */
  converged: boolean;
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
  opts: { tol?: number; maxIter?: number; initial?: Float64Array; accelerate?: boolean } = {},
): TDawidSkeneFit {
  return dawidSkeneSparse(sparseAnswers(counts, classes), classes, opts);
}

/**
 * The same EM on compressed answers, optionally weighted per item (items of weight 0 take no part
 * and keep their initial posteriors). Each iteration costs O(answers × K) instead of
 * O(items × annotators × K²): what makes a project of 50 annotators and 100,000 grades fit in
 * well under a second.
 *
 * `accelerate`: SQUAREM (Varadhan & Roland 2008, "Simple and globally convergent methods for
 * accelerating the convergence of any EM algorithm", Scand. J. Statist. 35(2), scheme S3, as the
 * R package SQUAREM's squarem1): from parameters θ0, two EM steps give θ1 = F(θ0), θ2 = F(θ1);
 * with r = θ1 − θ0, v = θ2 − θ1 − r and α = −‖r‖/‖v‖ (at most −1), the extrapolated point
 * θ0 − 2αr + α²v is taken through one more EM step (stabilisation). The step is halved towards α = −1
 * (which gives θ2, plain EM) while the point leaves [0, 1], and θ2 is kept when the point's likelihood
 * is below θ1's: the likelihood never decreases, and the fixed points are EM's. Plain EM crawls on
 * sparse designs (2 annotators an item: hundreds of iterations); SQUAREM reaches the same
 * tolerance in a fraction of the EM steps. `iterations` counts EM steps either way, and `maxIter`
 * caps them (plain EM: `maxIter` + 1, as the reference implementation).
 *
 * `prior` (default 0, maximum likelihood as the paper): a pseudo-count added to every cell of an
 * error-rate row that has mass, i.e. the posterior mode under a symmetric Dirichlet(1 + prior) on
 * each row (the smoothing of Bayesian Dawid–Skene, e.g. Passonneau & Carpenter 2014, TACL 2, §5).
 * It keeps an error never seen in a small sample from being estimated as impossible, which is what
 * puts entries on the boundary of the parameter space, where no variance can be taken.
 */
export function dawidSkeneSparse(
  data: TSparseAnswers,
  classes: number,
  opts: {
    tol?: number;
    maxIter?: number;
    initial?: Float64Array;
    weight?: Float64Array;
    accelerate?: boolean;
    /** Pseudo-count added to every error-rate cell of a row with mass (0: maximum likelihood). */
    prior?: number;
  } = {},
): TDawidSkeneFit {
  const tol = opts.tol ?? 1e-5;
  const maxIter = opts.maxIter ?? 100;
  const K = classes;
  const { items: n, annotators: A, start, count, cls } = data;
  const weight = opts.weight;
  const prior = opts.prior ?? 0;
  // Initialise (eq. 3.1): each item's answers per class over its number of answers; or the
  // posteriors given (a warm start, e.g. a bootstrap resample from the full fit's posteriors).
  const T: Float64Array = opts.initial ? Float64Array.from(opts.initial) : new Float64Array(n * K);
  for (let i = 0; i < n && !opts.initial; i++) {
    let total = 0;
    for (let e = start[i]; e < start[i + 1]; e++) total += count[e];
    if (total === 0) throw new Error(`dawidSkene: item ${i} has no answers`);
    for (let e = start[i]; e < start[i + 1]; e++) T[i * K + cls[e]] += count[e] / total;
  }
  const P = K + A * K * K;
  const step = (from: Float64Array, to: Float64Array): number => {
    const L = eStep(data, from, T, K, weight);
    mStep(data, T, to, K, weight, prior);
    return L;
  };
  let theta = new Float64Array(P);
  mStep(data, T, theta, K, weight, prior);
  let iterations = 1;
  let converged = false;
  if (!opts.accelerate) {
    let next = new Float64Array(P);
    for (;;) {
      iterations++;
      step(theta, next);
      const moved = change(theta, next, K);
      [theta, next] = [next, theta];
      if ((converged = moved < tol) || iterations > maxIter) break;
    }
  } else {
    const t1 = new Float64Array(P);
    const t2 = new Float64Array(P);
    const r = new Float64Array(P);
    const v = new Float64Array(P);
    const extrapolated = new Float64Array(P);
    let stabilised = new Float64Array(P);
    while (iterations <= maxIter) {
      step(theta, t1);
      iterations++;
      if ((converged = change(theta, t1, K) < tol)) {
        theta.set(t1);
        break;
      }
      const L1 = step(t1, t2);
      iterations++;
      if ((converged = change(t1, t2, K) < tol)) {
        theta.set(t2);
        break;
      }
      let rr = 0;
      let vv = 0;
      for (let x = 0; x < P; x++) {
        r[x] = t1[x] - theta[x];
        v[x] = t2[x] - t1[x] - r[x];
        rr += r[x] * r[x];
        vv += v[x] * v[x];
      }
      let alpha = -Math.sqrt(rr / vv);
      let inside = false;
      while (alpha < -1) {
        inside = true;
        for (let x = 0; x < P; x++) {
          const y = theta[x] - 2 * alpha * r[x] + alpha * alpha * v[x];
          if (!(y >= 0 && y <= 1)) {
            inside = false;
            break;
          }
          extrapolated[x] = y;
        }
        if (inside) break;
        alpha = (alpha - 1) / 2;
      }
      if (!inside) {
        theta.set(t2);
        continue;
      }
      const L = step(extrapolated, stabilised);
      iterations++;
      if (L >= L1) [theta, stabilised] = [stabilised, theta];
      else theta.set(t2);
    }
  }
  const logLikelihood = eStep(data, theta, T, K, weight);
  const marginals = theta.slice(0, K);
  const errorRates = Array.from({ length: A }, (_, a) => theta.slice(K + a * K * K, K + (a + 1) * K * K));
  return { marginals, errorRates, posteriors: T, iterations, logLikelihood, converged };
}

/** The stopping rule's movement: the marginals' and the error rates' total absolute change, the larger. */
function change(a: Float64Array, b: Float64Array, K: number): number {
  let dm = 0;
  for (let j = 0; j < K; j++) dm += Math.abs(b[j] - a[j]);
  let de = 0;
  for (let x = K; x < a.length; x++) de += Math.abs(b[x] - a[x]);
  return Math.max(dm, de);
}

/**
 * M-step (eq. 2.3, 2.4) into θ = [p_0 … p_{K−1}, π_0 (K × K, row-major), π_1, …]: p_j = mean_i T_ij
 * (weighted); π_a[j][l] ∝ Σ_i w_i T_ij n_ial (+ `prior` when the row has mass), rows normalised
 * (a row with no mass stays 0).
 */
function mStep(
  data: TSparseAnswers,
  T: Float64Array,
  theta: Float64Array,
  K: number,
  weight: Float64Array | undefined,
  prior: number,
) {
  const { items: n, start, count } = data;
  const off = offsets(data, K);
  theta.fill(0);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const w = weight ? weight[i] : 1;
    if (w === 0) continue;
    total += w;
    for (let j = 0; j < K; j++) theta[j] += w === 1 ? T[i * K + j] : w * T[i * K + j];
  }
  for (let j = 0; j < K; j++) theta[j] /= total;
  for (let i = 0; i < n; i++) {
    const w = weight ? weight[i] : 1;
    if (w === 0) continue;
    const t = i * K;
    for (let e = start[i]; e < start[i + 1]; e++) {
      const base = off[e];
      const c = w === 1 ? count[e] : w * count[e];
      for (let j = 0; j < K; j++) theta[base + j * K] += T[t + j] * c;
    }
  }
  for (let m = K; m < theta.length; m += K) {
    let s = 0;
    for (let l = 0; l < K; l++) s += theta[m + l];
    if (s > 0 && prior > 0) {
      for (let l = 0; l < K; l++) theta[m + l] += prior;
      s += K * prior;
    }
    if (s > 0) for (let l = 0; l < K; l++) theta[m + l] /= s;
  }
}

/** Each answer's place in θ of its annotator's row 0 and its class: K + a·K² + l (row j adds j·K). */
const offsetCache = new WeakMap<TSparseAnswers, Int32Array>();
function offsets(data: TSparseAnswers, K: number): Int32Array {
  let off = offsetCache.get(data);
  if (!off) {
    off = new Int32Array(data.annotator.length);
    for (let e = 0; e < off.length; e++) off[e] = K + data.annotator[e] * K * K + data.cls[e];
    offsetCache.set(data, off);
  }
  return off;
}

/**
 * E-step (eq. 2.5) at θ into T: T_ij ∝ p_j · Π_a Π_l π_a[j][l]^n_ial over item i's answers (0^0 = 1:
 * an answer not given does not count); items of weight 0 keep their posteriors. Returns the
 * log-likelihood at θ (eq. 2.7): Σ_i w_i log Σ_j p_j Π_a Π_l π_a[j][l]^n_ial.
 */
function eStep(
  data: TSparseAnswers,
  theta: Float64Array,
  T: Float64Array,
  K: number,
  weight: Float64Array | undefined,
): number {
  const { items: n, start, count } = data;
  const off = offsets(data, K);
  let L = 0;
  for (let i = 0; i < n; i++) {
    const w = weight ? weight[i] : 1;
    if (w === 0) continue;
    const t = i * K;
    const e0 = start[i];
    const e1 = start[i + 1];
    let s = 0;
    for (let j = 0; j < K; j++) {
      let v = theta[j];
      for (let e = e0; e < e1; e++) {
        const p = theta[off[e] + j * K];
        v *= count[e] === 1 ? p : Math.pow(p, count[e]);
      }
      T[t + j] = v;
      s += v;
    }
    if (s > 0) for (let j = 0; j < K; j++) T[t + j] /= s;
    L += w === 1 ? Math.log(s) : w * Math.log(s);
  }
  return L;
}
