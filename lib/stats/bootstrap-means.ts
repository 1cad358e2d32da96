/**
 * Bootstrap percentile intervals of many column means from one set of resamples (split from
 * lib/stats/bootstrap.ts, whose draws, seed and percentile intervals these are): bootstrapMeanIntervals,
 * a column kept in a memo and updated after a change of a few units, and the kept draw counts
 * (drawCounts) that the updates and the agreement reports reuse.
 */
import {
  DEFAULT_LEVEL,
  DEFAULT_RESAMPLES,
  DEFAULT_SEED,
  percentileInterval,
  type BootstrapOptions,
  type Interval,
} from "./bootstrap.ts";
import { seededRng } from "./random.ts";

/**
 * Bootstrap percentile CIs of the means of many columns of per-unit values from one set of
 * resamples (the draws of bootstrapDistribution with the same seed): every column sees the same
 * resampled units, as a paired design should (e.g. every run and measure over the same queries).
 * A null value is undefined for that unit (e.g. start error of a query without a reference start):
 * the column's mean in a resample is over the drawn units where it is defined, weighted by their
 * multiplicity, and a resample without any is dropped for that column. Without nulls a column's
 * interval is exactly bootstrapMeanCI's. Each resample's draws are listed once (unit, times
 * drawn), so a column costs one pass over the drawn units per resample.
 *
 * With a `memo` and a key per column, a column seen before whose values changed on a few units
 * (a label change) is updated instead: each resample's sum adds the change times the unit's
 * multiplicity. Such a sum differs from a new one by rounding only (far below `eps` below), so
 * the resamples that could be the interval's order statistics are known, and only those are summed
 * again exactly as here: the intervals are the same (tests/unit/stats/uncertainty.test.ts).
 */
export type MeanIntervalMemo = Map<
  string,
  {
    resamples: number;
    seed: number;
    level: number;
    values: Float64Array;
    defined: Uint8Array;
    sums: Float64Array;
    weights: Float64Array;
    updates: number;
    interval: Interval | null;
  }
>;

const drawCache = new Map<string, Uint8Array | null>();
let drawCacheBytes = 0;
/**
 * What the kept draws may take: the least recently used go first past it (or past 256 tables),
 * the newest always stays. A report over many unit counts (the Annotators card: a cell per
 * annotator and per pair of annotators, each over the questions they share) then draws each
 * count once, not once per cell.
 */
const DRAW_CACHE_BYTES = 64 * 1024 * 1024;
const DRAW_CACHE_TABLES = 256;

/**
 * How often each resample of bootstrapDistribution (same seed) draws each unit, resample-major,
 * kept for reuse (null when a count exceeds 255: then callers keep nothing).
 */
export function drawCounts(units: number, resamples: number, seed: number): Uint8Array | null {
  const key = `${units} ${resamples} ${seed}`;
  const hit = drawCache.get(key);
  if (hit !== undefined) {
    drawCache.delete(key);
    drawCache.set(key, hit);
    return hit;
  }
  const rng = seededRng(seed);
  const out = new Uint8Array(resamples * units);
  const mult = new Uint32Array(units);
  let ok = true;
  for (let b = 0; b < resamples; b++) {
    mult.fill(0);
    for (let i = 0; i < units; i++) mult[rng.int(units)]++;
    for (let i = 0; i < units; i++) {
      if (mult[i] > 255) ok = false;
      out[b * units + i] = mult[i];
    }
  }
  const kept = ok ? out : null;
  drawCache.set(key, kept);
  drawCacheBytes += kept?.length ?? 0;
  while (drawCache.size > 1 && (drawCache.size > DRAW_CACHE_TABLES || drawCacheBytes > DRAW_CACHE_BYTES)) {
    const [oldest, table] = drawCache.entries().next().value as [string, Uint8Array | null];
    drawCache.delete(oldest);
    drawCacheBytes -= table?.length ?? 0;
  }
  return kept;
}

/** Per column and resample: the sum of drawn values and the number of drawn defined units. */
function resampleSums(
  columns: readonly (readonly (number | null)[])[],
  units: number,
  resamples: number,
  seed: number,
): { sums: Float64Array[]; weights: Float64Array[] } {
  const complete: number[] = [];
  const partial: number[] = [];
  columns.forEach((col, c) => {
    if (col.length !== units)
      throw new RangeError(`bootstrapMeanIntervals: column ${c} has ${col.length} values for ${units} units`);
    (col.some((v) => v === null) ? partial : complete).push(c);
  });
  // Column-major values; a column with nulls also has its 0/1 "defined" weights.
  const values = new Float64Array(units * columns.length);
  const defined = new Float64Array(units * partial.length);
  columns.forEach((col, c) => {
    for (let i = 0; i < units; i++) values[c * units + i] = col[i] ?? 0;
  });
  partial.forEach((c, p) => {
    for (let i = 0; i < units; i++) defined[p * units + i] = columns[c][i] === null ? 0 : 1;
  });
  const sums = columns.map(() => new Float64Array(resamples));
  const weights = columns.map(() => new Float64Array(resamples));
  const rng = seededRng(seed);
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
      sums[complete[k]][b] = s0;
      sums[complete[k + 1]][b] = s1;
      sums[complete[k + 2]][b] = s2;
      sums[complete[k + 3]][b] = s3;
    }
    for (; k < complete.length; k++) {
      const base = complete[k] * units;
      let s = 0;
      for (let q = 0; q < e; q++) s += times[q] * values[base + drawn[q]];
      sums[complete[k]][b] = s;
    }
    for (const c of complete) weights[c][b] = units;
    partial.forEach((c, p) => {
      const base = c * units;
      const wbase = p * units;
      let s = 0;
      let w = 0;
      for (let q = 0; q < e; q++) {
        s += times[q] * values[base + drawn[q]];
        w += times[q] * defined[wbase + drawn[q]];
      }
      sums[c][b] = s;
      weights[c][b] = w;
    });
  }
  return { sums, weights };
}

