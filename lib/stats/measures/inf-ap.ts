import { UNJUDGED, UNJUDGED_IN_POOL, type RelInfo } from "./types.ts";

/**
 * infAP (Yilmaz & Aslam 2006; trec_eval m_infap.c): inferred average precision for a pool judged
 * by sampling. A qrels value below 0 means "in the pool, not judged"; a chunk not in the qrels is
 * outside the pool. At each judged relevant chunk at 0-based rank j > 0:
 * 1/(j+1) + (j/(j+1)) · ((rel_above + nonrel_above + unjudged_in_pool_above) / j) ·
 * ((rel_above + ε) / (rel_above + nonrel_above + 2ε)), ε = 0.00001; 1 at rank 1. The sum is divided by
 * num_rel (kept as it is when there is no relevant chunk).
 */
const INFAP_EPSILON = 0.00001;

export function infAP(r: RelInfo, level: number): number {
  let nonrel = 0;
  let rel = 0;
  let unjudged = 0;
  let sum = 0;
  for (let j = 0; j < r.numRet; j++) {
    const v = r.rels[j];
    if (v === UNJUDGED) continue;
    if (v === UNJUDGED_IN_POOL) {
      unjudged++;
      continue;
    }
    if (v >= 0 && v < level) nonrel++;
    else {
      rel++;
      if (j === 0) sum += 1;
      else {
        const fj = j;
        sum +=
          1 / (fj + 1) +
          (fj / (fj + 1)) *
            ((rel - 1 + nonrel + unjudged) / fj) *
            ((rel - 1 + INFAP_EPSILON) / (rel - 1 + nonrel + 2 * INFAP_EPSILON));
      }
    }
  }
  return r.numRel ? sum / r.numRel : sum;
}
