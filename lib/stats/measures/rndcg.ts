import { discounts } from "./discount.ts";
import { gainOfLevel, IdealGains, type Gains } from "./gains.ts";
import type { RelInfo } from "./types.ts";

/**
 * Rndcg (trec_eval m_Rndcg.c, experimental): nDCG averaged at the R levels, the ranks where the
 * ideal ranking's gain changes (after the chunks of the top gain level, then the next, …) and at
 * the end of the retrieved list. 0 when the query has no relevant chunk. Gains as in gains.ts.
 */
export function rNdcg(r: RelInfo, gains: Gains): number {
  if (r.numRel === 0) return 0;
  const ideal = new IdealGains(gains);
  const lg = discounts(r.numRet + gains.total + 1);
  let results = 0;
  let idealDcg = 0;
  let sum = 0;
  let changes = 0;
  let old = ideal.gain;
  let i = 0;
  /** A level of the ideal ranking ends: the nDCG so far joins the average (once there is an ideal gain). */
  const closeLevel = () => {
    if (idealDcg > 0) {
      sum += results / idealDcg;
      changes++;
    }
  };
  /** The ideal gain at the next rank; where it changes, the level before is closed. */
  const nextIdeal = () => {
    const ig = ideal.next();
    if (old !== ig) {
      closeLevel();
      old = ig;
    }
    return ig;
  };
  for (; i < r.numRet && ideal.gain > 0; i++) {
    const g = gainOfLevel(r.rels[i], gains);
    const ig = nextIdeal();
    if (g !== 0) results += g / lg[i];
    if (ig > 0) idealDcg += ig / lg[i];
  }
  if (i < r.numRet) {
    for (; i < r.numRet; i++) {
      const g = gainOfLevel(r.rels[i], gains);
      if (g !== 0) results += g / lg[i];
    }
    closeLevel();
  }
  while (ideal.gain > 0) {
    const ig = nextIdeal();
    if (ig > 0) idealDcg += ig / lg[i];
    i++;
  }
  return sum / changes;
}
