import type { RelInfo } from "./types.ts";

/** set_map (trec_eval m_set_map.c): num_rel_ret² / (num_ret · num_rel), set precision × set recall; 0 when either count is 0. */
export function setMap(r: RelInfo): number {
  return r.numRet && r.numRel ? (r.numRelRet * r.numRelRet) / (r.numRet * r.numRel) : 0;
}
