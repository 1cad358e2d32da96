/**
 * Significance of the difference between two runs on the same queries (paired by query).
 *
 * - Randomization (permutation) test: under the null hypothesis the two runs' scores on a query
 *   are exchangeable, so each per-query difference's sign is flipped at random; the two-sided
 *   p-value is (1 + #{|mean of flipped differences| ≥ |observed mean|}) / (1 + trials)
 *   (Smucker, Allan & Carterette 2007 recommend this test for IR).
 * - Paired bootstrap test (Sakai 2006): resample queries with replacement; the differences are
 *   shifted to mean 0 (the null) and p = (1 + #{|resampled mean − observed| ≥ |observed|}) /
 *   (1 + resamples). Also gives a percentile CI of the mean difference.
 * The +1 terms keep p away from an impossible 0 with a finite number of draws.
 */
import { seededRng } from "./random.ts";
import { DEFAULT_LEVEL, DEFAULT_SEED, quantileSorted, type Interval } from "./bootstrap.ts";

export type PairedResult = { n: number; meanDiff: number; p: number; trials: number };

function differences(a: readonly number[], b: readonly number[]): Float64Array {
  if (a.length !== b.length)
    throw new RangeError(`paired test: ${a.length} vs ${b.length} values (pair them by query first)`);
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = b[i] - a[i];
  return d;
}

const EPS = 1e-12;

/** Two-sided paired randomization test of mean(b − a). */
export function pairedRandomizationTest(
  a: readonly number[],
  b: readonly number[],
  opts: { trials?: number; seed?: number } = {},
): PairedResult {
  const d = differences(a, b);
  const n = d.length;
  const trials = opts.trials ?? 10000;
  if (n === 0) return { n, meanDiff: 0, p: 1, trials };
  let obs = 0;
  for (let i = 0; i < n; i++) obs += d[i];
  const absObs = Math.abs(obs) - EPS;
  const rng = seededRng(opts.seed ?? DEFAULT_SEED);
  let extreme = 0;
  for (let t = 0; t < trials; t++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += rng.next() < 0.5 ? d[i] : -d[i];
    if (Math.abs(s) >= absObs) extreme++;
  }
  return { n, meanDiff: obs / n, p: (extreme + 1) / (trials + 1), trials };
}

/**
 * pairedRandomizationTest for many pairs at once (e.g. every run against one baseline, every
 * measure), with exactly its results: with one seed the sign flips depend only on the number of
 * pairs, so tests of equal length share one set of flips, drawn once.
 *
 * The flipped sums use the "four Russians" trick: per block of 8 queries, the 256 possible signed
 * sums are tabulated once per test, so a trial costs n/8 look-ups instead of n additions. With a
 * `memo` (and a key per test), a test seen before keeps its flipped sums and only adds the change
 * of the differences that changed (O(trials) per changed query). Either way a flipped sum is the
 * sequential one up to rounding (ulps), which can only matter when |flipped sum| sits next to the
 * threshold |observed| − ε: those trials (ties, e.g. every sign unchanged) are summed again in
 * pairedRandomizationTest's order, so the counts, hence the p-values, are identical
 * (tests/unit/stats/uncertainty.test.ts).
 */
export type PairedMemo = Map<
  string,
  { trials: number; seed: number; d: Float64Array; sums: Float64Array; updates: number }
>;

/** Sign bits of every trial for n pairs, in pairedRandomizationTest's order of draws. */
const flipCache = new Map<string, Uint8Array>();
function flipCodes(n: number, trials: number, seed: number): Uint8Array {
  const key = `${n} ${trials} ${seed}`;
  let codes = flipCache.get(key);
  if (codes) return codes;
  // Bit b of codes[t·blocks + j] is set when query 8j + b keeps its sign in trial t.
  const blocks = Math.ceil(n / 8);
  codes = new Uint8Array(trials * blocks);
  const rng = seededRng(seed);
  for (let t = 0; t < trials; t++)
    for (let i = 0; i < n; i++) if (rng.next() < 0.5) codes[t * blocks + (i >> 3)] |= 1 << (i & 7);
  flipCache.set(key, codes);
  while (flipCache.size > 16) flipCache.delete(flipCache.keys().next().value as string);
  return codes;
}

/** Drift of the kept sums stays far below the margin; past this many updates they are recomputed. */
const MAX_UPDATES = 10000;

