import type { EvalOptions, RankedQuery } from "./types.ts";

/** num_rel_ret (trec_eval): retrieved chunks with grade ≥ relevance level. The summary is the sum. */
export function numRelRet(q: RankedQuery, opts: EvalOptions): number {
  let n = 0;
  for (let i = 0; i < q.grades.length; i++) if (q.grades[i] >= opts.relevanceLevel) n++;
  return n;
}
