/**
 * How many queries a confidence interval of a mean needs to reach a target half-width:
 * n = ceil((z · sd / h)²), with z the normal quantile for the level and sd the per-query
 * standard deviation observed so far (sample sd, n − 1). A normal approximation: for small n the
 * t quantile is a little larger, so treat the answer as a lower bound below ~30 queries.
 */
import { normalQuantile } from "./normal.ts";

export function sampleSd(values: readonly number[]): number {
  const n = values.length;
  if (n < 2) return NaN;
  let m = 0;
  for (const v of values) m += v;
  m /= n;
  let ss = 0;
  for (const v of values) ss += (v - m) ** 2;
  return Math.sqrt(ss / (n - 1));
}

export function queriesForHalfWidth(sd: number, halfWidth: number, level = 0.95): number {
  if (!(halfWidth > 0)) throw new RangeError(`half-width must be positive, got ${halfWidth}`);
  if (!Number.isFinite(sd)) return NaN;
  if (sd === 0) return 1;
  const z = normalQuantile(1 - (1 - level) / 2);
  return Math.ceil(((z * sd) / halfWidth) ** 2);
}
