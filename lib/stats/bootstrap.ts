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

/**
 * Bootstrap percentile CIs of the means of many columns of per-unit values from one set of
 * resamples (the draws of bootstrapDistribution with the same seed): every column sees the same
 * resampled units, as a paired design should (e.g. every run and measure over the same queries).
 * A null value is undefined for that unit (e.g. start error of a query without a reference start):
 * the column's mean in a resample is over the drawn units where it is defined, weighted by their
 * multiplicity, and a resample without any is dropped for that column. Without nulls a column's
 * interval is exactly bootstrapMeanCI's. Columns are laid out unit-major, so a resample is one
 * pass over the drawn units with the columns as the inner loop.
 */
export function bootstrapMeanIntervals(columns: readonly (readonly (number | null)[])[], units: number, opts: BootstrapOptions = {}): (Interval | null)[] {
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const level = opts.level ?? DEFAULT_LEVEL;
  if (units === 0) return columns.map(() => null);
  const complete: number[] = [];
  const partial: number[] = [];
  columns.forEach((col, c) => {
    if (col.length !== units) throw new RangeError(`bootstrapMeanIntervals: column ${c} has ${col.length} values for ${units} units`);
    (col.some((v) => v === null) ? partial : complete).push(c);
  });
  const c1 = complete.length;
  const c2 = partial.length;
  const v1 = new Float64Array(units * c1);
  const v2 = new Float64Array(units * c2);
  const w2 = new Float64Array(units * c2);
  for (let i = 0; i < units; i++) {
    for (let c = 0; c < c1; c++) v1[i * c1 + c] = columns[complete[c]][i] as number;
    for (let c = 0; c < c2; c++) {
      const v = columns[partial[c]][i];
      if (v !== null) {
        v2[i * c2 + c] = v;
        w2[i * c2 + c] = 1;
      }
    }
  }
  const draws = columns.map(() => new Float64Array(resamples));
  const kept = new Int32Array(columns.length);
  const rng = seededRng(opts.seed ?? DEFAULT_SEED);
  const mult = new Uint32Array(units);
  const drawn = new Int32Array(units);
  const s1 = new Float64Array(c1);
  const s2 = new Float64Array(c2);
  const sw = new Float64Array(c2);
  for (let b = 0; b < resamples; b++) {
    mult.fill(0);
    for (let i = 0; i < units; i++) mult[rng.int(units)]++;
    let e = 0;
    for (let i = 0; i < units; i++) if (mult[i]) drawn[e++] = i;
    s1.fill(0);
    s2.fill(0);
    sw.fill(0);
    // Units in ascending order, as bootstrapMeanCI sums them (units drawn 0 times add nothing).
    for (let q = 0; q < e; q++) {
      const i = drawn[q];
      const m = mult[i];
      const base1 = i * c1;
      for (let c = 0; c < c1; c++) s1[c] += m * v1[base1 + c];
      const base2 = i * c2;
      for (let c = 0; c < c2; c++) {
        s2[c] += m * v2[base2 + c];
        sw[c] += m * w2[base2 + c];
      }
    }
    for (let c = 0; c < c1; c++) draws[complete[c]][kept[complete[c]]++] = s1[c] / units;
    for (let c = 0; c < c2; c++) if (sw[c] > 0) draws[partial[c]][kept[partial[c]]++] = s2[c] / sw[c];
  }
  return draws.map((d, c) => percentileInterval(d.slice(0, kept[c]).sort(), level, resamples));
}
