import type { RelInfo } from "./types.ts";

/**
 * unj (trec_eval m_unjudged.c, printed unj_k): unjudged chunks (not in the qrels, or listed with a
 * negative value) among the top k, divided by k (ranks beyond the run count as judged). Default
 * cutoffs 5, 10, 20. Compare `unjudged.k`, ours, which divides by min(k, num_ret).
 */
export const UNJ_DEFAULTS = [5, 10, 20];

export function unj(r: RelInfo, cutoffs: readonly number[]): number[] {
  return cutoffs.map((k) => r.unjAt[Math.min(k, r.numRet)] / k);
}
