import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { finalLabel, importPrecedence } from "../labels/reference.ts";
import type { TItemJudgement } from "../labels/load.ts";
import type { TLabelInput, TRuleSettings } from "../labels/rule.ts";
import { readDbConfig } from "../db/config.ts";
import { closeDashboardSql, num, numOrNull, rows, str } from "./sql.ts";
import { itemStage, STAGES, type TStage, type TStageCounts } from "../labels/stage.ts";

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
  /**
   * Identity of what labels do not change (queries, chunks, pool, runs): the same object from one
   * label-set version to the next until one of those changes, so results that depend only on them
   * and on a query's labels can be kept across label changes (lib/dashboard/systems.ts).
   */
  base: object;
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
  /**
   * Since the previous label-set version (`from`): the only queries whose final human labels
   * (`reference`) may differ, judge labels unchanged; null when unknown (then anything may differ).
   */
  referenceChanges: { from: string; queries: Set<number> } | null;
  /** Pool item id → its judgements in submission order. */
  judgementsByItem: Map<string, TJudgementRow[]>;
  adjudicated: Set<string>;
  users: Map<string, { name: string; email: string }>;
  runs: { id: number; system: string; contentHash: string }[];
};

/** Version queries, one per table the dashboard reads (their results: the parts of the version). */
const VERSION_PARTS = {
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
} as const;

async function versionParts(db: Db, projectId: number): Promise<string[]> {
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
    whole("Judgement", `max("updatedAt") AS "updated", max("id") AS "last"`),
    whole("Adjudication"),
    `SELECT count(*) FROM "QueryTag" t JOIN "Query" q ON q."id" = t."queryId" WHERE q."projectId" = ?`,
  ];
  const parts = await Promise.all(sql.map((q) => rows(db, q, [projectId])));
  if (parts[0].length === 0) throw new AppError("not_found", `no project with id ${projectId}`);
  return parts.map((p) => JSON.stringify(p, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v instanceof Date ? v.toISOString() : v)));
}

/** A key that changes whenever anything the dashboard reads changes (cheap aggregates only). */
export async function labelSetVersion(db: Db, projectId: number): Promise<string> {
  return `[${(await versionParts(db, projectId)).join(",")}]`;
}

type TBase = {
  queries: Map<number, TQueryInfo>;
  tags: string[];
  chunks: Map<number, TChunkInfo>;
  poolItems: Map<string, { queryId: number; chunkId: number }>;
  provenance: Map<string, number[]>;
  runs: TDashboardData["runs"];
};
type TImported = { queryId: number; chunkId: number; grade: number; startSeconds: number | null; source: string };
/** Judgements of every project by id, in id order, as of one snapshot of the table. */
type TJudgementState = {
  byId: Map<number, TJudgementRow>;
  maxId: number;
  watermark: unknown;
  /** Pool items whose judgements were read again since the previous state (null: everything was read). */
  changedItems: Set<string> | null;
};

/**
 * What one project's loads keep between label-set versions: each table's rows as last read, with
 * the version part they were read at. A new version re-reads only the tables whose part changed;
 * judgements (the table that changes with every label) are read incrementally.
 */
type TSections = { version: string; parts: string[]; base?: TBase; judges?: Map<string, TLabel[]>; imported?: TImported[]; assignments?: { assigned: Map<string, number>; assignedByUser: Map<string, number> }; adjudications?: Map<string, { grade: number; startSeconds: number | null }>; judgements?: TJudgementState; importIndex?: TImportIndex; items?: TItemStates };

type TAdjudication = { grade: number; startSeconds: number | null };
/** One pool item's inputs and what follows from them (kept while its inputs do not change). */
type TItemState = { judgements: readonly TJudgementRow[]; adjudication: TAdjudication | undefined; assigned: number; imported: boolean; final: TReference | null; stage: TStage };
type TItemStates = {
  base: TBase;
  settings: string;
  index: TImportIndex;
  adjudications: Map<string, TAdjudication>;
  assignments: object;
  /** Pool items in pool order, their positions, and their states. */
  ids: string[];
  position: Map<string, number>;
  states: TItemState[];
};
/** Imported labels against the pool: per pair the winning import (latest first, ties by source name). */
type TImportIndex = { base: TBase; imported: TImported[]; winners: TImported[]; winnerItem: (string | null)[]; importedItems: Set<string>; outsidePool: number };

