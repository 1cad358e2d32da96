import { all, sqlDate, type TSqlParam } from "../db/sql.ts";

/**
 * The annotator's own grade in the queue's statements (lib/annotate/queue.ts). A hidden check item
 * (Assignment.checkItem) keeps its grade in CheckJudgement, apart from every reader of Judgement
 * (lib/labels/submit-check.ts says why); to the annotator it is an item like any other, so every
 * count, "done" and "latest grade" of the queue reads both tables.
 */

/** The user's own grade of an assignment `a`: `j` (Judgement) or `cj` (CheckJudgement); at most one of the two. */
// A grade is done unless a second look at it was asked for (Assignment.regradeRequestedAt,
// lib/assignment/regrade.ts): then the item is open again until the annotator submits it.
export const OWN_GRADES = `LEFT JOIN "Judgement" j ON j."poolItemId" = a."poolItemId" AND j."userId" = a."userId" AND a."regradeRequestedAt" IS NULL LEFT JOIN "CheckJudgement" cj ON cj."poolItemId" = a."poolItemId" AND cj."userId" = a."userId"`;
export const GRADED_IN = (t: string) =>
  `EXISTS (SELECT 1 FROM "${t}" j WHERE j."poolItemId" = a."poolItemId" AND j."userId" = a."userId")`;
export const GRADED = `(a."regradeRequestedAt" IS NULL AND (${GRADED_IN("Judgement")} OR ${GRADED_IN("CheckJudgement")}))`;
export const NOT_GRADED = `NOT ${GRADED}`;

/**
 * The user's latest grade by `statement(table)` (newest first, one row) over Judgement and
 * CheckJudgement, whichever was created later (`at`): hidden check items are graded like any other.
 */
export function* latestGrade<R>(statement: (table: string) => string, params: readonly TSqlParam[]) {
  const rows: (R & { at: unknown })[] = [];
  for (const t of ["Judgement", "CheckJudgement"])
    rows.push(...(yield* all<R & { at: unknown }>(statement(t), params)));
  const time = (r: { at: unknown }) => sqlDate(r.at)?.getTime() ?? 0;
  return rows.reduce<(R & { at: unknown }) | undefined>(
    (best, r) => (!best || time(r) > time(best) ? r : best),
    undefined,
  );
}
