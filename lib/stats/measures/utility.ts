import type { RelInfo } from "./types.ts";

/**
 * utility (trec_eval m_utility.c): a·(relevant retrieved) + b·(non-relevant retrieved) +
 * c·(relevant not retrieved) + d·(non-relevant not retrieved), the last counted from the collection
 * size (-N, default 0). Coefficients `-m utility.a,b,c,d` (default 1,-1,0,0); the summary is the
 * mean, as in trec_eval. Unjudged retrieved chunks count as non-relevant retrieved.
 */
export const UTILITY_DEFAULTS = [1, -1, 0, 0];

export function utility(r: RelInfo, coefficients: readonly number[], numDocsInCollection: number): number {
  const [a, b, c, d] = coefficients;
  return (
    a * r.numRelRet +
    b * (r.numRet - r.numRelRet) +
    c * (r.numRel - r.numRelRet) +
    d * (numDocsInCollection + r.numRelRet - r.numRet - r.numRel)
  );
}
