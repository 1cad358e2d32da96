import type { RelInfo } from "./types.ts";

/**
 * Rprec (trec_eval m_Rprec.c): precision after R = num_rel chunks have been retrieved, i.e.
 * relevant among the top min(R, num_ret) divided by R. 0 when the query has no relevant chunk or
 * nothing is retrieved.
 */
export function rPrec(r: RelInfo): number {
  const n = Math.min(r.numRet, r.numRel);
  return n === 0 ? 0 : r.relAt[n] / r.numRel;
}
