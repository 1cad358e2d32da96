/**
 * The tables one project's dashboard reads, as sections kept between label-set versions: a new
 * version re-reads only the sections whose version part changed (lib/dashboard/load/version.ts);
 * judgements are read incrementally (lib/dashboard/load/judgements.ts).
 */
import type { Db } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { TRuleSettings } from "../../labels/rule.ts";
import type { TDashboardData, TDashboardProject, TLabel } from "../model.ts";
import { num, numOrNull, rows, str } from "../../db/read.ts";
import { loadBase, type TBase } from "./base.ts";
import { loadImported, type TImported, type TImportIndex } from "./imports.ts";
import type { TAdjudication, TAssignments, TItemStates } from "./item-states.ts";
import { loadJudgements, type TJudgementState } from "./judgements.ts";
import { VERSION_PARTS } from "./version.ts";

/**
 * What one project's loads keep between label-set versions: each table's rows as last read, with
 * the version part they were read at. A new version re-reads only the tables whose part changed;
 * judgements (the table that changes with every label) are read incrementally.
 */
export type TSections = {
  version: string;
  parts: string[];
  base?: TBase;
  judges?: Map<string, TLabel[]>;
  judgeInfo?: TJudgeInfo;
  imported?: TImported[];
  assignments?: TAssignments;
  adjudications?: Map<string, TAdjudication>;
  disputed?: Set<string>;
  judgements?: TJudgementState;
  importIndex?: TImportIndex;
  items?: TItemStates;
};

const BASE_PARTS = [
  VERSION_PARTS.judgeLabels,
  VERSION_PARTS.referenceLabels,
  VERSION_PARTS.runs,
  VERSION_PARTS.poolItems,
  VERSION_PARTS.tags,
  VERSION_PARTS.imports,
  VERSION_PARTS.provenance,
];

const PROJECT_COLUMNS = `"id", "name", "calibrationTarget", "minPerGrade", "annotatorsPerItem", "disagreementRule", "startToleranceSeconds", "gradingClosedAt"`;

/** The project and its label rule settings, from its row (PROJECT_COLUMNS); not found without one. */
export function projectSettings(
  p: unknown[] | undefined,
  projectId: number,
): { project: TDashboardProject; settings: TRuleSettings } {
  if (!p) throw new AppError("not_found", `no project with id ${projectId}`);
  const project = {
    id: num(p[0]),
    name: str(p[1]),
    calibrationTarget: num(p[2]),
    minPerGrade: num(p[3]),
    annotatorsPerItem: num(p[4]),
    gradingClosed: p[7] !== null && p[7] !== undefined,
  };
  const settings: TRuleSettings = {
    disagreementRule: str(p[5]) as TRuleSettings["disagreementRule"],
    startToleranceSeconds: num(p[6]),
    annotatorsPerItem: num(p[4]),
  };
  return { project, settings };
}

/** Judge name → its labels, names sorted. */
async function loadJudges(db: Db, projectId: number): Promise<Map<string, TLabel[]>> {
  const judgeRows = await rows(
    db,
    `SELECT "judge", "queryId", "chunkId", "grade", "injection" FROM "JudgeLabel" WHERE "projectId" = ? AND "queryId" IN (SELECT "id" FROM "Query" WHERE "projectId" = ? AND "status" = 'accepted')`,
    [projectId, projectId],
  );
  const judges = new Map<string, TLabel[]>();
  for (const name of [...new Set(judgeRows.map((j) => str(j[0])))].sort()) judges.set(name, []);
  for (const j of judgeRows)
    judges.get(str(j[0]))!.push({
      queryId: num(j[1]),
      chunkId: num(j[2]),
      grade: num(j[3]),
      ...(j[4] === true || Number(j[4]) === 1 ? { injection: true } : {}),
    });
  return judges;
}

/** The judges' latest runs and when each judge's last label was written (lib/dashboard/judges.ts). */
export type TJudgeInfo = Pick<TDashboardData, "judgeRuns" | "judgeLabelledAt">;

