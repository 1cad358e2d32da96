/**
 * Group-sequential boundaries by alpha spending (Lan & DeMets, "Discrete sequential boundaries for
 * clinical trials", Biometrika 70, 1983; Jennison & Turnbull, "Group Sequential Methods with
 * Applications to Clinical Trials", 2000, ch. 7 for the spending functions, ch. 9 for repeated
 * confidence intervals, ch. 19 for the numerical integration).
 *
 * A statistic Z_k = θ̂_k / se_k is looked at with information fractions 0 < t_1 < t_2 < … ≤ 1 (the
 * share of the maximum information seen at look k). Under H0 (θ = 0) the Z_k are jointly normal with
 * Cov(Z_j, Z_k) = √(t_j / t_k) (Brownian motion: the score S_k = Z_k √t_k has independent
 * increments N(0, t_k − t_{k−1})). A spending function α(t), increasing from α(0) = 0 to α(1) = α,
 * says how much of the overall two-sided error α may have been spent by information t. Look k's
 * two-sided boundary z_k solves
 *
 *   P0( |Z_1| < z_1, …, |Z_{k−1}| < z_{k−1}, |Z_k| ≥ z_k ) = α(t_k) − α(t_{k−1})
 *
 * (half on each side), with the boundaries of the earlier looks as they were computed when those
 * looks were taken: a look only ever spends its own increment, so a later look never re-spends
 * what an earlier one used, and the looks need not be planned in advance (only the maximum: t ≤ 1).
 * Then P0(some |Z_k| ≥ z_k) = α(t_K) ≤ α whatever the number and timing of the looks, as long as
 * the timing does not depend on the Z's.
 *
 * The probabilities are computed by the Armitage–McPherson–Rowe recursion on the density of Z_k
 * restricted to the continuation region (−z_k, z_k), integrated numerically with Jennison &
 * Turnbull's grid (§19.2: r = 18, 6r − 1 points spread as −3 − 4 log(r/i), −3 + 3(i − r)/(2r),
 * 3 + 4 log(r/(6r − i)), cut to the continuation region, with Simpson's rule on the points and
 * their midpoints), as the R package gsDesign does (gsBound, r = 18).
 *
 * Spending families (Jennison & Turnbull §7.2), written for the overall two-sided α, half of it
 * spent on each side (the convention of gsDesign's symmetric designs and of the ldbounds package):
 * - O'Brien–Fleming type (Lan & DeMets 1983): each side α₁(t) = 2 − 2Φ(z_{1−α₁/2} / √t) with the
 *   one-sided level α₁ = α/2, so α(t) = 2 α₁(t); spends almost nothing early, the last look close
 *   to the fixed-sample z_{1−α/2} (K = 5 equally spaced looks, α = 0.05: 4.877, 3.357, 2.680,
 *   2.290, 2.031, the values tabulated by DeMets & Lan 1994).
 * - Pocock type (Lan & DeMets 1983): α(t) = α ln(1 + (e − 1) t); spends evenly.
 * - Hwang–Shih–DeCani (1990) with parameter γ: α(t) = α (1 − e^{−γt}) / (1 − e^{−γ}), γ ≠ 0;
 *   α t for γ = 0. γ = −4 is close to O'Brien–Fleming, γ = 1 to Pocock.
 *
 * Repeated confidence intervals (Jennison & Turnbull ch. 9): θ̂_k ± z_k se_k at every look k; all of
 * them cover θ at once with probability 1 − α(t_K) ≥ 1 − α, so the interval where a lead stops is
 * valid whenever and however the stop was chosen (J&T §9.1).
 */
import { normalCdf, normalQuantile } from "./normal.ts";

export type TSpending = { family: "obf" } | { family: "pocock" } | { family: "hsd"; gamma: number };

/** obf, pocock, hsd(γ): the spending family as a lead names it. */
export function spendingName(s: TSpending): string {
  return s.family === "hsd" ? `hsd(${s.gamma})` : s.family;
}

/** Parses obf, pocock or hsd(γ) (also hsd:γ); null when not one of them. */
export function parseSpending(text: string): TSpending | null {
  const t = text.trim().toLowerCase();
  if (t === "obf" || t === "pocock") return { family: t };
  const m = /^hsd(?:\(|:)\s*(-?\d+(?:\.\d+)?)\s*\)?$/.exec(t);
  if (m && (t.includes("(") ? t.endsWith(")") : !t.endsWith(")"))) return { family: "hsd", gamma: Number(m[1]) };
  return null;
}

/** z with P(Z ≤ z) = p, refined by one Newton step on the double-precision CDF. */
function quantile(p: number): number {
  const z = normalQuantile(p);
  const density = Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI);
  return density > 0 ? z - (normalCdf(z) - p) / density : z;
}

