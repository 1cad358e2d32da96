import { numRelevant, type EvalOptions, type RankedQuery, type RelInfo } from "./types.ts";

/**
 * Average precision (trec_eval `map` per query): the sum of P@r over the ranks r of relevant
 * retrieved chunks, divided by num_rel (all chunks the qrels mark relevant at the relevance level,
 * retrieved or not), so relevant chunks never retrieved contribute 0. A query with no relevant
 * chunk scores 0. Chunks graded below the level are judged non-relevant.
 */
export function averagePrecision(q: RankedQuery, opts: EvalOptions): number {
  const numRel = numRelevant(q, opts.relevanceLevel);
  if (numRel === 0) return 0;
  let relSoFar = 0;
  let sum = 0;
  for (let i = 0; i < q.grades.length; i++) {
    if (q.grades[i] >= opts.relevanceLevel) {
      relSoFar++;
      sum += relSoFar / (i + 1);
    }
  }
  return sum / numRel;
}

/**
 * The same on trec_eval's RelInfo (m_map.c): Σ P@r over relevant retrieved ranks / num_rel, 0 when
 * nothing relevant is retrieved (the sum is RelInfo's running AP sum).
 */
export function averagePrecisionOf(r: RelInfo): number {
  return r.relAt[r.numRet] ? r.apAt[r.numRet] / r.numRel : 0;
}
