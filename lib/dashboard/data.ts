import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { finalLabel } from "../labels/reference.ts";
import type { TItemJudgement } from "../labels/load.ts";
import type { TLabelInput, TRuleSettings } from "../labels/rule.ts";
import { closeDashboardSql, num, numOrNull, rows, str } from "./sql.ts";
import { itemStage, STAGES, type TStageCounts } from "../labels/stage.ts";

/**
 * Everything the dashboard computes from, read once per label-set version with one narrow query
 * per table and joined in memory (maps keyed by internal ids). Panels (lib/dashboard/*.ts) are
 * pure functions of this object plus the viewer's options; the statistics are lib/stats'.
 */
export type TDashboardProject = {
  id: number;
  name: string;
  calibrationTarget: number;
  minPerGrade: number;
  annotatorsPerItem: number;
};

export type TQueryInfo = { qid: string; tags: string[]; refStart: number | null; refVideoId: number | null };
export type TChunkInfo = { docid: string; videoId: number; start: number };
export type TLabel = { queryId: number; chunkId: number; grade: number };
export type TJudgementRow = { poolItemId: string; userId: string; grade: number; startSeconds: number | null; timeSpentMs: number | null };
/** A final human label (lib/labels/reference.ts ReferenceLabelRow, internal ids only). */
export type TReference = TLabel & { startSeconds: number | null; status: "agreed" | "adjudicated" | "imported"; source: string | null };

export type TDashboardData = {
  version: string;
  project: TDashboardProject;
  queries: Map<number, TQueryInfo>;
  /** Distinct query tags, sorted. */
  tags: string[];
  chunks: Map<number, TChunkInfo>;
  reference: TReference[];
  /** Pool items and imported labels per stage (lib/labels/stage.ts). */
  stages: TStageCounts;
  /** Judge name → its labels; names sorted. */
  judges: Map<string, TLabel[]>;
  poolItems: Map<string, { queryId: number; chunkId: number }>;
  /** Pool item id → the runs that contributed it. */
  provenance: Map<string, number[]>;
  /** Assignments per pool item (progress stages). */
  assigned: Map<string, number>;
  /** Assigned items per user. */
  assignedByUser: Map<string, number>;
  judgements: TJudgementRow[];
  adjudicated: Set<string>;
  users: Map<string, { name: string; email: string }>;
  runs: { id: number; system: string; contentHash: string }[];
};

/** A key that changes whenever anything the dashboard reads changes (cheap aggregates only). */
export async function labelSetVersion(db: Db, projectId: number): Promise<string> {
  // Tables reached through the pool are checked table-wide (no join): a change in another
  // project only costs that project's viewers one reload, and the check stays a few index scans.
  const whole = (table: string, column = `max("id")`) => `SELECT count(*), ${column} FROM "${table}" WHERE ? > 0`;
  const own = (table: string) => `SELECT count(*), max("id") FROM "${table}" WHERE "projectId" = ?`;
  const sql = [
    `SELECT "name", "calibrationTarget", "minPerGrade", "annotatorsPerItem", "disagreementRule", "startToleranceSeconds" FROM "Project" WHERE "id" = ?`,
    own("LabelEvent"),
    own("JudgeLabel"),
    own("ReferenceLabel"),
    own("Run"),
    `SELECT count(*) FROM "PoolItem" WHERE "projectId" = ?`,
    whole("Assignment"),
    whole("Judgement", `max("updatedAt")`),
    whole("Adjudication"),
    `SELECT count(*) FROM "QueryTag" t JOIN "Query" q ON q."id" = t."queryId" WHERE q."projectId" = ?`,
  ];
  const parts = await Promise.all(sql.map((q) => rows(db, q, [projectId])));
  if (parts[0].length === 0) throw new AppError("not_found", `no project with id ${projectId}`);
  return JSON.stringify(parts, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v instanceof Date ? v.toISOString() : v));
}

/**
 * The final human labels, as lib/labels/reference.ts referenceLabels defines them (a human final
 * label from its finalLabel() wins; otherwise the latest import, ties by source name), built from
 * the rows already loaded here instead of a second read of every table.
 * tests/integration/dashboard-panels.test.ts checks that both give the same set.
 */
