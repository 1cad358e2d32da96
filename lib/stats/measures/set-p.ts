import type { RelInfo } from "./types.ts";

/** set_P (trec_eval m_set_P.c): num_rel_ret / num_ret over the whole retrieved set; 0 when nothing is retrieved. */
export function setP(r: RelInfo): number {
  return r.numRet ? r.numRelRet / r.numRet : 0;
}
