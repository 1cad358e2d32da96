import type { RelInfo } from "./types.ts";

/**
 * map_cut (trec_eval m_map_cut.c, printed map_cut_k): average precision of the top k: Σ P@r over
 * relevant ranks r ≤ k, divided by num_rel (all relevant chunks, retrieved or not). 0 when the
 * query has no relevant chunk. Default cutoffs 5, 10, 15, 20, 30, 100, 200, 500, 1000.
 */
export function mapCut(r: RelInfo, level: number, cutoffs: readonly number[]): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  if (r.numRel === 0) return out;
  let c = 0;
  let rel = 0;
  let sum = 0;
  for (let i = 0; i < r.numRet; i++) {
    if (i === cutoffs[c]) {
      out[c] = sum / r.numRel;
      if (++c === cutoffs.length) return out;
    }
    if (r.rels[i] >= level) {
      rel++;
      sum += rel / (i + 1);
    }
  }
  for (; c < cutoffs.length; c++) out[c] = sum / r.numRel;
  return out;
}
