/**
 * Cohen's kappa on the fixed 0–3 scale, unweighted or weighted, with the large-sample standard
 * error of Fleiss, Cohen & Everitt (1969).
 *
 * Definitions (agreement weights w_ij, proportions p_ij = m_ij / n, margins p_i. and p_.j):
 *   p_o = Σ w_ij p_ij,  p_e = Σ w_ij p_i. p_.j,  κ_w = (p_o − p_e) / (1 − p_e)
 * with w_ij = 1 if i = j else 0 (unweighted), 1 − |i − j| / 3 (linear), 1 − (i − j)² / 9
 * (quadratic). The weights come from the grade values on the whole 0–3 scale, so a grade neither
 * rater uses does not change them (scikit-learn matches this when given labels=[0,1,2,3]).
 *
 * Undefined cases are reported as null with a reason, never as 0: no pairs; and p_e = 1, which
 * happens when both raters give one and the same grade to every pair (chance agreement is total).
 *
 * Standard error (Fleiss, Cohen & Everitt 1969, eq. 13; Fleiss, Levin & Paik 2003, §18.1):
 *   var(κ_w) = [Σ_ij p_ij (w_ij − (w̄_i. + w̄_.j)(1 − κ_w))² − (κ_w − p_e (1 − κ_w))²] / (n (1 − p_e)²)
 * where w̄_i. = Σ_j p_.j w_ij and w̄_.j = Σ_i p_i. w_ij. The interval is κ ± z·SE.
 */
import { K, total, type Confusion } from "./confusion.ts";

export type Weighting = "unweighted" | "linear" | "quadratic";
export type KappaResult = { value: number; se: number | null } | { value: null; se: null; reason: string };

const MAX_DISTANCE = K - 1;

export function weight(i: number, j: number, w: Weighting): number {
  if (w === "unweighted") return i === j ? 1 : 0;
  const d = Math.abs(i - j) / MAX_DISTANCE;
  return w === "linear" ? 1 - d : 1 - d * d;
}

const WEIGHTS: Record<Weighting, Float64Array> = {
  unweighted: table("unweighted"),
  linear: table("linear"),
  quadratic: table("quadratic"),
};

function table(w: Weighting): Float64Array {
  const t = new Float64Array(K * K);
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) t[i * K + j] = weight(i, j, w);
  return t;
}

export const BOTH_CONSTANT =
  "both raters gave one and the same grade to every pair: chance agreement is 1, so kappa is undefined";
export const NO_PAIRS = "no aligned pairs";

/** Margins of kappaValue, reused: it runs for every bootstrap resample and never calls itself. */
const rows = new Float64Array(K);
const cols = new Float64Array(K);

/** Kappa only (no SE): the hot path of the bootstrap, allocation-free. null when undefined. */
export function kappaValue(m: Confusion, w: Weighting, n = total(m)): number | null {
  if (n === 0) return null;
  const wt = WEIGHTS[w];
  rows.fill(0);
  cols.fill(0);
  let po = 0;
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      const v = m[i * K + j];
      rows[i] += v;
      cols[j] += v;
      po += wt[i * K + j] * v;
    }
  let pe = 0;
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) pe += wt[i * K + j] * rows[i] * cols[j];
  po /= n;
  pe /= n * n;
  if (1 - pe <= 1e-15) return null;
  return (po - pe) / (1 - pe);
}

export function cohenKappa(m: Confusion, w: Weighting): KappaResult {
  const n = total(m);
  if (n === 0) return { value: null, se: null, reason: NO_PAIRS };
  const value = kappaValue(m, w, n);
  if (value === null) return { value: null, se: null, reason: BOTH_CONSTANT };
  return { value, se: fleissCohenEverittSe(m, w, value, n) };
}

function fleissCohenEverittSe(m: Confusion, w: Weighting, kappa: number, n: number): number | null {
  const wt = WEIGHTS[w];
  const p = Array.from(m, (v) => v / n);
  const pr = new Float64Array(K);
  const pc = new Float64Array(K);
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      pr[i] += p[i * K + j];
      pc[j] += p[i * K + j];
    }
  let pe = 0;
  for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) pe += wt[i * K + j] * pr[i] * pc[j];
  const wRow = new Float64Array(K); // w̄_i. = Σ_j p_.j w_ij
  const wCol = new Float64Array(K); // w̄_.j = Σ_i p_i. w_ij
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      wRow[i] += pc[j] * wt[i * K + j];
      wCol[j] += pr[i] * wt[i * K + j];
    }
  let s = 0;
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      const pij = p[i * K + j];
      if (pij === 0) continue;
      s += pij * (wt[i * K + j] - (wRow[i] + wCol[j]) * (1 - kappa)) ** 2;
    }
  const variance = (s - (kappa - pe * (1 - kappa)) ** 2) / (n * (1 - pe) ** 2);
  if (!(variance >= 0)) return variance > -1e-15 ? 0 : null;
  return Math.sqrt(variance);
}

/**
 * Linear and quadratic kappa of one matrix at once, into out[0] and out[1] (NaN where kappaValue
 * gives null): the bootstrap's two intervals per resample. The same operations in the same order
 * as kappaValue's for each weighting, so the same numbers (tests/unit/stats/agreement.test.ts).
 */
export function linearQuadraticKappa(m: Confusion, out: Float64Array): void {
  const n = total(m);
  if (n === 0) {
    out[0] = NaN;
    out[1] = NaN;
    return;
  }
  const lin = WEIGHTS.linear;
  const quad = WEIGHTS.quadratic;
  // Margins of counts (K = 4 grades): integers, exact in any order.
  for (let i = 0; i < K; i++) {
    rows[i] = m[i * K] + m[i * K + 1] + m[i * K + 2] + m[i * K + 3];
    cols[i] = m[i] + m[K + i] + m[2 * K + i] + m[3 * K + i];
  }
  let poL = 0;
  let poQ = 0;
  for (let c = 0; c < K * K; c++) {
    poL += lin[c] * m[c];
    poQ += quad[c] * m[c];
  }
  let peL = 0;
  let peQ = 0;
  for (let i = 0; i < K; i++)
    for (let j = 0; j < K; j++) {
      peL += lin[i * K + j] * rows[i] * cols[j];
      peQ += quad[i * K + j] * rows[i] * cols[j];
    }
  poL /= n;
  poQ /= n;
  peL /= n * n;
  peQ /= n * n;
  out[0] = 1 - peL <= 1e-15 ? NaN : (poL - peL) / (1 - peL);
  out[1] = 1 - peQ <= 1e-15 ? NaN : (poQ - peQ) / (1 - peQ);
}
