import type { RankedQuery } from "./types.ts";

/**
 * judged@k (ours, `judged.k`, printed `judged_k`): the share of the top k retrieved chunks that have
 * any judgement in the qrels (any grade, 0 included), i.e. how much of the system's ranking the
 * pool covered. The divisor is min(k, num_ret), so a run returning fewer than k chunks is not
 * penalised for ranks it did not fill; a query with nothing retrieved scores 0.
 * Its complement `unjudged.k` is 1 − judged@k (0 when nothing is retrieved).
 */
export function judgedAt(q: RankedQuery, k: number): number {
  const n = Math.min(k, q.grades.length);
  if (n === 0) return 0;
  let judged = 0;
  for (let i = 0; i < n; i++) if (q.grades[i] >= 0) judged++;
  return judged / n;
}

export function unjudgedAt(q: RankedQuery, k: number): number {
  return q.grades.length === 0 ? 0 : 1 - judgedAt(q, k);
}