function intervalOf(sums: Float64Array, weights: Float64Array, level: number, resamples: number): Interval | null {
  const draws = new Float64Array(resamples);
  let kept = 0;
  for (let b = 0; b < resamples; b++) if (weights[b] > 0) draws[kept++] = sums[b] / weights[b];
  return percentileInterval(draws.slice(0, kept).sort(), level, resamples);
}

export function bootstrapMeanIntervals(
  columns: readonly (readonly (number | null)[])[],
  units: number,
  opts: BootstrapOptions & { memo?: MeanIntervalMemo; keys?: readonly string[] } = {},
): (Interval | null)[] {
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const level = opts.level ?? DEFAULT_LEVEL;
  const seed = opts.seed ?? DEFAULT_SEED;
  if (units === 0) return columns.map(() => null);
  const out = new Array<Interval | null>(columns.length);
  const todo: number[] = [];
  const counts = opts.memo && opts.keys ? drawCounts(units, resamples, seed) : null;
  columns.forEach((col, c) => {
    const kept = counts ? opts.memo!.get(opts.keys![c]) : undefined;
    if (
      !counts ||
      !kept ||
      kept.resamples !== resamples ||
      kept.seed !== seed ||
      kept.values.length !== units ||
      col.length !== units ||
      kept.updates > MAX_MEAN_UPDATES
    ) {
      todo.push(c);
      return;
    }
    out[c] = updatedInterval(kept, col, counts, units, resamples, level);
  });
  if (todo.length > 0) {
    const { sums, weights } = resampleSums(
      todo.map((c) => columns[c]),
      units,
      resamples,
      seed,
    );
    todo.forEach((c, t) => {
      out[c] = intervalOf(sums[t], weights[t], level, resamples);
      if (counts && opts.memo && opts.keys) {
        const col = columns[c];
        const values = Float64Array.from(col, (v) => v ?? 0);
        const defined = Uint8Array.from(col, (v) => (v === null ? 0 : 1));
        opts.memo.set(opts.keys[c], {
          resamples,
          seed,
          level,
          values,
          defined,
          sums: sums[t],
          weights: weights[t],
          updates: 0,
          interval: out[c],
        });
      }
    });
  }
  return out;
}

/** Past this many unit changes a kept column is summed anew (bounds the rounding drift). */
const MAX_MEAN_UPDATES = 10000;

function updatedInterval(
  kept: NonNullable<ReturnType<MeanIntervalMemo["get"]>>,
  col: readonly (number | null)[],
  counts: Uint8Array,
  units: number,
  resamples: number,
  level: number,
): Interval | null {
  let changed = false;
  let scale = 0;
  for (let i = 0; i < units; i++) {
    const v = col[i] ?? 0;
    const d = col[i] === null ? 0 : 1;
    scale = Math.max(scale, Math.abs(v), Math.abs(kept.values[i]));
    if (v === kept.values[i] && d === kept.defined[i]) continue;
    changed = true;
    kept.updates++;
    const dv = v - kept.values[i];
    const dw = d - kept.defined[i];
    for (let b = 0; b < resamples; b++) {
      const m = counts[b * units + i];
      if (m) {
        kept.sums[b] += m * dv;
        kept.weights[b] += m * dw;
      }
    }
    kept.values[i] = v;
    kept.defined[i] = d;
  }
  if (!changed && kept.level === level) return kept.interval;
  // Approximate means; weights are integer counts, so which resamples are kept is exact.
  const index = new Int32Array(resamples);
  const approx = new Float64Array(resamples);
  let n = 0;
  for (let b = 0; b < resamples; b++)
    if (kept.weights[b] > 0) {
      index[n] = b;
      approx[n++] = kept.sums[b] / kept.weights[b];
    }
  if (n === 0) {
    kept.level = level;
    kept.interval = null;
    return null;
  }
  const sorted = approx.slice(0, n).sort();
  // Both the kept and the exact sums are within this of the true sum (on the scale of a mean).
  const eps = 4e-16 * (units * units + (kept.updates + 1) * (units + 512)) * (1 + scale);
  const exact = (b: number) => {
    let s = 0;
    let w = 0;
    for (let i = 0; i < units; i++) {
      const m = counts[b * units + i];
      if (m) {
        s += m * kept.values[i];
        w += m * kept.defined[i];
      }
    }
    return s / w;
  };
  // The order statistic of rank r: the draws whose approximate mean is within 2·eps of the r-th
  // approximate one, summed exactly; those below the band rank below r for sure.
  const orderStat = (r: number) => {
    const lo = sorted[r] - 2 * eps;
    const hi = sorted[r] + 2 * eps;
    let below = 0;
    const band: number[] = [];
    for (let k = 0; k < n; k++) {
      if (approx[k] < lo) below++;
      else if (approx[k] <= hi) band.push(exact(index[k]));
    }
    band.sort((x, y) => x - y);
    return band[r - below];
  };
  const alpha = (1 - level) / 2;
  const quantile = (p: number) => {
    const h = (n - 1) * p;
    const lo = Math.floor(h);
    const hi = Math.min(n - 1, lo + 1);
    const a = orderStat(lo);
    const b = hi === lo ? a : orderStat(hi);
    return a + (h - lo) * (b - a);
  };
  kept.level = level;
  kept.interval = { low: quantile(alpha), high: quantile(1 - alpha), level, resamples };
  return kept.interval;
}
