import { describe, expect, it } from "vitest";
import { dawidSkeneSparse, sparseAnswers } from "../../../lib/stats/dawid-skene.ts";
import { clusterVariance } from "../../../lib/stats/dawid-skene-sandwich.ts";
import { seededRng } from "../../../lib/stats/random.ts";

/**
 * The question-clustered sandwich of lib/stats/dawid-skene-sandwich.ts against the same variance
 * computed from its definition with finite differences, on a small simulated data set:
 *   var h = G/(G − 1) · Σ_q (S_qᵀ J⁻¹ ∇h)²,
 * S_q the gradient of question q's log-likelihood and J minus the Hessian of the total, both in
 * free coordinates at the fit (Cameron & Miller 2015, §II.C, CR1). The test's free coordinates
 * differ from the module's (here each block's last entry is the dependent one; there its largest):
 * the delta-method variance does not depend on that choice, so agreement also checks that.
 */
const K = 2;
const A = 3;

/**
 * 60 items in 12 questions; each item graded by two or three of three annotators of differing
 * accuracy. Seed 22 because its fit has every entry inside (0, 1) (most small samples put an error
 * rate at 0, a boundary the module holds fixed and finite differences cannot step across); the test
 * asserts it.
 */
function simulate() {
  const rng = seededRng(22);
  const accuracy = [0.9, 0.8, 0.7];
  const counts: number[][][] = [];
  const cluster: number[] = [];
  for (let i = 0; i < 60; i++) {
    const truth = rng.next() < 0.35 ? 1 : 0;
    const skip = rng.next() < 0.5 ? rng.int(A) : -1;
    counts.push(
      Array.from({ length: A }, (_, a) => {
        const c = [0, 0];
        if (a !== skip) c[rng.next() < accuracy[a] ? truth : 1 - truth]++;
        return c;
      }),
    );
    cluster.push(Math.floor(i / 5));
  }
  return { counts, cluster };
}

/** log Σ_j p_j Π_a Π_l π_a[j][l]^n_ial of one item at θ (the model's layout). */
function itemLogLik(theta: Float64Array, item: number[][]): number {
  let s = 0;
  for (let j = 0; j < K; j++) {
    let f = theta[j];
    for (let a = 0; a < A; a++) for (let l = 0; l < K; l++) f *= Math.pow(theta[K + a * K * K + j * K + l], item[a][l]);
    s += f;
  }
  return Math.log(s);
}

/** θ from free coordinates φ around θ̂: each block's first K − 1 entries move, the last takes up the difference. */
function thetaAt(base: Float64Array, phi: Float64Array): Float64Array {
  const t = Float64Array.from(base);
  for (let b = 0; b * K < t.length; b++)
    for (let l = 0; l < K - 1; l++) {
      t[b * K + l] += phi[b * (K - 1) + l];
      t[b * K + K - 1] -= phi[b * (K - 1) + l];
    }
  return t;
}

/** Solves M x = b (M n × n, small) by Gaussian elimination with partial pivoting. */
function solve(M: number[][], b: number[]): number[] {
  const n = b.length;
  const a = M.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(a[r][c]) > Math.abs(a[p][c])) p = r;
    [a[c], a[p]] = [a[p], a[c]];
    for (let r = c + 1; r < n; r++) {
      const f = a[r][c] / a[c][c];
      for (let k = c; k <= n; k++) a[r][k] -= f * a[c][k];
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = a[r][n];
    for (let k = r + 1; k < n; k++) s -= a[r][k] * x[k];
    x[r] = s / a[r][r];
  }
  return x;
}

