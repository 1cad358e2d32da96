import type { TDashboardData } from "./data.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";

/**
 * Complete calibration questions: questions with at least one pool item whose every pool item has
 * a final human label (agreed, adjudicated or imported). Per-question measures computed with human
 * labels are exact only on them, so PPI (lib/dashboard/ppi.ts) takes its human values from them
 * and the calibration panel counts them. Kept per data object (one label-set version).
 */
const cache = (data: TCacheHolder) =>
  cacheOf(data).per("complete.cache", () => new WeakMap<TDashboardData, Set<number>>());
/** Pool items per question, kept per data.base (the pool does not change with labels). */
const pools = (data: TCacheHolder) =>
  cacheOf(data).carried("complete.pools", () => new WeakMap<object, Map<number, Set<number>>>());

/** The pooled chunks of each question (kept per data.base). */
export function pooledChunks(data: TDashboardData): Map<number, Set<number>> {
  let pooled = pools(data).get(data.base);
  if (pooled) return pooled;
  pooled = new Map();
  for (const it of data.poolItems.values()) {
    let chunks = pooled.get(it.queryId);
    if (!chunks) pooled.set(it.queryId, (chunks = new Set()));
    chunks.add(it.chunkId);
  }
  pools(data).set(data.base, pooled);
  return pooled;
}

export function completeQuestions(data: TDashboardData): Set<number> {
  let done = cache(data).get(data);
  if (done) return done;
  const pooled = pooledChunks(data);
  const labelled = new Map<number, Set<number>>();
  for (const r of data.reference) {
    if (!pooled.get(r.queryId)?.has(r.chunkId)) continue;
    let chunks = labelled.get(r.queryId);
    if (!chunks) labelled.set(r.queryId, (chunks = new Set()));
    chunks.add(r.chunkId);
  }
  done = new Set();
  for (const [queryId, chunks] of pooled) if (labelled.get(queryId)?.size === chunks.size) done.add(queryId);
  cache(data).set(data, done);
  return done;
}
