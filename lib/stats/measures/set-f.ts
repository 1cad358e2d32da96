import type { RelInfo } from "./types.ts";

/**
 * set_F (trec_eval m_set_F.c, van Rijsbergen's F): (β + 1)·P·R / (β·P + R) over the retrieved
 * set, with β the parameter (`-m set_F.0.5`, default 1, printed set_F_0.5 when given); 0 when
 * nothing relevant is retrieved.
 */
export const SET_F_DEFAULT = 1;

export function setF(r: RelInfo, beta: number): number {
  if (!r.numRelRet) return 0;
  const p = r.numRelRet / r.numRet;
  const rec = r.numRelRet / r.numRel;
  return ((beta + 1) * p * rec) / (beta * p + rec);
}
