import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { referenceLabels, type ReferenceLabelRow } from "../labels/reference.ts";
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
export type TJudgementRow = { poolItemId: string; userId: string; grade: number; startSeconds: number | null; timeSpentMs: number | null; at: number };

export type TDashboardData = {
  version: string;
  project: TDashboardProject;
  queries: Map<number, TQueryInfo>;
  /** Distinct query tags, sorted. */
  tags: string[];
  chunks: Map<number, TChunkInfo>;
  reference: ReferenceLabelRow[];
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
  const inProject = { poolItem: { projectId } };
  const [project, events, judge, ref, runs, pool, assignments, judgements, adjudications, tags] = await Promise.all([
    db.project.findUnique({ where: { id: projectId }, select: { name: true, calibrationTarget: true, minPerGrade: true, annotatorsPerItem: true, disagreementRule: true, startToleranceSeconds: true } }),
    db.labelEvent.aggregate({ where: { projectId }, _count: { _all: true }, _max: { id: true } }),
    db.judgeLabel.aggregate({ where: { projectId }, _count: { _all: true }, _max: { id: true } }),
    db.referenceLabel.aggregate({ where: { projectId }, _count: { _all: true }, _max: { id: true } }),
    db.run.aggregate({ where: { projectId }, _count: { _all: true }, _max: { id: true } }),
    db.poolItem.count({ where: { projectId } }),
    db.assignment.aggregate({ where: inProject, _count: { _all: true }, _max: { id: true } }),
    db.judgement.aggregate({ where: inProject, _count: { _all: true }, _max: { updatedAt: true } }),
    db.adjudication.aggregate({ where: inProject, _count: { _all: true }, _max: { id: true } }),
    db.queryTag.count({ where: { query: { projectId } } }),
  ]);
  if (!project) throw new AppError("not_found", `no project with id ${projectId}`);
  return JSON.stringify([
    project,
    events._count._all, events._max.id,
    judge._count._all, judge._max.id,
    ref._count._all, ref._max.id,
    runs._count._all, runs._max.id,
    pool,
    assignments._count._all, assignments._max.id,
    judgements._count._all, judgements._max.updatedAt?.getTime() ?? null,
    adjudications._count._all, adjudications._max.id,
    tags,
  ]);
}

