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
