import type { RelInfo } from "./types.ts";

/**
 * num_nonrel_judged_ret (trec_eval m_num_nonrel_judged_ret.c): retrieved chunks judged below the
 * relevance level (value ≥ 0); the summary is the sum.
 */
export function numNonrelJudgedRet(r: RelInfo): number {
  return r.numRet - r.numNonpool - r.numUnjudgedInPool - r.numRelRet;
}
