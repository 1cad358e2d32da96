import type { RelInfo } from "./types.ts";

/** set_relative_P (trec_eval m_set_rel_P.c): num_rel_ret / min(num_ret, num_rel); 0 when either is 0. */
export function setRelativeP(r: RelInfo): number {
  return r.numRet && r.numRel ? r.numRelRet / Math.min(r.numRet, r.numRel) : 0;
}
