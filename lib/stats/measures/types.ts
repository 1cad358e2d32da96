/**
 * What every retrieval measure sees: one query's ranking in the evaluated order (lib/stats/order.ts)
 * with the grade of each retrieved chunk, plus what the qrels say about the query as a whole.
 */
/** A retrieved chunk the qrels do not mention (trec_eval's RELVALUE_NONPOOL). */
export const UNJUDGED = -1;
/** A retrieved chunk the qrels list with a negative value: in the pool but not judged (trec_eval's RELVALUE_UNJUDGED). */
export const UNJUDGED_IN_POOL = -2;

export type RankedQuery = {
  qid: string;
  /**
   * Grade of the chunk at each rank (index 0 = rank 1); UNJUDGED when the qrels do not list it,
   * UNJUDGED_IN_POOL when they list it with a negative value.
   */
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
  /** trec_eval -N: documents in the collection (utility's fourth coefficient); default 0. */
  numDocsInCollection?: number;
};

/**
 * What trec_eval's form_res_rels.c hands every measure: the ranking's relevance values and counts
 * among the retrieved chunks, and the judged chunks per relevance level (retrieved or not).
 */
export type RelInfo = {
  /** Relevance value at each rank: a grade ≥ 0, UNJUDGED or UNJUDGED_IN_POOL. */
  rels: ArrayLike<number>;
  numRet: number;
  /** Retrieved with value ≥ the relevance level. */
  numRelRet: number;
  numNonpool: number;
  numUnjudgedInPool: number;
  /** Judged chunks with value ≥ the relevance level. */
  numRel: number;
  /** relLevels[g]: judged chunks at value g, for g = 0 … the highest value with a chunk (trec_eval's num_rel_levels = its length). */
  relLevels: number[];
  /** Prefix counts over the ranking, index i = the top i: relevant chunks, Σ P@r over relevant ranks r ≤ i (AP's sum), unjudged chunks. */
  relAt: Int32Array;
  apAt: Float64Array;
  unjAt: Int32Array;
};

/** The RelInfo of a ranking (one pass). */
export function relInfo(q: RankedQuery, level: number): RelInfo {
  const rels = q.grades;
  const n = rels.length;
  let numRelRet = 0;
  let numNonpool = 0;
  let numUnjudgedInPool = 0;
  const relAt = new Int32Array(n + 1);
  const apAt = new Float64Array(n + 1);
  const unjAt = new Int32Array(n + 1);
  let ap = 0;
  let relSoFar = 0; // as the measures' loops count: any value ≥ the level (form_res_rels's num_rel_ret counts judged ones only)
  for (let i = 0; i < n; i++) {
    const r = rels[i];
    if (r === UNJUDGED) numNonpool++;
    else if (r === UNJUDGED_IN_POOL) numUnjudgedInPool++;
    else if (r >= level) numRelRet++;
    if (r >= level) {
      relSoFar++;
      ap += relSoFar / (i + 1);
    }
    relAt[i + 1] = relSoFar;
    apAt[i + 1] = ap;
    unjAt[i + 1] = numNonpool + numUnjudgedInPool;
  }
  let top = q.judgedAtGrade.length - 1;
  while (top >= 0 && q.judgedAtGrade[top] === 0) top--;
  const relLevels = q.judgedAtGrade.slice(0, top + 1);
  return {
    rels,
    numRet: n,
    numRelRet,
    numNonpool,
    numUnjudgedInPool,
    numRel: numRelevant(q, level),
    relLevels,
    relAt,
    apAt,
    unjAt,
  };
}

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
