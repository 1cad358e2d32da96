/**
 * Cluster-robust (sandwich) standard errors for smooth functions of a Dawid–Skene fit
 * (lib/stats/dawid-skene.ts), clustered by question: the asymptotic counterpart of the question
 * bootstrap with the model refitted on every resample, at the cost of one pass over the answers
 * and one Cholesky factorisation instead of hundreds of EM fits.
 *
 * Parameters θ = [p_0 … p_{K−1}, π_0 (K × K, row-major), π_1, …] as lib/stats/dawid-skene.ts lays
 * them out; each block (the marginals, one row π_a[j][·]) sums to 1. Entries at or below `eps` are on
 * the boundary and held fixed (an answer never given, an error never made); in each block the
 * largest entry is expressed by the others (θ_last = 1 − Σ others), so the free coordinates are the
 * block's other supported entries and a direction d in them moves θ by Z·d (+d_v on entry v, −d_v on
 * the block's last entry). Item i's observed log-likelihood is ℓ_i = log Σ_j f_ij with
 * f_ij = p_j Π_e π_{a_e}[j][l_e]^{c_e}; with T_ij = f_ij / Σ_j f_ij and g_ij = ∇ log f_ij
 * (1/p_j on p_j, c_e/π on each answer's entry of row j):
 *   score  s_i = Σ_j T_ij g_ij,
 *   Hessian ∇²ℓ_i = Σ_j T_ij (g_ij g_ijᵀ + D_ij) − s_i s_iᵀ, D_ij = diag(−1/p_j², −c_e/π²)
 * (the identity for the Hessian of a log of a sum; Louis 1982, JRSS B 44(2), eq. 3.1, written
 * out for this model), both taken to the free coordinates with Zᵀ. With J = −Σ_i w_i Zᵀ∇²ℓ_i Z (the
 * observed information) and S_q = Σ_{i in question q} w_i Zᵀ s_i, a function h(θ) has
 *   var h ≈ G/(G − 1) · Σ_q (S_qᵀ J⁻¹ Zᵀ∇h)²
 * (the cluster-robust sandwich J⁻¹ (Σ_q S_q S_qᵀ) J⁻¹ with the CR1 small-sample factor over G
 * questions: Liang & Zeger 1986, Biometrika 73(1); Cameron & Miller 2015, J. Human Resources
 * 50(2), §II.C and §VI). The fit must be a maximum: when J is not positive definite (not
 * converged, or a direction the data cannot tell apart), no variance is given. With `prior`, the
 * fit is the posterior mode under a Dirichlet prior on each error-rate row, and J adds the prior's
 * curvature; the questions' scores are the likelihood's (the prior is no question's), so the
 * variance is that of the penalised estimator, approximately (the prior's gradient is O(1) against
 * the data's O(n)).
 */
import type { TSparseAnswers } from "./dawid-skene.ts";

export type TClusterVariance =
  | { ok: true; clusters: number; free: number; variance: (gradient: Float64Array) => number }
  | { ok: false; reason: string };

/**
 * The cluster-robust variance of smooth functions of θ (`gradient` in θ's layout, length
 * K + A·K²). `data` holds answer patterns (distinct items; each item's pattern is `items.of[i]`,
 * `weight[p]` the number of items with pattern p, 1 each when absent); `items.cluster[i]` is item
 * i's question (0 … clusters − 1).
 */
