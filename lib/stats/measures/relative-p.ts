import type { RelInfo } from "./types.ts";

/**
 * relative_P (trec_eval m_rel_P.c, printed relative_P_k): relevant among the top k divided by the
 * most a ranking could have there, min(k, num_rel): precision up to R, recall after it. 0 when the
 * query has no relevant chunk.
 */
export function relativeP(r: RelInfo, cutoffs: readonly number[]): number[] {
  return cutoffs.map((k) => (r.numRel ? r.relAt[Math.min(k, r.numRet)] / Math.min(k, r.numRel) : 0));
}
