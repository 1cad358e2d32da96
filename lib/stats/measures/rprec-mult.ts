import type { RelInfo } from "./types.ts";

/**
 * Rprec_mult (trec_eval m_Rprec_mult.c, printed Rprec_mult_0.20 …): precision at multiples m of
 * R = num_rel, at rank trunc(m · R + 0.9) (default m = 0.2, 0.4, …, 2.0; `-m Rprec_mult.0.2`). A rank
 * beyond the retrieved chunks divides num_rel_ret by it; a rank reached is the precision there,
 * taken on a walk from the bottom that stops at the last relevant chunk (ranks above it keep 0).
 */
export const RPREC_MULT_DEFAULTS = [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2];

export function rPrecMult(r: RelInfo, level: number, multiples: readonly number[]): number[] {
  const out = new Array<number>(multiples.length).fill(0);
  const cutoffs = multiples.map((m) => Math.trunc(m * r.numRel + 0.9));
  let cut = multiples.length - 1;
  while (cut >= 0 && cutoffs[cut] > r.numRet) {
    out[cut] = r.numRelRet / cutoffs[cut];
    cut--;
  }
  let relSoFar = r.numRelRet;
  for (let i = r.numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    while (cut >= 0 && i === cutoffs[cut]) out[cut--] = precis;
    if (r.rels[i - 1] >= level) relSoFar--;
  }
  return out;
}
