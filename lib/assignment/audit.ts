import { roundRobinByQuery, type TSampleCandidate } from "./sample.ts";
import type { RandomFn } from "../stats/random.ts";

/**
 * The audit sample of a transfer judge (`assessor assign --sample N --chunking B`):
 * N pairs of chunking B that label transfer graded, stratified by the derived grade, for blind
 * human labels against which the dashboard measures the transfer (kappa, confusion, per-grade
 * precision/recall, PPI).
 *
 * Candidates are only pairs with a derived grade (a pair the transfer left unjudged is pooled for
 * labelling anyway: `pool --chunking B`); the stratum is that grade (0–3; with several transfer
 * judges onto B, the median of their grades rounded down).
 *
 * Allocation, exactly (k non-empty strata, T candidates):
 * 1. N ≥ T: every candidate.
 * 2. N < k: one each from the N smallest strata (ties: the higher grade first): rare grades are
 *    where the transfer's precision is least known.
 * 3. Otherwise every stratum gets one, and the remaining r = N − k are shared in proportion to
 *    (size − 1) by the largest-remainder method (Hamilton): ⌊r·(size−1)/Σ(size−1)⌋ each, then one
 *    more to the largest fractional remainders (ties: the higher grade). A stratum never gets more
 *    than its size. Proportional allocation keeps the sample close to self-weighting; the minimum
 *    of one gives every derived grade a row in the confusion matrix.
 * Within a stratum the items are taken round-robin over its queries in seeded random order
 * (lib/assignment/sample.ts `roundRobinByQuery`), so the same seed and data give the same sample.
 */
export function auditAllocation(sizes: ReadonlyMap<number, number>, n: number): Map<number, number> {
  const strata = [...sizes.entries()].filter(([, s]) => s > 0).sort(([ga], [gb]) => gb - ga);
  const total = strata.reduce((a, [, s]) => a + s, 0);
  const out = new Map<number, number>(strata.map(([g]) => [g, 0]));
  if (n >= total) {
    for (const [g, s] of strata) out.set(g, s);
    return out;
  }
  if (n < strata.length) {
    for (const [g] of [...strata].sort(([ga, a], [gb, b]) => a - b || gb - ga).slice(0, n)) out.set(g, 1);
    return out;
  }
  const r = n - strata.length;
  const spare = total - strata.length;
  const quota = strata.map(([, s]) => (r * (s - 1)) / spare);
  const alloc = quota.map(Math.floor);
  let left = r - alloc.reduce((a, b) => a + b, 0);
  // strata are in descending grade order, and sort is stable: ties go to the higher grade.
  const byRemainder = strata.map((_, i) => i).sort((a, b) => quota[b] - alloc[b] - (quota[a] - alloc[a]));
  for (const i of byRemainder) {
    if (left === 0) break;
    alloc[i]++;
    left--;
  }
  strata.forEach(([g], i) => out.set(g, 1 + alloc[i]));
  return out;
}

/** The sample: `auditAllocation` per derived grade, round-robin over queries within each. */
export function auditSample<T extends TSampleCandidate & { judgeGrade: number }>(
  candidates: readonly T[],
  n: number,
  rng: RandomFn,
): T[] {
  const strata = new Map<number, T[]>();
  for (const c of candidates) {
    const list = strata.get(c.judgeGrade);
    if (list) list.push(c);
    else strata.set(c.judgeGrade, [c]);
  }
  const alloc = auditAllocation(new Map([...strata].map(([g, l]) => [g, l.length])), n);
  return [...strata.keys()]
    .sort((a, b) => b - a)
    .flatMap((g) => roundRobinByQuery(strata.get(g)!, rng).slice(0, alloc.get(g) ?? 0));
}
