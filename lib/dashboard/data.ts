/**
 * The dashboard's data for a project, the public entry point: the model types (lib/dashboard/model.ts),
 * and the cache of one load per project and label-set version (loading: lib/dashboard/load/*).
 */
import type { Db } from "../db/client.ts";
import type { TDashboardData } from "./model.ts";
import { DashboardCache, newLineage } from "./load/cache.ts";
import { load } from "./load/load.ts";
import type { TSections } from "./load/sections.ts";
import { versionParts } from "./load/version.ts";
import { closeReadSql } from "../db/read.ts";

export type {
  TChunkInfo,
  TDashboardData,
  TDashboardProject,
  TJudgementRow,
  TLabel,
  TQueryInfo,
  TReference,
} from "./model.ts";
export { labelSetVersion } from "./load/version.ts";

type CacheEntry = {
  version: string;
  cache: DashboardCache;
  data: Promise<TDashboardData>;
  sections: Promise<TSections | undefined>;
};
const MAX_PROJECTS = 8;
const globalCache = globalThis as unknown as { __assessorDashboard?: Map<string, CacheEntry> };

/** The registry of cache objects: one per database and project, the current version's. */
function cache(): Map<string, CacheEntry> {
  globalCache.__assessorDashboard ??= new Map();
  return globalCache.__assessorDashboard;
}

/** The cache objects of every project loaded in this process. */
export function dashboardCaches(): DashboardCache[] {
  return [...cache().values()].map((e) => e.cache);
}

/** The registry's key: the database URL, so that tests with several databases never mix, and the project. */
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
 * label, run, pool or settings change reloads (only the tables that changed, see
 * lib/dashboard/load/load.ts); otherwise the loaded tables (and the panels already computed from
 * them, see `memo`) are reused.
 */
export async function dashboardData(
  db: Db,
  projectId: number,
): Promise<{ data: TDashboardData; cache: DashboardCache; memo: <T>(key: string, fn: () => T) => T }> {
  const key = cacheKey(projectId);
  const parts = await sharedVersionCheck(db, projectId, key);
  const version = `[${parts.join(",")}]`;
  const c = cache();
  let entry = c.get(key);
  if (!entry || entry.version !== version) {
    const previous = entry ? entry.sections : Promise.resolve(undefined);
    // The new version's cache object takes the project's lineage (what is computed incrementally)
    // from the previous one, which is dropped with everything else it held.
    const next = new DashboardCache(version, entry?.cache.lineage ?? newLineage());
    const loaded = previous.then((prev) => load(db, projectId, version, parts, prev, next));
    entry = {
      version,
      cache: next,
      data: loaded.then((l) => l.data),
      sections: loaded.then((l) => l.sections).catch(() => undefined),
    };
    c.delete(key);
    c.set(key, entry);
    while (c.size > MAX_PROJECTS) c.delete(c.keys().next().value as string);
    entry.data.catch(() => c.delete(key));
  }
  const current = entry.cache;
  return { data: await entry.data, cache: current, memo: (k, fn) => current.memo(k, fn) };
}

/** Forget every cached project, with its lineage (tests and benchmarks measuring a cold start). */
export function clearDashboardCache(): void {
  cache().clear();
  closeReadSql();
}
