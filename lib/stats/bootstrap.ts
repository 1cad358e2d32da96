/**
 * Bootstrap over units (queries): each resample draws n units with replacement. Statistics are
 * given the multiplicity of every unit in the resample, so a statistic built from per-unit sums
 * (a mean, a confusion matrix) costs O(units) per resample instead of O(items).
 * Percentile intervals; quantiles interpolate linearly between order statistics (type 7).
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
export function bootstrapDistribution(units: number, stat: (multiplicity: Uint32Array) => number | null, opts: BootstrapOptions = {}): { values: Float64Array; dropped: number } {
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