describe("the question-clustered sandwich of a Dawid–Skene fit", () => {
  const { counts, cluster } = simulate();
  const G = 12;
  const fitted = (prior: number) => {
    const fit = dawidSkeneSparse(sparseAnswers(counts, K), K, {
      tol: 1e-13,
      maxIter: 100_000,
      accelerate: true,
      prior,
    });
    expect(fit.converged).toBe(true);
    const theta = new Float64Array(K + A * K * K);
    theta.set(fit.marginals);
    fit.errorRates.forEach((e, a) => theta.set(e, K + a * K * K));
    return theta;
  };
  const theta = fitted(0);

  // With a prior (a pseudo-count per error-rate cell), the fit is the posterior mode and J is minus
  // the Hessian of the log-likelihood plus Σ prior·log π over the error-rate entries; the questions'
  // scores stay the likelihood's.
  it.each([0, 0.5])("gives the variance its definition gives with finite differences (prior %s)", (prior) => {
    const theta = fitted(prior);
    // Every entry inside (0, 1): no boundary, so both parametrisations free the same entries.
    for (const v of theta) expect(v).toBeGreaterThan(0.05);
    const F = theta.length / K;
    const total = (phi: Float64Array) => {
      const t = thetaAt(theta, phi);
      let logPrior = 0;
      for (let u = K; u < t.length; u++) logPrior += prior * Math.log(t[u]);
      return counts.reduce((s, item) => s + itemLogLik(t, item), logPrior);
    };
    const ofQuestion = (q: number, phi: Float64Array) =>
      counts.reduce((s, item, i) => s + (cluster[i] === q ? itemLogLik(thetaAt(theta, phi), item) : 0), 0);
    const e = (u: number, h: number) => {
      const v = new Float64Array(F);
      v[u] = h;
      return v;
    };
    const plus = (x: Float64Array, y: Float64Array) => x.map((v, i) => v + y[i]);
    // Central differences: S_q[u] = (ℓ_q(+h e_u) − ℓ_q(−h e_u)) / 2h; J[u][v] = −∂²ℓ/∂φ_u∂φ_v.
    const h1 = 1e-6;
    const S = Array.from({ length: G }, (_, q) =>
      Array.from({ length: F }, (_, u) => (ofQuestion(q, e(u, h1)) - ofQuestion(q, e(u, -h1))) / (2 * h1)),
    );
    const h2 = 1e-4;
    const J = Array.from({ length: F }, (_, u) =>
      Array.from(
        { length: F },
        (_, v) =>
          -(
            total(plus(e(u, h2), e(v, h2))) -
            total(plus(e(u, h2), e(v, -h2))) -
            total(plus(e(u, -h2), e(v, h2))) +
            total(plus(e(u, -h2), e(v, -h2)))
          ) /
          (4 * h2 * h2),
      ),
    );
    const byDefinition = (dPhi: number[]) => {
      const x = solve(J, dPhi);
      let s = 0;
      for (const Sq of S) s += Sq.reduce((acc, v, u) => acc + v * x[u], 0) ** 2;
      return (G / (G - 1)) * s;
    };
    const cv = clusterVariance(
      sparseAnswers(counts, K),
      theta,
      K,
      { of: Int32Array.from(counts, (_, i) => i), cluster: Int32Array.from(cluster), clusters: G },
      { prior },
    );
    if (!cv.ok) throw new Error(cv.reason);
    expect(cv.free).toBe(F);
    // h = θ_u for every entry u: ∇_θ h = e_u; in the test's coordinates ∂θ_u/∂φ is +1 on u's own
    // coordinate when u is not its block's last entry, −1 on each of the block's coordinates when it is.
    for (let u = 0; u < theta.length; u++) {
      const gradient = new Float64Array(theta.length);
      gradient[u] = 1;
      const b = Math.floor(u / K);
      const dPhi = new Array<number>(F).fill(0);
      if (u % K !== K - 1) dPhi[b * (K - 1) + (u % K)] = 1;
      else for (let l = 0; l < K - 1; l++) dPhi[b * (K - 1) + l] = -1;
      const expected = byDefinition(dPhi);
      expect(expected).toBeGreaterThan(0);
      expect(Math.abs(cv.variance(gradient) - expected) / expected).toBeLessThan(1e-4);
    }
  });

  it("gives the same variance on merged patterns as on the items written out", () => {
    // Items with identical answers have identical scores and curvature: one pattern weighted by its
    // multiplicity contributes the same to J, and each item still adds its score to its own question.
    const key = (item: number[][]) => JSON.stringify(item);
    const patternOf = new Map<string, number>();
    const patterns: number[][][] = [];
    const of = Int32Array.from(counts, (item) => {
      let p = patternOf.get(key(item));
      if (p === undefined) {
        patternOf.set(key(item), (p = patterns.length));
        patterns.push(item);
      }
      return p;
    });
    expect(patterns.length).toBeLessThan(counts.length / 2);
    const weight = new Float64Array(patterns.length);
    for (const p of of) weight[p]++;
    const items = clusterVariance(
      sparseAnswers(counts, K),
      theta,
      K,
      { of: Int32Array.from(counts, (_, i) => i), cluster: Int32Array.from(cluster), clusters: G },
      {},
    );
    const merged = clusterVariance(
      sparseAnswers(patterns, K),
      theta,
      K,
      { of, cluster: Int32Array.from(cluster), clusters: G },
      { weight },
    );
    if (!items.ok || !merged.ok) throw new Error("no variance");
    for (let u = 0; u < theta.length; u++) {
      const gradient = new Float64Array(theta.length);
      gradient[u] = 1;
      gradient[(u + 3) % theta.length] = -0.5;
      expect(merged.variance(gradient)).toBeCloseTo(items.variance(gradient), 12);
    }
  });

  it("refuses a point that is not a maximum", () => {
    // At uniform error rates every annotator's rows are alike: the likelihood does not depend on
    // the marginals, so J is singular and no variance can be given.
    const flat = new Float64Array(theta.length).fill(1 / K);
    const cv = clusterVariance(
      sparseAnswers(counts, K),
      flat,
      K,
      { of: Int32Array.from(counts, (_, i) => i), cluster: Int32Array.from(cluster), clusters: G },
      {},
    );
    expect(cv.ok).toBe(false);
  });
});
