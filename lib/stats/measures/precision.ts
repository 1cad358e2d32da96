import type { EvalOptions, RankedQuery, RelInfo } from "./types.ts";

/**
 * P@k (trec_eval `P.k`, printed `P_k`): relevant chunks (grade ≥ relevance level) among the top k,
 * divided by k. As in trec_eval the divisor is always k, so a run that returns fewer than k chunks
 * is penalised for the missing ranks (a 3-chunk run with 3 relevant scores 0.3 at P@10). Unjudged
 * chunks count as non-relevant. Default cutoffs: 5, 10, 15, 20, 30, 100, 200, 500, 1000.
 */
export function precisionAt(q: RankedQuery, k: number, opts: EvalOptions): number {
  const n = Math.min(k, q.grades.length);
  let rel = 0;
  for (let i = 0; i < n; i++) if (q.grades[i] >= opts.relevanceLevel) rel++;
  return rel / k;
}

/** The same on trec_eval's RelInfo (m_P.c): relevant among the top min(k, num_ret), over k. */
export function precisionAtOf(r: RelInfo, k: number): number {
  return r.relAt[Math.min(k, r.numRet)] / k;
}
