/**
 * What every retrieval measure sees: one query's ranking in the evaluated order (lib/stats/order.ts)
 * with the grade of each retrieved chunk, plus what the qrels say about the query as a whole.
 */
export const UNJUDGED = -1;

export type RankedQuery = {
  qid: string;
  /** Grade of the chunk at each rank (index 0 = rank 1); UNJUDGED when the qrels do not judge it. */
  grades: ArrayLike<number>;
  /**
   * Docids in the same order. Only start_error reads them; a caller that does not compute it may
   * leave them out to save memory on large runs.
   */
  docids?: readonly string[];
  /** How many chunks of this query the qrels judge at each grade: judgedAtGrade[g] for g = 0, 1, … (the highest grade in the qrels; negative values are not counted). */
  judgedAtGrade: readonly number[];
};

/** Options shared by all measures of one evaluation. */
export type EvalOptions = {
  /** trec_eval -l: the lowest grade that counts as relevant for binary measures (default 1). */
  relevanceLevel: number;
};

/** Number of chunks in the qrels with grade ≥ level: trec_eval's num_rel. */
export function numRelevant(q: RankedQuery, level: number): number {
  let n = 0;
  for (let g = Math.max(level, 0); g < q.judgedAtGrade.length; g++) n += q.judgedAtGrade[g];
  return n;
}

/** An empty ranking for a query of the qrels that the run does not answer (trec_eval -c). */
export function emptyRanking(qid: string, judgedAtGrade: readonly number[]): RankedQuery {
  return { qid, grades: [], docids: [], judgedAtGrade };
}
