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
 * interval is exactly bootstrapMeanCI's. Each resample's draws are listed once (unit, times drawn), so a column costs one
 * pass over the drawn units per column.
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
  // Column-major values; a column with nulls also has its 0/1 "defined" weights.
  const values = new Float64Array(units * columns.length);
  const weights = new Float64Array(units * partial.length);
  columns.forEach((col, c) => {
    for (let i = 0; i < units; i++) values[c * units + i] = col[i] ?? 0;
  });
  partial.forEach((c, p) => {
    for (let i = 0; i < units; i++) weights[p * units + i] = columns[c][i] === null ? 0 : 1;
  });
  const draws = columns.map(() => new Float64Array(resamples));
  const kept = new Int32Array(columns.length);
  const rng = seededRng(opts.seed ?? DEFAULT_SEED);
  const mult = new Uint32Array(units);
  const drawn = new Int32Array(units);
  const times = new Float64Array(units);
  for (let b = 0; b < resamples; b++) {
    mult.fill(0);
    for (let i = 0; i < units; i++) mult[rng.int(units)]++;
    let e = 0;
    for (let i = 0; i < units; i++)
      if (mult[i]) {
        drawn[e] = i;
        times[e++] = mult[i];
      }
    // Units in ascending order, as bootstrapMeanCI sums them (units drawn 0 times add nothing).
    // Four columns at a time: four independent sums, each still in unit order.
    let k = 0;
    for (; k + 4 <= complete.length; k += 4) {
      const b0 = complete[k] * units;
      const b1 = complete[k + 1] * units;
      const b2 = complete[k + 2] * units;
      const b3 = complete[k + 3] * units;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let q = 0; q < e; q++) {
        const i = drawn[q];
        const t = times[q];
        s0 += t * values[b0 + i];
        s1 += t * values[b1 + i];
        s2 += t * values[b2 + i];
        s3 += t * values[b3 + i];
      }
      draws[complete[k]][kept[complete[k]]++] = s0 / units;
      draws[complete[k + 1]][kept[complete[k + 1]]++] = s1 / units;
      draws[complete[k + 2]][kept[complete[k + 2]]++] = s2 / units;
      draws[complete[k + 3]][kept[complete[k + 3]]++] = s3 / units;
    }
    for (; k < complete.length; k++) {
      const c = complete[k];
      const base = c * units;
      let s = 0;
      for (let q = 0; q < e; q++) s += times[q] * values[base + drawn[q]];
      draws[c][kept[c]++] = s / units;
    }
    partial.forEach((c, p) => {
      const base = c * units;
      const wbase = p * units;
      let s = 0;
      let w = 0;
      for (let q = 0; q < e; q++) {
        s += times[q] * values[base + drawn[q]];
        w += times[q] * weights[wbase + drawn[q]];
      }
      if (w > 0) draws[c][kept[c]++] = s / w;
    });
  }
  return draws.map((d, c) => percentileInterval(d.slice(0, kept[c]).sort(), level, resamples));
}
