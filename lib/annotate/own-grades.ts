import { expressionBuilder, sql, type Expression, type Selectable, type SqlBool } from "kysely";
import type { TBound } from "../db/query.ts";
import type { DB } from "../db/schema.ts";
import { rowsOf, sqlDate } from "../db/sql.ts";

/**
 * The annotator's own grade in the queue's statements (lib/annotate/queue.ts). A hidden check item
 * (Assignment.checkItem) keeps its grade in CheckJudgement, apart from every reader of Judgement
 * (lib/labels/submit-check.ts says why); to the annotator it is an item like any other, so every
 * count, "done" and "latest grade" of the queue reads both tables.
 *
 * The conditions are typed expressions over the aliases the queue's statements use: `a` the
 * user's Assignment, `j` a Judgement, `cj` a CheckJudgement (an expression names tables by alias,
 * so it fits any statement that has them).
 */
type TOwnDB = DB & { a: DB["Assignment"]; j: DB["Judgement"]; cj: DB["CheckJudgement"] };
const eb = expressionBuilder<TOwnDB, "a" | "j" | "cj">();

// The user's own grade of an assignment `a`: `j` (Judgement) or `cj` (CheckJudgement), at most one
// of the two, as two LEFT JOINs on these conditions. A grade is done unless a second look at it was
// asked for (Assignment.regradeRequestedAt, lib/assignment/regrade.ts): then the item is open
// again until the annotator submits it.
/** ON of `LEFT JOIN "Judgement" j`: the user's own judgement of `a`'s item, unless a regrade was asked for. */
export const OWN_JUDGEMENT: Expression<SqlBool> = eb.and([
  eb("j.poolItemId", "=", eb.ref("a.poolItemId")),
  eb("j.userId", "=", eb.ref("a.userId")),
  eb("a.regradeRequestedAt", "is", null),
]);
/** ON of `LEFT JOIN "CheckJudgement" cj`: the user's own grade of `a`'s item when it is a hidden check item. */
export const OWN_CHECK_JUDGEMENT: Expression<SqlBool> = eb.and([
  eb("cj.poolItemId", "=", eb.ref("a.poolItemId")),
  eb("cj.userId", "=", eb.ref("a.userId")),
]);

/** The two tables of a user's grades. */
export type TGradeTable = "Judgement" | "CheckJudgement";
const GRADE_TABLES: readonly TGradeTable[] = ["Judgement", "CheckJudgement"];
/** A row of either grade table, as the columns both have. */
type TGradeRow = Selectable<{ [C in keyof DB["Judgement"] & keyof DB["CheckJudgement"]]: DB["Judgement"][C] }>;

/**
 * Either grade table under `alias` (`"Judgement" as "j"`), typed with the columns both tables have,
 * so a statement written once reads either (Kysely's types do not follow a union of table names).
 */
export const gradeTable = <A extends string>(table: TGradeTable, alias: A) =>
  sql<TGradeRow>`${sql.table(table)}`.as(alias);

const gradedIn = (table: TGradeTable) =>
  eb.exists(
    eb
      .selectFrom(gradeTable(table, "g"))
      .select((s) => s.lit(1).as("one"))
      .whereRef("g.poolItemId", "=", "a.poolItemId")
      .whereRef("g.userId", "=", "a.userId"),
  );
/** Assignment `a` is graded by its user (and no regrade of it was asked for). */
export const GRADED: Expression<SqlBool> = eb.and([
  eb("a.regradeRequestedAt", "is", null),
  eb.or([gradedIn("Judgement"), gradedIn("CheckJudgement")]),
]);
export const NOT_GRADED: Expression<SqlBool> = eb.not(GRADED);

/**
 * The user's latest grade by `statement(table)` (newest first, one row) over Judgement and
 * CheckJudgement, whichever was created later (`at`): hidden check items are graded like any other.
 */
export function* latestGrade<R extends { at: unknown }>(statement: (table: TGradeTable) => TBound<R>) {
  const rows: R[] = [];
  for (const t of GRADE_TABLES) rows.push(...(yield* rowsOf(statement(t))));
  const time = (r: { at: unknown }) => sqlDate(r.at)?.getTime() ?? 0;
  return rows.reduce<R | undefined>((best, r) => (!best || time(r) > time(best) ? r : best), undefined);
}