function reference(
  items: Map<string, { queryId: number; chunkId: number }>,
  byItem: Map<string, TLabelInput[]>,
  adjudications: Map<string, { grade: number; startSeconds: number | null }>,
  imported: { queryId: number; chunkId: number; grade: number; startSeconds: number | null; source: string }[],
  settings: TRuleSettings,
): TReference[] {
  const out = new Map<string, TReference>();
  for (const [id, it] of items) {
    const adjudication = adjudications.get(id);
    const judgements = byItem.get(id) ?? [];
    if (!adjudication && judgements.length === 0) continue;
    const f = finalLabel({ judgements: judgements as TItemJudgement[], adjudication: adjudication ? { ...adjudication, rationale: "" } : null }, settings);
    if (f) out.set(`${it.queryId}:${it.chunkId}`, { queryId: it.queryId, chunkId: it.chunkId, grade: f.grade, startSeconds: f.startSeconds, status: f.status, source: null });
  }
  // `imported` comes latest first, ties by source name.
  for (const r of imported) {
    const key = `${r.queryId}:${r.chunkId}`;
    if (!out.has(key)) out.set(key, { ...r, status: "imported" });
  }
  return [...out.values()];
}

async function load(db: Db, projectId: number, version: string): Promise<TDashboardData> {
  const byProject = (cols: string, table: string, order = "") => rows(db, `SELECT ${cols} FROM "${table}" WHERE "projectId" = ?${order}`, [projectId]);
  const viaPool = (cols: string, table: string, order = "") => rows(db, `SELECT ${cols} FROM "${table}" t JOIN "PoolItem" p ON p."id" = t."poolItemId" WHERE p."projectId" = ?${order}`, [projectId]);
  const [projectRows, queryRows, tagRows, chunkRows, judgeRows, itemRows, provRows, assignRows, judgementRows, adjRows, importRows, runRows] = await Promise.all([
    rows(db, `SELECT "id", "name", "calibrationTarget", "minPerGrade", "annotatorsPerItem", "disagreementRule", "startToleranceSeconds" FROM "Project" WHERE "id" = ?`, [projectId]),
    byProject(`"id", "externalId", "referenceStartSeconds", "referenceVideoId"`, "Query"),
    rows(db, `SELECT t."queryId", t."tag" FROM "QueryTag" t JOIN "Query" q ON q."id" = t."queryId" WHERE q."projectId" = ?`, [projectId]),
    byProject(`"id", "externalId", "videoId", "startSeconds"`, "Chunk"),
    byProject(`"judge", "queryId", "chunkId", "grade"`, "JudgeLabel"),
    byProject(`"id", "queryId", "chunkId"`, "PoolItem"),
    rows(db, `SELECT "poolItemId", "runId" FROM "PoolProvenance" WHERE "runId" IN (SELECT "id" FROM "Run" WHERE "projectId" = ?)`, [projectId]),
    viaPool(`t."poolItemId", t."userId"`, "Assignment"),
    viaPool(`t."poolItemId", t."userId", t."grade", t."startSeconds", t."timeSpentMs"`, "Judgement", ` ORDER BY t."id"`),
    viaPool(`t."poolItemId", t."grade", t."startSeconds"`, "Adjudication"),
    byProject(`"queryId", "chunkId", "grade", "startSeconds", "source"`, "ReferenceLabel", ` ORDER BY "createdAt" DESC, "source" ASC`),
    byProject(`"id", "system", "contentHash"`, "Run", ` ORDER BY "system"`),
  ]);
  const p = projectRows[0];
  if (!p) throw new AppError("not_found", `no project with id ${projectId}`);
  const project = { id: num(p[0]), name: str(p[1]), calibrationTarget: num(p[2]), minPerGrade: num(p[3]), annotatorsPerItem: num(p[4]) };
  const settings: TRuleSettings = { disagreementRule: str(p[5]) as TRuleSettings["disagreementRule"], startToleranceSeconds: num(p[6]), annotatorsPerItem: num(p[4]) };

  const queryMap = new Map<number, TQueryInfo>();
  for (const q of queryRows) queryMap.set(num(q[0]), { qid: str(q[1]), tags: [], refStart: numOrNull(q[2]), refVideoId: numOrNull(q[3]) });
  const tags = new Set<string>();
  for (const t of tagRows) {
    queryMap.get(num(t[0]))?.tags.push(str(t[1]));
    tags.add(str(t[1]));
  }
  const chunkMap = new Map<number, TChunkInfo>();
  for (const c of chunkRows) chunkMap.set(num(c[0]), { docid: str(c[1]), videoId: num(c[2]), start: num(c[3]) });

  const judges = new Map<string, TLabel[]>();
  for (const name of [...new Set(judgeRows.map((j) => str(j[0])))].sort()) judges.set(name, []);
  for (const j of judgeRows) judges.get(str(j[0]))!.push({ queryId: num(j[1]), chunkId: num(j[2]), grade: num(j[3]) });

  const poolItems = new Map<string, { queryId: number; chunkId: number }>();
  for (const it of itemRows) poolItems.set(str(it[0]), { queryId: num(it[1]), chunkId: num(it[2]) });
  const prov = new Map<string, number[]>();
  for (const r of provRows) {
    const id = str(r[0]);
    const list = prov.get(id);
    if (list) list.push(num(r[1]));
    else prov.set(id, [num(r[1])]);
  }
  const assigned = new Map<string, number>();
  const assignedByUser = new Map<string, number>();
  for (const a of assignRows) {
    const item = str(a[0]);
    const user = str(a[1]);
    assigned.set(item, (assigned.get(item) ?? 0) + 1);
    assignedByUser.set(user, (assignedByUser.get(user) ?? 0) + 1);
  }
  const judgements: TJudgementRow[] = judgementRows.map((j) => ({ poolItemId: str(j[0]), userId: str(j[1]), grade: num(j[2]), startSeconds: numOrNull(j[3]), timeSpentMs: numOrNull(j[4]) }));
  const byItem = new Map<string, TLabelInput[]>();
  for (const j of judgements) {
    const list = byItem.get(j.poolItemId);
    if (list) list.push(j);
    else byItem.set(j.poolItemId, [j]);
  }
  const adjudications = new Map(adjRows.map((a) => [str(a[0]), { grade: num(a[1]), startSeconds: numOrNull(a[2]) }]));
  const imported = importRows.map((r) => ({ queryId: num(r[0]), chunkId: num(r[1]), grade: num(r[2]), startSeconds: numOrNull(r[3]), source: str(r[4]) }));
  const referenceRows = reference(poolItems, byItem, adjudications, imported, settings);

  const importedAny = new Set(imported.map((r) => `${r.queryId}:${r.chunkId}`));
  const stages = Object.fromEntries([...STAGES.map((s) => [s, 0]), ["total", 0]]) as TStageCounts;
  for (const [id, it] of poolItems) {
    const key = `${it.queryId}:${it.chunkId}`;
    stages[itemStage({ assignments: assigned.get(id) ?? 0, judgements: byItem.get(id) ?? [], adjudicated: adjudications.has(id), imported: importedAny.has(key) }, settings)]++;
    importedAny.delete(key);
  }
  stages.imported += importedAny.size;
  stages.total = poolItems.size + importedAny.size;

  const userIds = [...new Set<string>([...assignedByUser.keys(), ...judgements.map((j) => j.userId)])];
  const users = userIds.length ? await rows(db, `SELECT "id", "name", "email" FROM "User" WHERE "id" IN (${userIds.map(() => "?").join(", ")})`, userIds) : [];

  return {
    version,
    project,
    queries: queryMap,
    tags: [...tags].sort(),
    chunks: chunkMap,
    reference: referenceRows,
    stages,
    judges,
    poolItems,
    provenance: prov,
    assigned,
    assignedByUser,
    judgements,
    adjudicated: new Set(adjudications.keys()),
    users: new Map(users.map((u) => [str(u[0]), { name: str(u[1]), email: str(u[2]) }])),
    runs: runRows.map((r) => ({ id: num(r[0]), system: str(r[1]), contentHash: str(r[2]) })),
  };
}

