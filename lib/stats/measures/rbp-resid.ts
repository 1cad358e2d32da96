import type { RelInfo } from "./types.ts";

/**
 * rbp_resid (trec_eval m_rbp_resid.c): the residual of rbp, how much rbp could still rise if every
 * unjudged retrieved chunk (value < 0) had gain 1 and the ranking went on with relevant chunks:
 * p^num_ret + (1 − p) Σ over unjudged ranks of p^(i−1). 0 when no retrieved chunk is unjudged.
 */
export function rbpResid(r: RelInfo, p: number): number {
  let unj = 0;
  let sum = 0;
  let curP = 1;
  for (let i = 0; i < r.numRet; i++) {
    if (r.rels[i] < 0) {
      unj++;
      sum += curP;
    }
    curP *= p;
  }
  return unj ? curP + (1 - p) * sum : 0;
}
