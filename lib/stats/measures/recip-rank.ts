import type { EvalOptions, RankedQuery } from "./types.ts";

/**
 * Reciprocal rank (trec_eval `recip_rank`; its mean over queries is MRR): 1 / rank of the first
 * relevant chunk (grade ≥ relevance level) in the evaluated order, 0 when none is retrieved.
 */
export function reciprocalRank(q: RankedQuery, opts: EvalOptions): number {
  for (let i = 0; i < q.grades.length; i++) if (q.grades[i] >= opts.relevanceLevel) return 1 / (i + 1);
  return 0;
}

/** Rank (1-based) of the first relevant chunk, or 0 when none is retrieved. */
export function firstRelevantRank(q: RankedQuery, opts: EvalOptions): number {
  for (let i = 0; i < q.grades.length; i++) if (q.grades[i] >= opts.relevanceLevel) return i + 1;
  return 0;
}
