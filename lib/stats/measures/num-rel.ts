import { numRelevant, type EvalOptions, type RankedQuery } from "./types.ts";

/**
 * num_rel (trec_eval): chunks the qrels mark relevant (grade ≥ relevance level) for the query,
 * retrieved or not. The summary over queries is the sum, not the mean.
 */
export function numRel(q: RankedQuery, opts: EvalOptions): number {
  return numRelevant(q, opts.relevanceLevel);
}
