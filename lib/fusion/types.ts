/**
 * Runs as fusion sees them: per query, the retrieved documents with their scores. An input run is
 * read in the evaluated order (lib/stats/order.ts: score descending, ties by docid descending),
 * which is the rank the rank-based methods use.
 */
export type ScoredRun = Map<string, Map<string, number>>;

/** A run's queries with their documents in the evaluated order. */
export type RankedRun = Map<string, { docids: string[]; scores: number[] }>;
