import { UNJUDGED, UNJUDGED_IN_POOL, type RelInfo } from "./types.ts";

/**
 * unj (trec_eval m_unjudged.c, printed unj_k): unjudged chunks (not in the qrels, or listed with a
 * negative value) among the top k, divided by k (ranks beyond the run count as judged). Default
 * cutoffs 5, 10, 20. Compare `unjudged.k`, ours, which divides by min(k, num_ret).
 */
export const UNJ_DEFAULTS = [5, 10, 20];

export function unj(r: RelInfo, cutoffs: readonly number[]): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  let c = 0;
  let n = 0;
  for (let i = 0; i < r.numRet; i++) {
    if (i === cutoffs[c]) {
      out[c] = n / i;
      if (++c === cutoffs.length) return out;
    }
    const v = r.rels[i];
    if (v === UNJUDGED || v === UNJUDGED_IN_POOL) n++;
  }
  for (; c < cutoffs.length; c++) out[c] = n / cutoffs[c];
  return out;
}
