/**
 * Bootstrap over units (queries): each resample draws n units with replacement. Statistics are
 * given the multiplicity of every unit in the resample, so a statistic built from per-unit sums
 * (a mean, a confusion matrix) costs O(units) per resample instead of O(items).
 * Percentile intervals; quantiles interpolate linearly between order statistics (type 7).
 * Many column means from one set of resamples (bootstrapMeanIntervals, drawCounts): bootstrap-means.ts.
 */
import { seededRng } from "./random.ts";

export type BootstrapOptions = { resamples?: number; level?: number; seed?: number };
export type Interval = { low: number; high: number; level: number; resamples: number };

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_LEVEL = 0.95;
export const DEFAULT_SEED = 1;

/** Linear-interpolated quantile of sorted values (R type 7). */
export function quantileSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * Runs `resamples` bootstrap draws of `units` units and returns the statistic of each (NaN/null
 * results, e.g. an undefined kappa in a degenerate resample, are dropped and counted).
 */
export function bootstrapDistribution(
  units: number,
  stat: (multiplicity: Uint32Array) => number | null,
  opts: BootstrapOptions = {},
): { values: Float64Array; dropped: number } {
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const rng = seededRng(opts.seed ?? DEFAULT_SEED);
  const mult = new Uint32Array(units);
  const out = new Float64Array(resamples);
  let kept = 0;
  for (let b = 0; b < resamples; b++) {
    mult.fill(0);
    for (let i = 0; i < units; i++) mult[rng.int(units)]++;
    const v = stat(mult);
    if (v !== null && Number.isFinite(v)) out[kept++] = v;
  }
  const values = out.slice(0, kept).sort();
  return { values, dropped: resamples - kept };
}

/** Percentile interval from a bootstrap distribution; null when every resample was dropped. */
export function percentileInterval(values: Float64Array, level: number, resamples: number): Interval | null {
  if (values.length === 0) return null;
  const alpha = (1 - level) / 2;
  return { low: quantileSorted(values, alpha), high: quantileSorted(values, 1 - alpha), level, resamples };
}

/**
 * The k-th smallest of a[left..right] (k in that range), moving values within that range only:
 * afterwards a[k] is it, every value before k (from left) is ≤ it and every value after it ≥ it
 * (Hoare's FIND as Wirth writes it). The values must not be NaN.
 */
function selectInPlace(a: Float64Array, left: number, right: number, k: number): number {
  while (right > left) {
    const x = a[k];
    let i = left;
    let j = right;
    do {
      while (a[i] < x) i++;
      while (x < a[j]) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    } while (i <= j);
    if (j < k) left = i;
    if (k < i) right = j;
  }
  return a[k];
}

/**
 * percentileInterval of the first `kept` values of `draws`, unsorted: the order statistics the two
 * quantiles interpolate between are selected (reordering those values in place) instead of sorting
 * them all; they are the same values, so the interval is the same.
 */
export function percentileIntervalUnsorted(
  draws: Float64Array,
  kept: number,
  level: number,
  resamples: number,
): Interval | null {
  if (kept === 0) return null;
  const alpha = (1 - level) / 2;
  const rank = (p: number) => {
    const h = (kept - 1) * p;
    const lo = Math.floor(h);
    return { h, lo, hi: Math.min(kept - 1, lo + 1) };
  };
  const lower = rank(alpha);
  const upper = rank(1 - alpha);
  // The value of quantileSorted's interpolation; `from`: values before it are known to rank below.
  const quantile = ({ h, lo, hi }: { h: number; lo: number; hi: number }, from: number) => {
    const a = selectInPlace(draws, from, kept - 1, lo);
    let b = a;
    if (hi > lo) {
      // The next order statistic: the least of the values after the selected one.
      b = draws[hi];
      for (let i = hi + 1; i < kept; i++) if (draws[i] < b) b = draws[i];
    }
    return a + (h - lo) * (b - a);
  };
  const low = quantile(lower, 0);
  const high = quantile(upper, upper.lo >= lower.lo ? lower.lo : 0);
  return { low, high, level, resamples };
}

/** Bootstrap percentile CI of the mean of per-query values. */
export function bootstrapMeanCI(values: readonly number[], opts: BootstrapOptions = {}): Interval | null {
  const n = values.length;
  if (n === 0) return null;
  const level = opts.level ?? DEFAULT_LEVEL;
  const { values: dist } = bootstrapDistribution(
    n,
    (m) => {
      let s = 0;
      for (let i = 0; i < n; i++) s += m[i] * values[i];
      return s / n;
    },
    opts,
  );
  return percentileInterval(dist, level, opts.resamples ?? DEFAULT_RESAMPLES);
}
