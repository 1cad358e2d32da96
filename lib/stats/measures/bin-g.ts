import type { RelInfo } from "./types.ts";

/**
 * binG (trec_eval m_binG.c, experimental): for each relevant retrieved chunk,
 * 1 / log2(2 + non-relevant chunks ranked above it), summed and divided by num_rel.
 */
export function binG(r: RelInfo, level: number): number {
  let rel = 0;
  let sum = 0;
  for (let i = 0; i < r.numRet; i++) {
    if (r.rels[i] >= level) {
      rel++;
      sum += 1 / Math.log2(3 + i - rel);
    }
  }
  return rel ? sum / r.numRel : 0;
}
