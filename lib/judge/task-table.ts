/**
 * The two task tables of judge runs (JudgeTask: chunk runs, AnswerJudgeTask: answer runs,
 * kinds.ts) as one typed table for the statements that are the same on both (reclaiming,
 * removing a worker, requeueing failed tasks): `taskBuilder(p).updateTable(table)` takes either
 * name, and only the columns that both tables have, with their types, so a statement that names a
 * column of one kind only fails `tsc` (Kysely would accept it for a union of table names).
 */
import type { Kysely } from "kysely";
import type { TProvider } from "../db/dialect.ts";
import { viewBuilders } from "../db/query.ts";
import type { DB } from "../db/schema.ts";

/** The task table of a run's kind (JudgeRun.target: "chunks" or "answers", lib/judge/kinds.ts). */
export type TTaskTable = "JudgeTask" | "AnswerJudgeTask";
export const taskTable = (target: string): TTaskTable => (target === "answers" ? "AnswerJudgeTask" : "JudgeTask");

/** The columns both task tables have (runId, status, workerId, claimedAt, error, …), typed as in JudgeTask. */
type TTaskColumns = { [C in keyof DB["JudgeTask"] & keyof DB["AnswerJudgeTask"]]: DB["JudgeTask"][C] };

/** The schema with either task table typed by the columns they share. */
export type TTaskDB = Omit<DB, TTaskTable> & Record<TTaskTable, TTaskColumns>;

const builders = viewBuilders<TTaskDB>();

/** The builder of the body's dialect (sql.ts `provider`) for statements on either task table. */
export const taskBuilder = (p: TProvider): Kysely<TTaskDB> => builders[p];