function importIndex(base: TBase, imported: TImported[], previous: TImportIndex | undefined): TImportIndex {
  if (previous && previous.base === base && previous.imported === imported) return previous;
  const pairItem = new Map<string, string>();
  for (const [id, it] of base.poolItems) pairItem.set(`${it.queryId}:${it.chunkId}`, id);
  const seen = new Set<string>();
  const out: TImportIndex = { base, imported, winners: [], winnerItem: [], importedItems: new Set(), outsidePool: 0 };
  // `imported` comes latest first, ties by source name: the first row of a pair wins.
  for (const r of imported) {
    const key = `${r.queryId}:${r.chunkId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const item = pairItem.get(key) ?? null;
    out.winners.push(r);
    out.winnerItem.push(item);
    if (item === null) out.outsidePool++;
    else out.importedItems.add(item);
  }
  return out;
}

const sameRows = (a: readonly TJudgementRow[], b: readonly TJudgementRow[]) =>
  a.length === b.length && a.every((x, i) => x === b[i] || (x.userId === b[i].userId && x.grade === b[i].grade && x.startSeconds === b[i].startSeconds && x.timeSpentMs === b[i].timeSpentMs));
const NO_ROWS: TJudgementRow[] = [];

const BASE_PARTS = [VERSION_PARTS.judgeLabels, VERSION_PARTS.referenceLabels, VERSION_PARTS.runs, VERSION_PARTS.poolItems, VERSION_PARTS.tags];

async function loadBase(db: Db, projectId: number): Promise<TBase> {
  const byProject = (cols: string, table: string, order = "") => rows(db, `SELECT ${cols} FROM "${table}" WHERE "projectId" = ?${order}`, [projectId]);
  const [queryRows, tagRows, chunkRows, itemRows, provRows, runRows] = await Promise.all([
    byProject(`"id", "externalId", "referenceStartSeconds", "referenceVideoId"`, "Query"),
    rows(db, `SELECT t."queryId", t."tag" FROM "QueryTag" t JOIN "Query" q ON q."id" = t."queryId" WHERE q."projectId" = ?`, [projectId]),
    byProject(`"id", "externalId", "videoId", "startSeconds"`, "Chunk"),
    byProject(`"id", "queryId", "chunkId"`, "PoolItem"),
    rows(db, `SELECT "poolItemId", "runId" FROM "PoolProvenance" WHERE "runId" IN (SELECT "id" FROM "Run" WHERE "projectId" = ?)`, [projectId]),
    byProject(`"id", "system", "contentHash"`, "Run", ` ORDER BY "system"`),
  ]);
  const queries = new Map<number, TQueryInfo>();
  for (const q of queryRows) queries.set(num(q[0]), { qid: str(q[1]), tags: [], refStart: numOrNull(q[2]), refVideoId: numOrNull(q[3]) });
  const tags = new Set<string>();
  for (const t of tagRows) {
    queries.get(num(t[0]))?.tags.push(str(t[1]));
    tags.add(str(t[1]));
  }
  const chunks = new Map<number, TChunkInfo>();
  for (const c of chunkRows) chunks.set(num(c[0]), { docid: str(c[1]), videoId: num(c[2]), start: num(c[3]) });
  const poolItems = new Map<string, { queryId: number; chunkId: number }>();
  for (const it of itemRows) poolItems.set(str(it[0]), { queryId: num(it[1]), chunkId: num(it[2]) });
  const provenance = new Map<string, number[]>();
  for (const r of provRows) {
    const id = str(r[0]);
    const list = provenance.get(id);
    if (list) list.push(num(r[1]));
    else provenance.set(id, [num(r[1])]);
  }
  return { queries, tags: [...tags].sort(), chunks, poolItems, provenance, runs: runRows.map((r) => ({ id: num(r[0]), system: str(r[1]), contentHash: str(r[2]) })) };
}

const JUDGEMENT_COLUMNS = `"id", "poolItemId", "userId", "grade", "startSeconds", "timeSpentMs", "updatedAt", (SELECT count(*) FROM "Judgement") AS "total"`;

/**
 * Every judgement (all projects: no join, and the table-wide count checks the snapshot), kept by
 * id. After a change only the rows updated since the last read (updatedAt ≥ its latest value) or
 * inserted since (id above its largest) are read; when the table's count then differs from the
 * rows kept (a judgement was deleted), everything is read again.
 */
async function loadJudgements(db: Db, previous: TJudgementState | undefined): Promise<TJudgementState> {
  const add = (state: TJudgementState, r: unknown[]) => {
    const id = num(r[0]);
    state.byId.set(id, { poolItemId: str(r[1]), userId: str(r[2]), grade: num(r[3]), startSeconds: numOrNull(r[4]), timeSpentMs: numOrNull(r[5]) });
    if (id > state.maxId) state.maxId = id;
    const updated = r[6] instanceof Date ? r[6].toISOString() : r[6];
    if (state.watermark === null || (updated !== null && (updated as string) > (state.watermark as string))) state.watermark = updated;
  };
  if (previous && previous.watermark !== null) {
    const at = readDbConfig().provider === "sqlite" ? "?" : "CAST(? AS timestamp(3))";
    const delta = await rows(db, `SELECT ${JUDGEMENT_COLUMNS} FROM "Judgement" WHERE "updatedAt" >= ${at} OR "id" > ? ORDER BY "id"`, [previous.watermark, previous.maxId]);
    // The previous state is only ever the base of one next load (its cache entry is replaced), so
    // its Map is updated in place rather than copied (40,000 entries per label change).
    const next: TJudgementState = { byId: previous.byId, maxId: previous.maxId, watermark: previous.watermark, changedItems: new Set() };
    for (const r of delta) {
      // Rows updated in the same millisecond as the watermark come again: only real changes count.
      const before = next.byId.get(num(r[0]));
      if (before && before.poolItemId === str(r[1]) && before.userId === str(r[2]) && before.grade === num(r[3]) && before.startSeconds === numOrNull(r[4]) && before.timeSpentMs === numOrNull(r[5])) continue;
      add(next, r);
      next.changedItems!.add(str(r[1]));
    }
    if (delta.length > 0 && num(delta[0][7]) === next.byId.size) return next;
  }
  const all = await rows(db, `SELECT ${JUDGEMENT_COLUMNS} FROM "Judgement" ORDER BY "id"`);
  const state: TJudgementState = { byId: new Map(), maxId: 0, watermark: null, changedItems: null };
  for (const r of all) add(state, r);
  return state;
}

async function load(db: Db, projectId: number, version: string, parts: string[], previous: TSections | undefined): Promise<{ data: TDashboardData; sections: TSections }> {
  const same = (...which: number[]) => previous !== undefined && which.every((i) => previous.parts[i] === parts[i]);
  const viaPool = (cols: string, table: string) => rows(db, `SELECT ${cols} FROM "${table}" t JOIN "PoolItem" p ON p."id" = t."poolItemId" WHERE p."projectId" = ?`, [projectId]);
  const baseSame = same(...BASE_PARTS);
  const [projectRows, base, judges, imported, assignments, adjudications, judgementState] = await Promise.all([
    rows(db, `SELECT "id", "name", "calibrationTarget", "minPerGrade", "annotatorsPerItem", "disagreementRule", "startToleranceSeconds" FROM "Project" WHERE "id" = ?`, [projectId]),
    baseSame && previous?.base ? previous.base : loadBase(db, projectId),
    same(VERSION_PARTS.judgeLabels) && previous?.judges
      ? previous.judges
      : rows(db, `SELECT "judge", "queryId", "chunkId", "grade" FROM "JudgeLabel" WHERE "projectId" = ?`, [projectId]).then((judgeRows) => {
          const judges = new Map<string, TLabel[]>();
          for (const name of [...new Set(judgeRows.map((j) => str(j[0])))].sort()) judges.set(name, []);
          for (const j of judgeRows) judges.get(str(j[0]))!.push({ queryId: num(j[1]), chunkId: num(j[2]), grade: num(j[3]) });
          return judges;
        }),
    same(VERSION_PARTS.referenceLabels) && previous?.imported
      ? previous.imported
      : rows(db, `SELECT "queryId", "chunkId", "grade", "startSeconds", "source", "createdAt" FROM "ReferenceLabel" WHERE "projectId" = ?`, [projectId]).then((importRows) =>
          importRows
            .map((r) => ({ label: { queryId: num(r[0]), chunkId: num(r[1]), grade: num(r[2]), startSeconds: numOrNull(r[3]), source: str(r[4]) } as TImported, source: str(r[4]), createdAt: r[5] instanceof Date ? r[5] : new Date(str(r[5])) }))
            .sort(importPrecedence)
            .map((r) => r.label),
        ),
    baseSame && same(VERSION_PARTS.assignments) && previous?.assignments
      ? previous.assignments
      : viaPool(`t."poolItemId", t."userId"`, "Assignment").then((assignRows) => {
          const assigned = new Map<string, number>();
          const assignedByUser = new Map<string, number>();
          for (const a of assignRows) {
            const item = str(a[0]);
            const user = str(a[1]);
            assigned.set(item, (assigned.get(item) ?? 0) + 1);
            assignedByUser.set(user, (assignedByUser.get(user) ?? 0) + 1);
          }
          return { assigned, assignedByUser };
        }),
    baseSame && same(VERSION_PARTS.adjudications) && previous?.adjudications
      ? previous.adjudications
      : viaPool(`t."poolItemId", t."grade", t."startSeconds"`, "Adjudication").then((adjRows) => new Map(adjRows.map((a) => [str(a[0]), { grade: num(a[1]), startSeconds: numOrNull(a[2]) }]))),
    same(VERSION_PARTS.judgements) && previous?.judgements ? previous.judgements : loadJudgements(db, previous?.judgements),
  ]);
  const p = projectRows[0];
  if (!p) throw new AppError("not_found", `no project with id ${projectId}`);
  const project = { id: num(p[0]), name: str(p[1]), calibrationTarget: num(p[2]), minPerGrade: num(p[3]), annotatorsPerItem: num(p[4]) };
  const settings: TRuleSettings = { disagreementRule: str(p[5]) as TRuleSettings["disagreementRule"], startToleranceSeconds: num(p[6]), annotatorsPerItem: num(p[4]) };
  const { poolItems } = base;
  const { assigned, assignedByUser } = assignments;

  // This project's judgements, in submission order (id ascending).
  const judgements: TJudgementRow[] = [];
  for (const j of judgementState.byId.values()) if (poolItems.has(j.poolItemId)) judgements.push(j);
  const byItem = new Map<string, TJudgementRow[]>();
  for (const j of judgements) {
    const list = byItem.get(j.poolItemId);
    if (list) list.push(j);
    else byItem.set(j.poolItemId, [j]);
  }
  // Final human labels and stages per pool item, as lib/labels/reference.ts referenceLabels and
  // lib/labels/stage.ts define them (a human final label from finalLabel() wins; otherwise the
  // latest import, ties by source name), from the rows loaded here; recomputed only for the items
  // whose judgements, adjudication, assignments or import changed.
  // tests/integration/dashboard-panels.test.ts checks the set against referenceLabels.
  const index = importIndex(base, imported, previous?.importIndex);
  const settingsKey = JSON.stringify(settings);
  const state = (id: string, it: { queryId: number; chunkId: number }, before: TItemState | undefined): TItemState => {
    const js = byItem.get(id) ?? NO_ROWS;
    const adjudication = adjudications.get(id);
    const count = assigned.get(id) ?? 0;
    const isImported = index.importedItems.has(id);
    if (before && before.assigned === count && before.imported === isImported && before.adjudication?.grade === adjudication?.grade && before.adjudication?.startSeconds === adjudication?.startSeconds && sameRows(before.judgements, js)) return before;
    const f = !adjudication && js.length === 0 ? null : finalLabel({ judgements: js as TLabelInput[] as TItemJudgement[], adjudication: adjudication ? { ...adjudication, rationale: "" } : null }, settings);
    return {
      judgements: js,
      adjudication,
      assigned: count,
      imported: isImported,
      final: f ? { queryId: it.queryId, chunkId: it.chunkId, grade: f.grade, startSeconds: f.startSeconds, status: f.status, source: null } : null,
      stage: itemStage({ assignments: count, judgements: js, adjudicated: adjudication !== undefined, imported: isImported }, settings),
    };
  };
  const prev = previous?.items && previous.items.base === base && previous.items.settings === settingsKey ? previous.items : undefined;
  let items: TItemStates;
  // The queries whose final human labels may differ from the previous version's (null: any).
  let changedQueries: Set<number> | null = null;
  if (prev && prev.index === index && prev.adjudications === adjudications && prev.assignments === assignments && (judgementState === previous?.judgements || judgementState.changedItems)) {
    // Only judgements changed, and we know on which items: the others keep their state.
    items = { ...prev, states: prev.states.slice() };
    changedQueries = new Set();
    if (judgementState !== previous?.judgements)
      for (const id of judgementState.changedItems ?? []) {
        const at = prev.position.get(id);
        if (at === undefined) continue;
        items.states[at] = state(id, poolItems.get(id)!, prev.states[at]);
        if (items.states[at].final !== prev.states[at].final) changedQueries.add(poolItems.get(id)!.queryId);
      }
  } else {
    const ids = [...poolItems.keys()];
    items = { base, settings: settingsKey, index, adjudications, assignments, ids, position: prev?.position ?? new Map(ids.map((id, i) => [id, i])), states: [] };
    // With the same pool, settings and imports, the items whose final label changed tell the queries.
    const known = prev !== undefined && prev.index === index;
    if (known) changedQueries = new Set();
    items.states = ids.map((id) => {
      const at = prev?.position.get(id);
      const before = at === undefined ? undefined : prev?.states[at];
      const st = state(id, poolItems.get(id)!, before);
      if (known && st.final !== before?.final) changedQueries!.add(poolItems.get(id)!.queryId);
      return st;
    });
  }
  const referenceRows: TReference[] = [];
  const stages = Object.fromEntries([...STAGES.map((s) => [s, 0]), ["total", 0]]) as TStageCounts;
  for (const st of items.states) {
    if (st.final) referenceRows.push(st.final);
    stages[st.stage]++;
  }
  index.winners.forEach((r, i) => {
    const item = index.winnerItem[i];
    const at = item === null ? undefined : items.position.get(item);
    if (at === undefined || !items.states[at].final) referenceRows.push({ ...r, status: "imported" });
  });
  stages.imported += index.outsidePool;
  stages.total = poolItems.size + index.outsidePool;

  const userIds = [...new Set<string>([...assignedByUser.keys(), ...judgements.map((j) => j.userId)])];
  const users = userIds.length ? await rows(db, `SELECT "id", "name", "email" FROM "User" WHERE "id" IN (${userIds.map(() => "?").join(", ")})`, userIds) : [];

  const data: TDashboardData = {
    version,
    base,
    project,
    queries: base.queries,
    tags: base.tags,
    chunks: base.chunks,
    reference: referenceRows,
    stages,
    judges,
    poolItems,
    provenance: base.provenance,
    assigned,
    assignedByUser,
    judgements,
    judgementsByItem: byItem,
    referenceChanges: previous && changedQueries && judges === previous.judges ? { from: previous.version, queries: changedQueries } : null,
    adjudicated: new Set(adjudications.keys()),
    users: new Map(users.map((u) => [str(u[0]), { name: str(u[1]), email: str(u[2]) }])),
    runs: base.runs,
  };
  return { data, sections: { version, parts, base, judges, imported, assignments, adjudications, judgements: judgementState, importIndex: index, items } };
}

type CacheEntry = { version: string; data: Promise<TDashboardData>; sections: Promise<TSections | undefined>; results: Map<string, unknown> };
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
 * Requests for one project that arrive in the same turn of the event loop (the page's panels)
 * share one version check, made after they all arrived: none of them can miss a change made
 * before it asked.
 */
const pendingChecks = new Map<string, Promise<string[]>>();
function sharedVersionCheck(db: Db, projectId: number, key: string): Promise<string[]> {
  let check = pendingChecks.get(key);
  if (!check) {
    check = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      pendingChecks.delete(key);
      return versionParts(db, projectId);
    });
    pendingChecks.set(key, check);
  }
  return check;
}

/**
 * The dashboard's data for a project, loaded once per label-set version: a request after any
 * label, run, pool or settings change reloads (only the tables that changed, see `load`);
 * otherwise the loaded tables (and the panels already computed from them, see `memo`) are reused.
 */
export async function dashboardData(db: Db, projectId: number): Promise<{ data: TDashboardData; memo: <T>(key: string, fn: () => T) => T }> {
  const key = cacheKey(projectId);
  const parts = await sharedVersionCheck(db, projectId, key);
  const version = `[${parts.join(",")}]`;
  const c = cache();
  let entry = c.get(key);
  if (!entry || entry.version !== version) {
    const previous = entry ? entry.sections : Promise.resolve(undefined);
    const loaded = previous.then((prev) => load(db, projectId, version, parts, prev));
    entry = { version, data: loaded.then((l) => l.data), sections: loaded.then((l) => l.sections).catch(() => undefined), results: new Map() };
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