export function clusterVariance(
  data: TSparseAnswers,
  theta: Float64Array,
  K: number,
  items: { of: Int32Array; cluster: Int32Array; clusters: number },
  opts: { weight?: Float64Array; eps?: number; prior?: number } = {},
): TClusterVariance {
  const { clusters } = items;
  const eps = opts.eps ?? 1e-4;
  const P = theta.length;
  const { items: n, start, annotator, cls, count } = data;
  const weight = opts.weight;
  // Free coordinates: per block, the supported entries but the largest.
  const free = new Int32Array(P).fill(-1);
  const lastOf = new Int32Array(P).fill(-1);
  const blockFree: number[][] = [];
  const blockOf = (u: number) => (u < K ? 0 : 1 + Math.floor((u - K) / K));
  let F = 0;
  for (let b = 0; b * K < P; b++) {
    const lo = b * K;
    let last = -1;
    for (let u = lo; u < lo + K; u++) if (theta[u] > eps && (last < 0 || theta[u] > theta[last])) last = u;
    const list: number[] = [];
    for (let u = lo; u < lo + K; u++) {
      if (last < 0) continue;
      lastOf[u] = last;
      if (u !== last && theta[u] > eps) {
        free[u] = F++;
        list.push(free[u]);
      }
    }
    blockFree.push(list);
  }
  if (F === 0) return { ok: false, reason: "no free parameters" };

  const J = new Float64Array(F * F);
  // Each pattern's score in free coordinates, sparse: entries scoreStart[p] … scoreStart[p + 1] − 1.
  const scoreStart = new Int32Array(n + 1);
  const scoreIdx: number[] = [];
  const scoreVal: number[] = [];
  // One item's vectors in free coordinates, sparse: index → value (indices few, so a short list).
  const idx: number[] = [];
  const val: number[] = [];
  const sIdx: number[] = [];
  const sVal = new Float64Array(F);
  const sSeen = new Uint8Array(F);
  const fij = new Float64Array(K);
  const KK = K * K;
  /** Adds a·(entry u's derivative value) taken through Zᵀ to the list (idx, val). */
  const push = (u: number, value: number) => {
    if (free[u] >= 0) {
      idx.push(free[u]);
      val.push(value);
    } else if (lastOf[u] === u) {
      for (const v of blockFree[blockOf(u)]) {
        idx.push(v);
        val.push(-value);
      }
    }
  };
  /** J += c · (Zᵀ e_u)(Zᵀ e_u)ᵀ · value: the curvature of one entry, taken to the free coordinates. */
  const curvature = (u: number, value: number) => {
    if (free[u] >= 0) J[free[u] * F + free[u]] += value;
    else if (lastOf[u] === u) {
      const list = blockFree[blockOf(u)];
      for (const v of list) for (const w of list) J[v * F + w] += value;
    }
  };
  for (let i = 0; i < n; i++) {
    const w = weight ? weight[i] : 1;
    scoreStart[i + 1] = scoreStart[i];
    if (w === 0) continue;
    let total = 0;
    for (let j = 0; j < K; j++) {
      let f = theta[j];
      for (let e = start[i]; e < start[i + 1]; e++)
        f *= Math.pow(theta[K + annotator[e] * KK + j * K + cls[e]], count[e]);
      fij[j] = f;
      total += f;
    }
    if (!(total > 0)) return { ok: false, reason: `item ${i} is impossible under the fit` };
    for (const v of sIdx) {
      sVal[v] = 0;
      sSeen[v] = 0;
    }
    sIdx.length = 0;
    for (let j = 0; j < K; j++) {
      const t = fij[j] / total;
      if (t === 0) continue;
      idx.length = 0;
      val.length = 0;
      push(j, 1 / theta[j]);
      curvature(j, (w * t) / (theta[j] * theta[j]));
      for (let e = start[i]; e < start[i + 1]; e++) {
        const u = K + annotator[e] * KK + j * K + cls[e];
        push(u, count[e] / theta[u]);
        curvature(u, (w * t * count[e]) / (theta[u] * theta[u]));
      }
      // −T_ij g g ᵀ (J is minus the Hessian), and s_i += T_ij g.
      for (let x = 0; x < idx.length; x++) {
        const gx = val[x] * t;
        for (let y = 0; y < idx.length; y++) J[idx[x] * F + idx[y]] -= w * gx * val[y];
        if (!sSeen[idx[x]]) {
          sSeen[idx[x]] = 1;
          sIdx.push(idx[x]);
        }
        sVal[idx[x]] += gx;
      }
    }
    // + s_i s_iᵀ; the pattern's score kept for the questions' sums.
    for (const x of sIdx) {
      for (const y of sIdx) J[x * F + y] += w * sVal[x] * sVal[y];
      scoreIdx.push(x);
      scoreVal.push(sVal[x]);
    }
    scoreStart[i + 1] = scoreIdx.length;
  }
  // A fit with a Dirichlet prior on the error-rate rows (lib/stats/dawid-skene.ts `prior`) is a
  // posterior mode: its curvature adds the log prior's, Σ prior·log π, whose Hessian is −prior/π² on
  // each entry (so J is the penalised observed information).
  const prior = opts.prior ?? 0;
  if (prior > 0)
    for (let u = K; u < P; u++) if (free[u] >= 0 || lastOf[u] === u) curvature(u, prior / (theta[u] * theta[u]));
  const S = new Float64Array(clusters * F);
  for (let i = 0; i < items.of.length; i++) {
    const p = items.of[i];
    const row = items.cluster[i] * F;
    for (let e = scoreStart[p]; e < scoreStart[p + 1]; e++) S[row + scoreIdx[e]] += scoreVal[e];
  }
  const L = cholesky(J, F);
  if (!L)
    return { ok: false, reason: "the information matrix is not positive definite (no maximum to take variances at)" };
  const G = clusters;
  const x = new Float64Array(F);
  return {
    ok: true,
    clusters: G,
    free: F,
    variance: (gradient: Float64Array) => {
      // Zᵀ∇h: on free entry v of a block, ∂h/∂θ_v − ∂h/∂θ_last.
      for (let u = 0; u < P; u++) if (free[u] >= 0) x[free[u]] = gradient[u] - gradient[lastOf[u]];
      solveCholesky(L, F, x);
      let s = 0;
      for (let q = 0; q < G; q++) {
        let d = 0;
        for (let v = 0; v < F; v++) d += S[q * F + v] * x[v];
        s += d * d;
      }
      return G > 1 ? (G / (G - 1)) * s : Number.NaN;
    },
  };
}

/** The lower Cholesky factor of the symmetric n × n matrix A (row-major), or null when A is not positive definite. */
function cholesky(A: Float64Array, n: number): Float64Array | null {
  const L = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = A[j * n + j];
    for (let k = 0; k < j; k++) d -= L[j * n + k] * L[j * n + k];
    if (!(d > 1e-12 * Math.max(1, Math.abs(A[j * n + j])))) return null;
    const ljj = Math.sqrt(d);
    L[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = A[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / ljj;
    }
  }
  return L;
}

/** Solves L Lᵀ x = b in place (b given in x). */
function solveCholesky(L: Float64Array, n: number, x: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let s = x[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * x[k];
    x[i] = s / L[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
}
