/**
 * The evaluated order of a ranking, as trec_eval builds it: the run's rank column is ignored;
 * documents are sorted by score descending, ties broken by docid descending in plain byte order
 * (JavaScript `<` on the strings, not localeCompare). Pooling and every measure use this one
 * function, so that "top K" means the same thing when items are pooled and when they are scored.
 */
export type Scored = { docid: string; score: number };

export function compareEvaluated(a: Scored, b: Scored): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.docid === b.docid) return 0;
  return a.docid < b.docid ? 1 : -1;
}

/** A sorted copy; the input is left as it is. */
export function evaluatedOrder<T extends Scored>(rows: readonly T[]): T[] {
  return [...rows].sort(compareEvaluated);
}