/** α(t): the two-sided error the family allows to have been spent by information fraction t (file comment). */
export function spendingFunction(s: TSpending, alpha: number, t: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(t >= 0)) throw new RangeError(`an information fraction must be ≥ 0, got ${t}`);
  if (t === 0) return 0;
  if (t >= 1) return alpha;
  // Each side spends Lan & DeMets's function at the one-sided level α/2 (file comment).
  if (s.family === "obf") return 2 * (2 * normalCdf(-quantile(1 - alpha / 4) / Math.sqrt(t)));
  if (s.family === "pocock") return alpha * Math.log(1 + (Math.E - 1) * t);
  if (s.gamma === 0) return alpha * t;
  return (alpha * (1 - Math.exp(-s.gamma * t))) / (1 - Math.exp(-s.gamma));
}

const R = 18;
const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** Jennison & Turnbull's grid (§19.2, mean 0) cut to (lo, hi), with its Simpson weights. */
function grid(lo: number, hi: number): { z: Float64Array<ArrayBuffer>; w: Float64Array<ArrayBuffer> } {
  const x: number[] = [];
  for (let i = 1; i <= 6 * R - 1; i++) {
    const v =
      i < R ? -3 - 4 * Math.log(R / i) : i <= 5 * R ? -3 + (3 * (i - R)) / (2 * R) : 3 + 4 * Math.log(R / (6 * R - i));
    if (v > lo && v < hi) x.push(v);
  }
  if (Number.isFinite(lo)) x.unshift(lo);
  if (Number.isFinite(hi)) x.push(hi);
  const m = x.length;
  if (m < 2) return { z: Float64Array.from(x), w: Float64Array.from(x.map(() => 0)) };
  const z = new Float64Array(2 * m - 1);
  const w = new Float64Array(2 * m - 1);
  for (let j = 0; j < m; j++) {
    z[2 * j] = x[j];
    w[2 * j] = ((j > 0 ? x[j] - x[j - 1] : 0) + (j < m - 1 ? x[j + 1] - x[j] : 0)) / 6;
    if (j < m - 1) {
      z[2 * j + 1] = (x[j] + x[j + 1]) / 2;
      w[2 * j + 1] = (4 * (x[j + 1] - x[j])) / 6;
    }
  }
  return { z, w };
}

/**
 * The recursion's state after some looks: the sub-density of Z at the last look on the grid of its
 * continuation region (Armitage–McPherson–Rowe; file comment). Looks are added one at a time with
 * the probability each may spend below and above; a look never changes an earlier one.
 */
export class SequentialRecursion {
  private t = 0;
  private z = new Float64Array(0);
  private w = new Float64Array(0);
  private h = new Float64Array(0);

  /** Information fraction of the last look (0 before the first). */
  get information(): number {
    return this.t;
  }

  /** P(continue to look k, then Z_k ≥ b) (`upper`) or ≤ b (lower) for a look at information t. */
  private cross(b: number, t: number, upper: boolean): number {
    if (this.t === 0) return upper ? normalCdf(-b) : normalCdf(b);
    const st = Math.sqrt(t);
    const s0 = Math.sqrt(this.t);
    const sd = Math.sqrt(t - this.t);
    let p = 0;
    for (let j = 0; j < this.z.length; j++) {
      const u = (b * st - this.z[j] * s0) / sd;
      p += this.w[j] * this.h[j] * (upper ? normalCdf(-u) : normalCdf(u));
    }
    return p;
  }

  /** d/db of the upper crossing probability at b (minus the density of crossing there). */
  private slope(b: number, t: number): number {
    if (this.t === 0) return -Math.exp((-b * b) / 2) / SQRT_2PI;
    const st = Math.sqrt(t);
    const s0 = Math.sqrt(this.t);
    const sd = Math.sqrt(t - this.t);
    let d = 0;
    for (let j = 0; j < this.z.length; j++) {
      const u = (b * st - this.z[j] * s0) / sd;
      d += this.w[j] * this.h[j] * Math.exp((-u * u) / 2);
    }
    return (-d * st) / (sd * SQRT_2PI);
  }

