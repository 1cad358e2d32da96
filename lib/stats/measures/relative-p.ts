import type { RelInfo } from "./types.ts";

/**
 * relative_P (trec_eval m_rel_P.c, printed relative_P_k): relevant among the top k divided by the
 * most a ranking could have there, min(k, num_rel): precision up to R, recall after it. 0 when the
 * query has no relevant chunk.
 */
export function relativeP(r: RelInfo, level: number, cutoffs: readonly number[]): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  if (r.numRel === 0) return out;
  let c = 0;
  let rel = 0;
  for (let i = 0; i < r.numRet; i++) {
    if (i === cutoffs[c]) {
      out[c] = rel / Math.min(i, r.numRel);
      if (++c === cutoffs.length) return out;
    }
    if (r.rels[i] >= level) rel++;
  }
  for (; c < cutoffs.length; c++) out[c] = rel / Math.min(cutoffs[c], r.numRel);
  return out;
}
