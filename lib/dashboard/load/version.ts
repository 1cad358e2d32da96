/**
 * The label-set version: one cheap aggregate query per table the dashboard reads, whose results
 * (the version's parts) tell which tables changed since the last load (lib/dashboard/load/sections.ts).
 */
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { rows } from "../../db/read.ts";

/** Version queries, one per table the dashboard reads (their results: the parts of the version). */
export const VERSION_PARTS = {
  project: 0,
  labelEvents: 1,
  judgeLabels: 2,
  referenceLabels: 3,
  runs: 4,
  poolItems: 5,
  assignments: 6,
  judgements: 7,
  adjudications: 8,
  tags: 9,
  /**
   * Every import writes an ImportRecord, also one that changes rows in place (a judge or reference
   * label file with new grades, a run replaced, queries with new reference starts), which the
   * counts and largest ids of the tables above do not show.
   */
  imports: 10,
  /** Pool provenance (which runs contributed which items) can grow without a new pool item. */
  provenance: 11,
  /** Judge runs started from the page or the CLI: their status decides which judge is complete (lib/dashboard/judges.ts). */
  judgeRuns: 12,
} as const;

export async function versionParts(db: Db, projectId: number): Promise<string[]> {
  // Tables reached through the pool are checked table-wide (no join): a change in another
  // project only costs that project's viewers one reload, and the check stays a few index scans.
  const whole = (table: string, column = `max("id")`) => `SELECT count(*), ${column} FROM "${table}" WHERE ? > 0`;
  const own = (table: string) => `SELECT count(*), max("id") FROM "${table}" WHERE "projectId" = ?`;
  const sql = [
    `SELECT "name", "calibrationTarget", "minPerGrade", "annotatorsPerItem", "disagreementRule", "startToleranceSeconds", "gradingClosedAt" FROM "Project" WHERE "id" = ?`,
    own("LabelEvent"),
    own("JudgeLabel"),
    own("ReferenceLabel"),
    own("Run"),
    `SELECT count(*) FROM "PoolItem" WHERE "projectId" = ?`,
    whole("Assignment"),
    whole("Judgement", `max("updatedAt") AS "updated", max("id") AS "last"`),
    whole("Adjudication"),
    // Tags, and the questions' review state and answer places (only accepted questions are evaluated).
    `SELECT (SELECT count(*) FROM "QueryTag" t JOIN "Query" q ON q."id" = t."queryId" WHERE q."projectId" = ?), count(*), max("updatedAt") FROM "Query" WHERE "projectId" = ? AND "status" = 'accepted'`,
    own("ImportRecord"),
    `SELECT count(*) FROM "PoolProvenance" WHERE "runId" IN (SELECT "id" FROM "Run" WHERE "projectId" = ?)`,
    // A handful of rows per project: a run's status change (running → completed) shows without a new label.
    `SELECT "id", "status", "finishedAt" FROM "JudgeRun" WHERE "projectId" = ? ORDER BY "id"`,
  ];
  const parts = await Promise.all(sql.map((q) => rows(db, q, Array<number>(q.split("?").length - 1).fill(projectId))));
  if (parts[0].length === 0) throw new AppError("not_found", `no project with id ${projectId}`);
  return parts.map((p) =>
    JSON.stringify(p, (_k, v: unknown) =>
      typeof v === "bigint" ? v.toString() : v instanceof Date ? v.toISOString() : v,
    ),
  );
}

/** A key that changes whenever anything the dashboard reads changes (cheap aggregates only). */
export async function labelSetVersion(db: Db, projectId: number): Promise<string> {
  return `[${(await versionParts(db, projectId)).join(",")}]`;
}