/** A date column as ISO text: PostgreSQL returns Date objects, SQLite the text Prisma wrote. */
function iso(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const d = v instanceof Date ? v : new Date(typeof v === "number" ? v : str(v));
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

async function loadJudgeInfo(db: Db, projectId: number): Promise<TJudgeInfo> {
  const [runRows, labelRows] = await Promise.all([
    rows(db, `SELECT "judge", "status", "finishedAt" FROM "JudgeRun" WHERE "projectId" = ? ORDER BY "id"`, [projectId]),
    rows(db, `SELECT "judge", max("createdAt") FROM "JudgeLabel" WHERE "projectId" = ? GROUP BY "judge"`, [projectId]),
  ]);
  // Rows in id order: the last one per judge is its latest run.
  const judgeRuns = new Map(runRows.map((r) => [str(r[0]), { status: str(r[1]), finishedAt: iso(r[2]) }] as const));
  const judgeLabelledAt = new Map<string, string>();
  for (const r of labelRows) {
    const at = iso(r[1]);
    if (at) judgeLabelledAt.set(str(r[0]), at);
  }
  return { judgeRuns, judgeLabelledAt };
}

/** Rows of a table keyed by pool item, for this project's pool. */
function viaPool(db: Db, projectId: number, cols: string, table: string): Promise<unknown[][]> {
  return rows(
    db,
    `SELECT ${cols} FROM "${table}" t JOIN "PoolItem" p ON p."id" = t."poolItemId" WHERE p."projectId" = ?`,
    [projectId],
  );
}

async function loadAssignments(db: Db, projectId: number): Promise<TAssignments> {
  const assignRows = await viaPool(db, projectId, `t."poolItemId", t."userId", t."checkItem"`, "Assignment");
  const assigned = new Map<string, number>();
  const assignedByUser = new Map<string, number>();
  for (const a of assignRows) {
    // A hidden check item's assignment (lib/assignment/checks.ts) is no work towards the reference.
    if (Number(a[2])) continue;
    const item = str(a[0]);
    const user = str(a[1]);
    assigned.set(item, (assigned.get(item) ?? 0) + 1);
    assignedByUser.set(user, (assignedByUser.get(user) ?? 0) + 1);
  }
  return { assigned, assignedByUser };
}

async function loadAdjudications(db: Db, projectId: number): Promise<Map<string, TAdjudication>> {
  const adjRows = await viaPool(
    db,
    projectId,
    `t."poolItemId", t."grade", t."startSeconds", t."endSeconds"`,
    "Adjudication",
  );
  return new Map(
    adjRows.map((a) => [str(a[0]), { grade: num(a[1]), startSeconds: numOrNull(a[2]), endSeconds: numOrNull(a[3]) }]),
  );
}

/**
 * Pool items whose required grades disagreed at some point (PoolItem.disputedAt, lib/labels/rule.ts
 * `itemDecision`). It is set only in the transaction that writes a judgement, so it changes only
 * when the judgements' version part does.
 */
async function loadDisputed(db: Db, projectId: number): Promise<Set<string>> {
  const disputedRows = await rows(
    db,
    `SELECT "id" FROM "PoolItem" WHERE "projectId" = ? AND "disputedAt" IS NOT NULL`,
    [projectId],
  );
  return new Set(disputedRows.map((r) => str(r[0])));
}

/** Names and emails of the given users. */
export async function loadUsers(db: Db, userIds: string[]): Promise<Map<string, { name: string; email: string }>> {
  const users = userIds.length
    ? await rows(
        db,
        `SELECT "id", "name", "email" FROM "User" WHERE "id" IN (${userIds.map(() => "?").join(", ")})`,
        userIds,
      )
    : [];
  return new Map(users.map((u) => [str(u[0]), { name: str(u[1]), email: str(u[2]) }]));
}

/**
 * Every section for the version whose parts are `parts`: the previous load's where its part (and,
 * for the tables reached through the pool, the pool's) is unchanged, read again otherwise. `read`:
 * the sections as kept for the next load (TSections); `projectRow`: the project, read every time.
 */
export async function readSections(db: Db, projectId: number, parts: string[], previous: TSections | undefined) {
  const same = (...which: number[]) => previous !== undefined && which.every((i) => previous.parts[i] === parts[i]);
  const baseSame = same(...BASE_PARTS);
  const [projectRows, base, judges, judgeInfo, imported, assignments, adjudications, disputed, judgementState] =
    await Promise.all([
      rows(db, `SELECT ${PROJECT_COLUMNS} FROM "Project" WHERE "id" = ?`, [projectId]),
      baseSame && previous?.base ? previous.base : loadBase(db, projectId),
      same(VERSION_PARTS.judgeLabels, VERSION_PARTS.imports, VERSION_PARTS.tags) && previous?.judges
        ? previous.judges
        : loadJudges(db, projectId),
      same(VERSION_PARTS.judgeLabels, VERSION_PARTS.imports, VERSION_PARTS.judgeRuns) && previous?.judgeInfo
        ? previous.judgeInfo
        : loadJudgeInfo(db, projectId),
      same(VERSION_PARTS.referenceLabels, VERSION_PARTS.imports, VERSION_PARTS.tags) && previous?.imported
        ? previous.imported
        : loadImported(db, projectId),
      baseSame && same(VERSION_PARTS.assignments) && previous?.assignments
        ? previous.assignments
        : loadAssignments(db, projectId),
      baseSame && same(VERSION_PARTS.adjudications) && previous?.adjudications
        ? previous.adjudications
        : loadAdjudications(db, projectId),
      baseSame && same(VERSION_PARTS.judgements) && previous?.disputed
        ? previous.disputed
        : loadDisputed(db, projectId),
      same(VERSION_PARTS.judgements) && previous?.judgements
        ? previous.judgements
        : loadJudgements(db, previous?.judgements),
    ]);
  return {
    projectRow: projectRows[0] as unknown[] | undefined,
    read: { base, judges, judgeInfo, imported, assignments, adjudications, disputed, judgements: judgementState },
  };
}
