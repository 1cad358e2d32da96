import { UNJUDGED, UNJUDGED_IN_POOL, type RelInfo } from "./types.ts";

/**
 * bpref (Buckley & Voorhees 2004; trec_eval m_bpref.c): for each judged relevant retrieved chunk,
 * 1 − min(judged non-relevant ranked above it, R) / min(judged non-relevant in the qrels, R),
 * summed and divided by R = num_rel. Unjudged chunks (not in the qrels, or listed with a negative
 * value) are skipped; a relevant chunk with no judged non-relevant above it adds 1. "Non-relevant"
 * is a judged value below the relevance level. 0 when the query has no relevant chunk.
 */
export function bpref(r: RelInfo, level: number): number {
  let numNonrel = 0;
  for (let j = 0; j < level && j < r.relLevels.length; j++) numNonrel += r.relLevels[j];
  let nonrelSoFar = 0;
  let sum = 0;
  for (let j = 0; j < r.numRet; j++) {
    const v = r.rels[j];
    if (v === UNJUDGED || v === UNJUDGED_IN_POOL) continue;
    if (v >= 0 && v < level) nonrelSoFar++;
    else sum += nonrelSoFar > 0 ? 1 - Math.min(nonrelSoFar, r.numRel) / Math.min(numNonrel, r.numRel) : 1;
  }
  return r.numRel ? sum / r.numRel : sum;
}
