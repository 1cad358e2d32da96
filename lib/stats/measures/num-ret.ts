import type { RankedQuery } from "./types.ts";

/** num_ret (trec_eval): chunks retrieved for the query (no cap). The summary is the sum. */
export function numRet(q: RankedQuery): number {
  return q.grades.length;
}
