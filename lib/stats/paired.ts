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
  if (a.length !== b.length) throw new RangeError(`paired test: ${a.length} vs ${b.length} values (pair them by query first)`);
  const d = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) d[i] = b[i] - a[i];
  return d;
}

const EPS = 1e-12;

/** Two-sided paired randomization test of mean(b − a). */
export function pairedRandomizationTest(a: readonly number[], b: readonly number[], opts: { trials?: number; seed?: number } = {}): PairedResult {
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
 * sums are tabulated once per test, so a trial costs n/8 look-ups instead of n additions. A table
 * sum is the same number as the sequential one up to rounding (ulps), which can only matter when
 * |flipped sum| sits next to the threshold |observed| − ε: those trials (ties, e.g. every sign
 * unchanged) are summed again in pairedRandomizationTest's order, so the counts, hence the
 * p-values, are identical (tests/unit/stats/uncertainty.test.ts).
 */
export function pairedRandomizationTests(pairs: readonly { a: readonly number[]; b: readonly number[] }[], opts: { trials?: number; seed?: number } = {}): PairedResult[] {
  const trials = opts.trials ?? 10000;
  const seed = opts.seed ?? DEFAULT_SEED;
  const diffs = pairs.map((p) => differences(p.a, p.b));
  const out = new Array<PairedResult>(pairs.length);
  const byLength = new Map<number, number[]>();
  diffs.forEach((d, k) => {
    const list = byLength.get(d.length);
    if (list) list.push(k);
    else byLength.set(d.length, [k]);
  });
  for (const [n, tests] of byLength) {
    if (n === 0) {
      for (const k of tests) out[k] = { n, meanDiff: 0, p: 1, trials };
      continue;
    }
    // Sign bits of every trial, drawn in pairedRandomizationTest's order (trial by trial, query by
    // query): bit b of codes[t·blocks + j] is set when query 8j + b keeps its sign in trial t.
    const blocks = Math.ceil(n / 8);
    const codes = new Uint8Array(trials * blocks);
    const rng = seededRng(seed);
    for (let t = 0; t < trials; t++)
      for (let i = 0; i < n; i++) if (rng.next() < 0.5) codes[t * blocks + (i >> 3)] |= 1 << (i & 7);
    const table = new Float64Array(blocks * 256);
    for (const k of tests) {
      const d = diffs[k];
      let obs = 0;
      let abs = 0;
      for (let i = 0; i < n; i++) {
        obs += d[i];
        abs += Math.abs(d[i]);
      }
      const absObs = Math.abs(obs) - EPS;
      // Both sums are within n·2⁻⁵³·Σ|d| of the exact one; a margin far above that.
      const margin = 1e-9 * (1 + abs);
      for (let j = 0; j < blocks; j++) {
        const base = j * 256;
        const size = Math.min(8, n - 8 * j);
        let all = 0;
        for (let b = 0; b < size; b++) all -= d[8 * j + b];
        table[base] = all;
        for (let code = 1; code < 256; code++) {
          const low = 31 - Math.clz32(code & -code);
          table[base + code] = low < size ? table[base + (code & (code - 1))] + 2 * d[8 * j + low] : table[base + (code & (code - 1))];
        }
      }
      let extreme = 0;
      for (let t = 0; t < trials; t++) {
        const row = t * blocks;
        let s = 0;
        for (let j = 0; j < blocks; j++) s += table[j * 256 + codes[row + j]];
        let a = Math.abs(s);
        if (Math.abs(a - absObs) <= margin) {
          s = 0;
          for (let i = 0; i < n; i++) s += codes[row + (i >> 3)] & (1 << (i & 7)) ? d[i] : -d[i];
          a = Math.abs(s);
        }
        if (a >= absObs) extreme++;
      }
      out[k] = { n, meanDiff: obs / n, p: (extreme + 1) / (trials + 1), trials };
    }
  }
  return out;
}

/** Two-sided paired bootstrap test of mean(b − a), with a percentile CI of the difference. */
export function pairedBootstrapTest(a: readonly number[], b: readonly number[], opts: { resamples?: number; seed?: number; level?: number } = {}): PairedResult & { ci: Interval | null } {
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
  return { n, meanDiff: obs, p: (extreme + 1) / (resamples + 1), trials: resamples, ci: { low: quantileSorted(means, alpha), high: quantileSorted(means, 1 - alpha), level, resamples } };
}
