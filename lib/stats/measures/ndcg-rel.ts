import { discounts } from "./discount.ts";
import { gainOfLevel, IdealGains, type Gains } from "./gains.ts";
import type { RelInfo } from "./types.ts";

/**
 * ndcg_rel (trec_eval m_ndcg_rel.c, experimental): nDCG averaged over the relevant chunks (ideal
 * gain > 0): at each retrieved chunk with a positive gain, DCG so far / ideal DCG so far; each
 * relevant chunk not retrieved adds the final DCG / final ideal DCG. Divided by the number of
 * relevant chunks; 0 when that sum is not positive. Gains as in gains.ts.
 */
export function ndcgRel(r: RelInfo, gains: Gains): number {
  const ideal = new IdealGains(gains);
  const lg = discounts(r.numRet + gains.total + 1);
  let results = 0;
  let idealDcg = 0;
  let sum = 0;
  let numRelRet = 0;
  let numRel = 0;
  let i = 0;
  for (; i < r.numRet && ideal.gain > 0; i++) {
    const g = gainOfLevel(r.rels[i], gains);
    if (g !== 0) results += g / lg[i];
    const ig = ideal.next();
    if (ig > 0) {
      numRel++;
      idealDcg += ig / lg[i];
    }
    if (g > 0) {
      sum += results / idealDcg;
      numRelRet++;
    }
  }
  for (; i < r.numRet; i++) {
    const g = gainOfLevel(r.rels[i], gains);
    if (g !== 0) results += g / lg[i];
    if (g > 0) {
      sum += results / idealDcg;
      numRelRet++;
    }
  }
  while (ideal.gain > 0) {
    const ig = ideal.next();
    if (ig > 0) {
      numRel++;
      idealDcg += ig / lg[i];
    }
    i++;
  }
  sum += ((numRel - numRelRet) * results) / idealDcg;
  return sum > 0 ? sum / numRel : 0;
}