async function load(db: Db, projectId: number, version: string): Promise<TDashboardData> {
  const project = await db.project.findUnique({
    where: { id: projectId },
    select: { id: true, name: true, calibrationTarget: true, minPerGrade: true, annotatorsPerItem: true, disagreementRule: true, startToleranceSeconds: true },
  });
  if (!project) throw new AppError("not_found", `no project with id ${projectId}`);
  const inProject = { poolItem: { projectId } };
  const [queries, tagRows, chunks, reference, judgeRows, items, provenance, assignments, judgements, adjudications, runs] = await Promise.all([
    db.query.findMany({ where: { projectId }, select: { id: true, externalId: true, referenceStartSeconds: true, referenceVideoId: true } }),
    db.queryTag.findMany({ where: { query: { projectId } }, select: { queryId: true, tag: true } }),
    db.chunk.findMany({ where: { projectId }, select: { id: true, externalId: true, videoId: true, startSeconds: true } }),
    referenceLabels(db, projectId),
    db.judgeLabel.findMany({ where: { projectId }, select: { judge: true, queryId: true, chunkId: true, grade: true } }),
    db.poolItem.findMany({ where: { projectId }, select: { id: true, queryId: true, chunkId: true } }),
    db.poolProvenance.findMany({ where: inProject, select: { poolItemId: true, runId: true } }),
    db.assignment.findMany({ where: inProject, select: { poolItemId: true, userId: true } }),
    db.judgement.findMany({ where: inProject, select: { poolItemId: true, userId: true, grade: true, startSeconds: true, timeSpentMs: true, updatedAt: true }, orderBy: { id: "asc" } }),
    db.adjudication.findMany({ where: inProject, select: { poolItemId: true } }),
    db.run.findMany({ where: { projectId }, select: { id: true, system: true, contentHash: true }, orderBy: { system: "asc" } }),
  ]);

  const queryMap = new Map<number, TQueryInfo>();
  for (const q of queries) queryMap.set(q.id, { qid: q.externalId, tags: [], refStart: q.referenceStartSeconds, refVideoId: q.referenceVideoId });
  const tags = new Set<string>();
  for (const t of tagRows) {
    queryMap.get(t.queryId)?.tags.push(t.tag);
    tags.add(t.tag);
  }
  const chunkMap = new Map<number, TChunkInfo>();
  for (const c of chunks) chunkMap.set(c.id, { docid: c.externalId, videoId: c.videoId, start: c.startSeconds });

  const judges = new Map<string, TLabel[]>();
  for (const name of [...new Set(judgeRows.map((j) => j.judge))].sort()) judges.set(name, []);
  for (const j of judgeRows) judges.get(j.judge)!.push({ queryId: j.queryId, chunkId: j.chunkId, grade: j.grade });

  const poolItems = new Map<string, { queryId: number; chunkId: number }>();
  for (const it of items) poolItems.set(it.id, { queryId: it.queryId, chunkId: it.chunkId });
  const prov = new Map<string, number[]>();
  for (const p of provenance) {
    const list = prov.get(p.poolItemId);
    if (list) list.push(p.runId);
    else prov.set(p.poolItemId, [p.runId]);
  }
  const assigned = new Map<string, number>();
  const assignedByUser = new Map<string, number>();
  for (const a of assignments) {
    assigned.set(a.poolItemId, (assigned.get(a.poolItemId) ?? 0) + 1);
    assignedByUser.set(a.userId, (assignedByUser.get(a.userId) ?? 0) + 1);
  }
  const adjudicated = new Set(adjudications.map((a) => a.poolItemId));
  const byItem = new Map<string, { grade: number; startSeconds: number | null }[]>();
  for (const j of judgements) {
    const list = byItem.get(j.poolItemId);
    if (list) list.push(j);
    else byItem.set(j.poolItemId, [j]);
  }
  const importedAny = new Set(await importedKeys(db, projectId));
  const stages = Object.fromEntries([...STAGES.map((s) => [s, 0]), ["total", 0]]) as TStageCounts;
  for (const it of items) {
    const key = `${it.queryId}:${it.chunkId}`;
    stages[itemStage({ assignments: assigned.get(it.id) ?? 0, judgements: byItem.get(it.id) ?? [], adjudicated: adjudicated.has(it.id), imported: importedAny.has(key) }, project)]++;
    importedAny.delete(key);
  }
  stages.imported += importedAny.size;
  stages.total = items.length + importedAny.size;
  const userIds = new Set<string>([...assignedByUser.keys(), ...judgements.map((j) => j.userId)]);
  const users = await db.user.findMany({ where: { id: { in: [...userIds] } }, select: { id: true, name: true, email: true } });

  return {
    version,
    project: { id: project.id, name: project.name, calibrationTarget: project.calibrationTarget, minPerGrade: project.minPerGrade, annotatorsPerItem: project.annotatorsPerItem },
    queries: queryMap,
    tags: [...tags].sort(),
    chunks: chunkMap,
    reference,
    judges,
    poolItems,
    provenance: prov,
    assigned,
    assignedByUser,
    stages,
    judgements: judgements.map((j) => ({ poolItemId: j.poolItemId, userId: j.userId, grade: j.grade, startSeconds: j.startSeconds, timeSpentMs: j.timeSpentMs, at: j.updatedAt.getTime() })),
    adjudicated,
    users: new Map(users.map((u) => [u.id, { name: u.name, email: u.email }])),
    runs,
  };
}

/** Every (query, chunk) with an imported reference label, whatever its source. */
async function importedKeys(db: Db, projectId: number): Promise<string[]> {
  const rows = await db.referenceLabel.findMany({ where: { projectId }, select: { queryId: true, chunkId: true } });
  return rows.map((r) => `${r.queryId}:${r.chunkId}`);
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
}