  /**
   * The bound whose crossing probability at information t is `target` (∞ when the target is 0):
   * Newton's method from the first look's value, kept inside a bracket that bisection narrows when
   * a step would leave it; to 1e-10 in b.
   */
  private solve(target: number, t: number, upper: boolean): number {
    if (!(target > 0)) return upper ? Infinity : -Infinity;
    // Crossing above b falls as b grows; the lower side is solved as crossing below −b, which falls likewise.
    const f = (b: number) => (upper ? this.cross(b, t, true) : this.cross(-b, t, false)) - target;
    // The lower side's derivative in b is the same sum at −b (the normal density is even).
    const df = (b: number) => this.slope(upper ? b : -b, t);
    let lo = -10;
    let hi = 40;
    if (f(lo) < 0) throw new RangeError(`a look cannot spend ${target}: less than that is left to cross`);
    let b = target < 0.5 ? -quantile(target) : 0;
    for (let i = 0; i < 200; i++) {
      const v = f(b);
      if (v > 0) lo = b;
      else hi = b;
      if (Math.abs(v) <= 1e-15 * Math.max(target, 1e-300) || hi - lo < 1e-10) break;
      const d = df(b);
      let next = d < 0 ? b - v / d : NaN;
      if (!(next > lo && next < hi)) next = (lo + hi) / 2;
      if (Math.abs(next - b) < 1e-11) {
        b = next;
        break;
      }
      b = next;
    }
    return upper ? b : -b;
  }

  /**
   * Adds a look at information fraction t (greater than the last, at most 1) spending `lower` below
   * and `upper` above: its bounds (a, b), Z ≤ a and Z ≥ b crossing (±∞ when nothing is spent).
   */
  look(t: number, lower: number | "mirror", upper: number): { a: number; b: number } {
    if (!(t > this.t && t <= 1 + 1e-12))
      throw new RangeError(`a look's information fraction must exceed the last one (${this.t}) and be ≤ 1, got ${t}`);
    const b = this.solve(upper, t, true);
    // "mirror": a = −b, the symmetric test's lower bound (under H0 the recursion and the grid are symmetric about 0).
    const a = lower === "mirror" ? -b : this.solve(lower, t, false);
    if (!(a < b)) throw new RangeError(`the looks' spending leaves no continuation region at t = ${t}`);
    const { z, w } = grid(a, b);
    const h = new Float64Array(z.length);
    if (this.t === 0) {
      for (let i = 0; i < z.length; i++) h[i] = Math.exp((-z[i] * z[i]) / 2) / SQRT_2PI;
    } else {
      const st = Math.sqrt(t);
      const s0 = Math.sqrt(this.t);
      const sd = Math.sqrt(t - this.t);
      for (let i = 0; i < z.length; i++) {
        let s = 0;
        for (let j = 0; j < this.z.length; j++) {
          const u = (z[i] * st - this.z[j] * s0) / sd;
          s += this.w[j] * this.h[j] * Math.exp((-u * u) / 2);
        }
        h[i] = (s * st) / (sd * SQRT_2PI);
      }
    }
    this.t = t;
    this.z = z;
    this.w = w;
    this.h = h;
    return { a, b };
  }
}

/** One look's two-sided boundary (file comment). */
export type TLookBoundary = {
  /** Information fraction t_k. */
  t: number;
  /** α(t_k): the error spent up to and including this look. */
  spent: number;
  /** α(t_k) − α(t_{k−1}): what this look spent. */
  increment: number;
  /** z_k: the look settles when |Z_k| ≥ z_k; its repeated confidence interval is θ̂ ± z_k se. */
  z: number;
  /** The nominal level of that interval, 1 − 2(1 − Φ(z_k)). */
  level: number;
};

/**
 * The two-sided boundaries of looks at information fractions t_1 < t_2 < … ≤ 1 for an overall
 * error α spent by `spending` (file comment). Incremental: `next(t)` adds a look without computing
 * the earlier ones again (the simulation's looks come one at a time).
 */
export class SpendingBoundaries {
  private readonly recursion = new SequentialRecursion();
  private spentSoFar = 0;
  readonly looks: TLookBoundary[] = [];

  constructor(
    readonly spending: TSpending,
    readonly alpha: number,
  ) {
    spendingFunction(spending, alpha, 0.5); // checks α
  }

  next(t: number): TLookBoundary {
    const tt = Math.min(1, t);
    const spent = spendingFunction(this.spending, this.alpha, tt);
    const increment = Math.max(0, spent - this.spentSoFar);
    const { b } = this.recursion.look(tt, "mirror", increment / 2);
    this.spentSoFar = Math.max(this.spentSoFar, spent);
    const look = { t: tt, spent: this.spentSoFar, increment, z: b, level: 1 - 2 * normalCdf(-b) };
    this.looks.push(look);
    return look;
  }
}

/** The boundaries of looks at information fractions `ts` (increasing, ≤ 1) spending α by `spending`. */
export function sequentialBoundaries(ts: readonly number[], spending: TSpending, alpha: number): TLookBoundary[] {
  const b = new SpendingBoundaries(spending, alpha);
  for (const t of ts) b.next(t);
  return b.looks;
}