type CacheEntry = { version: string; data: Promise<TDashboardData>; results: Map<string, unknown> };
const MAX_PROJECTS = 8;
const globalCache = globalThis as unknown as { __assessorDashboard?: Map<string, CacheEntry> };

function cache(): Map<string, CacheEntry> {
  globalCache.__assessorDashboard ??= new Map();
  return globalCache.__assessorDashboard;
}

/** Cache key includes the database URL so that tests with several databases never mix. */
function cacheKey(projectId: number): string {
  return `${process.env.DATABASE_URL ?? ""}#${projectId}`;
}

/**
 * The dashboard's data for a project, loaded once per label-set version: a request after any
 * label, run, pool or settings change reloads; otherwise the loaded tables (and the panels already
 * computed from them, see `memo`) are reused.
 */
export async function dashboardData(db: Db, projectId: number): Promise<{ data: TDashboardData; memo: <T>(key: string, fn: () => T) => T }> {
  const version = await labelSetVersion(db, projectId);
  const c = cache();
  const key = cacheKey(projectId);
  let entry = c.get(key);
  if (!entry || entry.version !== version) {
    entry = { version, data: load(db, projectId, version), results: new Map() };
    c.delete(key);
    c.set(key, entry);
    while (c.size > MAX_PROJECTS) c.delete(c.keys().next().value as string);
    entry.data.catch(() => c.delete(key));
  }
  const results = entry.results;
  const memo = <T,>(k: string, fn: () => T): T => {
    if (results.has(k)) return results.get(k) as T;
    const v = fn();
    results.set(k, v);
    return v;
  };
  return { data: await entry.data, memo };
}

/** Forget every cached project (tests and benchmarks measuring a cold start). */
export function clearDashboardCache(): void {
  cache().clear();
  closeDashboardSql();
}
