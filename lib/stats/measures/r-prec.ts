import type { RelInfo } from "./types.ts";

/**
 * Rprec (trec_eval m_Rprec.c): precision after R = num_rel chunks have been retrieved, i.e.
 * relevant among the top min(R, num_ret) divided by R. 0 when the query has no relevant chunk or
 * nothing is retrieved.
 */
export function rPrec(r: RelInfo, level: number): number {
  const n = Math.min(r.numRet, r.numRel);
  if (n === 0) return 0;
  let rel = 0;
  for (let i = 0; i < n; i++) if (r.rels[i] >= level) rel++;
  return rel / r.numRel;
}