export function pairedRandomizationTests(
  pairs: readonly { a: readonly number[]; b: readonly number[] }[],
  opts: { trials?: number; seed?: number; memo?: PairedMemo; keys?: readonly string[] } = {},
): PairedResult[] {
  const trials = opts.trials ?? 10000;
  const seed = opts.seed ?? DEFAULT_SEED;
  const table = new Float64Array(256);
  return pairs.map((p, k): PairedResult => {
    const d = differences(p.a, p.b);
    const n = d.length;
    if (n === 0) return { n, meanDiff: 0, p: 1, trials };
    const blocks = Math.ceil(n / 8);
    const codes = flipCodes(n, trials, seed);
    let obs = 0;
    let abs = 0;
    for (let i = 0; i < n; i++) {
      obs += d[i];
      abs += Math.abs(d[i]);
    }
    // Identical on every query: every flipped sum is exactly 0, as extreme as the observed 0.
    if (abs === 0) return { n, meanDiff: 0, p: 1, trials };
    const absObs = Math.abs(obs) - EPS;
    // Both sums are within n·2⁻⁵³·Σ|d| (plus the drift of kept sums) of the exact one; a margin far above that.
    const margin = 1e-9 * (1 + abs);
    const key = opts.keys?.[k];
    const kept = key === undefined ? undefined : opts.memo?.get(key);
    let sums: Float64Array;
    let updates = 0;
    if (kept && kept.trials === trials && kept.seed === seed && kept.d.length === n && kept.updates < MAX_UPDATES) {
      sums = kept.sums;
      updates = kept.updates;
      for (let i = 0; i < n; i++) {
        const delta = d[i] - kept.d[i];
        if (delta === 0) continue;
        updates++;
        const j = i >> 3;
        const bit = 1 << (i & 7);
        for (let t = 0; t < trials; t++) sums[t] += codes[t * blocks + j] & bit ? delta : -delta;
      }
    } else {
      sums = new Float64Array(trials);
      for (let j = 0; j < blocks; j++) {
        // The 256 signed sums of block j, then every trial's look-up.
        const size = Math.min(8, n - 8 * j);
        let all = 0;
        for (let b = 0; b < size; b++) all -= d[8 * j + b];
        table[0] = all;
        for (let code = 1; code < 256; code++) {
          const low = 31 - Math.clz32(code & -code);
          table[code] = low < size ? table[code & (code - 1)] + 2 * d[8 * j + low] : table[code & (code - 1)];
        }
        for (let t = 0; t < trials; t++) sums[t] += table[codes[t * blocks + j]];
      }
    }
    if (key !== undefined && opts.memo) opts.memo.set(key, { trials, seed, d, sums, updates });
    // The exact sums only need the non-zero differences (adding ±0 leaves a sum unchanged).
    const nonZero = new Int32Array(n);
    let nz = 0;
    for (let i = 0; i < n; i++) if (d[i] !== 0) nonZero[nz++] = i;
    let extreme = 0;
    for (let t = 0; t < trials; t++) {
      let a = Math.abs(sums[t]);
      if (Math.abs(a - absObs) <= margin) {
        const row = t * blocks;
        let s = 0;
        for (let q = 0; q < nz; q++) {
          const i = nonZero[q];
          s += codes[row + (i >> 3)] & (1 << (i & 7)) ? d[i] : -d[i];
        }
        a = Math.abs(s);
      }
      if (a >= absObs) extreme++;
    }
    return { n, meanDiff: obs / n, p: (extreme + 1) / (trials + 1), trials };
  });
}

/** Two-sided paired bootstrap test of mean(b − a), with a percentile CI of the difference. */
export function pairedBootstrapTest(
  a: readonly number[],
  b: readonly number[],
  opts: { resamples?: number; seed?: number; level?: number } = {},
): PairedResult & { ci: Interval | null } {
  const d = differences(a, b);
  const n = d.length;
  const resamples = opts.resamples ?? 10000;
  const level = opts.level ?? DEFAULT_LEVEL;
  if (n === 0) return { n, meanDiff: 0, p: 1, trials: resamples, ci: null };
  let obs = 0;
  for (let i = 0; i < n; i++) obs += d[i];
  obs /= n;
  const rng = seededRng(opts.seed ?? DEFAULT_SEED);
  const means = new Float64Array(resamples);
  let extreme = 0;
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += d[rng.int(n)];
    const m = s / n;
    means[r] = m;
    if (Math.abs(m - obs) >= Math.abs(obs) - EPS) extreme++;
  }
  means.sort();
  const alpha = (1 - level) / 2;
  return {
    n,
    meanDiff: obs,
    p: (extreme + 1) / (resamples + 1),
    trials: resamples,
    ci: { low: quantileSorted(means, alpha), high: quantileSorted(means, 1 - alpha), level, resamples },
  };
}
