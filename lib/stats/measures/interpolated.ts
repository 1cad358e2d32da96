import type { RelInfo } from "./types.ts";

/**
 * Interpolated precision at recall points, the walk trec_eval 10.0's m_iprec_at_recall.c and
 * m_11pt_avg.c share (ported from usnistgov/trec_eval v10.0, commit f4253652): each recall
 * fraction f becomes a number of relevant chunks lround(f · num_rel) (C's lround: nearest, halves
 * away from zero; trec_eval 9 and earlier used trunc(f · num_rel + 0.9), which v10.0 replaced);
 * interpolated precision at a rank is the highest precision at that rank or below. Points beyond the relevant chunks retrieved get the interpolated precision reached at
 * the end of the walk (0 when nothing relevant is retrieved). With nothing retrieved the value is
 * 0/0 (NaN), as in trec_eval.
 */
export function interpolatedPrecision(r: RelInfo, level: number, fractions: readonly number[]): number[] {
  const out = new Array<number>(fractions.length).fill(0);
  const cutoffs = fractions.map((f) => lround(f * r.numRel));
  let cut = fractions.length - 1;
  while (cut >= 0 && cutoffs[cut] > r.numRelRet) cut--;
  let intPrecis = r.numRelRet / r.numRet;
  let relSoFar = r.numRelRet;
  for (let i = r.numRet; i > 0 && relSoFar > 0; i--) {
    const precis = relSoFar / i;
    if (intPrecis < precis) intPrecis = precis;
    if (r.rels[i - 1] >= level) {
      while (cut >= 0 && relSoFar === cutoffs[cut]) out[cut--] = intPrecis;
      relSoFar--;
    }
  }
  while (cut >= 0) out[cut--] = intPrecis;
  return out;
}

/** C's lround: the nearest integer, halves rounded away from zero (Math.round rounds -2.5 to -2). */
export function lround(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}
