import { numRelevant, type EvalOptions, type RankedQuery, type RelInfo } from "./types.ts";

/**
 * Recall@k (trec_eval `recall.k`, printed `recall_k`): relevant chunks among the top k divided by
 * num_rel, the number of chunks the qrels mark relevant (grade ≥ relevance level) for the query,
 * retrieved or not. A query with no relevant chunk scores 0 (trec_eval's convention) and still
 * counts in the mean. Default cutoffs as P.
 */
export function recallAt(q: RankedQuery, k: number, opts: EvalOptions): number {
  const numRel = numRelevant(q, opts.relevanceLevel);
  if (numRel === 0) return 0;
  const n = Math.min(k, q.grades.length);
  let rel = 0;
  for (let i = 0; i < n; i++) if (q.grades[i] >= opts.relevanceLevel) rel++;
  return rel / numRel;
}

/** The same on trec_eval's RelInfo (m_recall.c). */
export function recallAtOf(r: RelInfo, k: number): number {
  return r.numRel ? r.relAt[Math.min(k, r.numRet)] / r.numRel : 0;
}
