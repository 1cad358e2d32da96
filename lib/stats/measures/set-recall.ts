import type { RelInfo } from "./types.ts";

/** set_recall (trec_eval m_set_recall.c): num_rel_ret / num_rel; 0 when the query has no relevant chunk. */
export function setRecall(r: RelInfo): number {
  return r.numRel ? r.numRelRet / r.numRel : 0;
}
