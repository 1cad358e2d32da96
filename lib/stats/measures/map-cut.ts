import type { RelInfo } from "./types.ts";

/**
 * map_cut (trec_eval m_map_cut.c, printed map_cut_k): average precision of the top k: Σ P@r over
 * relevant ranks r ≤ k, divided by num_rel (all relevant chunks, retrieved or not). 0 when the
 * query has no relevant chunk. Default cutoffs 5, 10, 15, 20, 30, 100, 200, 500, 1000.
 */
export function mapCut(r: RelInfo, cutoffs: readonly number[]): number[] {
  return cutoffs.map((k) => (r.numRel ? r.apAt[Math.min(k, r.numRet)] / r.numRel : 0));
}
