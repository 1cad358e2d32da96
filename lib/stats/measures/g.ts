import { gainOfLevel, IdealGains, type Gains } from "./gains.ts";
import type { RelInfo } from "./types.ts";

/**
 * G (trec_eval m_G.c, experimental normalised gain): a chunk at rank i with gain g adds
 * g / log2(2 + cost(i) − gained(i)), where gained(i) is the gain of the ranking so far and cost(i)
 * the ideal ranking's gain so far (at least 1 per rank); the sum is divided by the ideal total
 * gain. Gains as in gains.ts (`-m G.1=3,2=9`).
 */
export function gMeasure(r: RelInfo, gains: Gains): number {
  const ideal = new IdealGains(gains);
  let resultsG = 0;
  let sumResults = 0;
  let sumIdeal = 0;
  let sumCost = 0;
  const minCost = 1;
  let i = 0;
  for (; i < r.numRet && ideal.gain > 0; i++) {
    const g = gainOfLevel(r.rels[i], gains);
    sumResults += g;
    const ig = ideal.next();
    if (ig > 0) sumIdeal += ig;
    sumCost += ig >= minCost ? ig : minCost;
    if (g !== 0) resultsG += g / Math.log2(2 + sumCost - sumResults);
  }
  for (; i < r.numRet; i++) {
    const g = gainOfLevel(r.rels[i], gains);
    sumResults += g;
    sumCost += minCost;
    if (g !== 0) resultsG += g / Math.log2(2 + sumCost - sumResults);
  }
  while (ideal.gain > 0) {
    const ig = ideal.next();
    if (ig > 0) sumIdeal += ig;
  }
  return sumIdeal > 0 ? resultsG / sumIdeal : 0;
}
