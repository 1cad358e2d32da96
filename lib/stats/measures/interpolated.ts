import type { RelInfo } from "./types.ts";

/**
 * Interpolated precision at recall points, the walk trec_eval's m_iprec_at_recall.c and
 * m_11pt_avg.c share: each recall fraction f becomes a number of relevant chunks
 * trunc(f · num_rel + 0.9); interpolated precision at a rank is the highest precision at that rank
 * or below. Points beyond the relevant chunks retrieved get the interpolated precision reached at
 * the end of the walk (0 when nothing relevant is retrieved). With nothing retrieved the value is
 * 0/0 (NaN), as in trec_eval.
 */
export function interpolatedPrecision(r: RelInfo, level: number, fractions: readonly number[]): number[] {
  const out = new Array<number>(fractions.length).fill(0);
  const cutoffs = fractions.map((f) => Math.trunc(f * r.numRel + 0.9));
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
