/**
 * Slices of an alignment (by query tag, by the pool items a system's run contributed): which
 * pairs they keep, their parts of each query (kept with its serial while unchanged), and the key
 * that names a slice's content for the block and report caches.
 */
import type { Aligned, LabelPair } from "../../stats/agreement/align.ts";
import { contributedBy, runBySystem, tagFilter } from "../labels.ts";
import type { TDashboardData } from "../model.ts";
import { nextSerial, type Keyed, type TFullAlignment, type TInterned } from "./align.ts";
import { cacheOf, type TCacheHolder } from "../load/cache.ts";

/**
 * Which pairs a slice keeps: queries (a tag) and, per query, chunks (the pool items a run
 * contributed); null keeps all.
 */
export type Slice = {
  name: string;
  queries: ((queryId: number) => boolean) | null;
  chunks: Map<number, Set<number>> | null;
};

export function inSlice(slice: Slice, queryId: number, chunkId: number): boolean {
  return (
    (!slice.queries || slice.queries(queryId)) && (!slice.chunks || (slice.chunks.get(queryId)?.has(chunkId) ?? false))
  );
}

export function sliceFilter(data: TDashboardData, tag: string | undefined, system: string | undefined): Slice {
  return {
    name: `${tag ?? ""}\u0000${system ?? ""}`,
    queries: tag ? tagFilter(data, tag) : null,
    chunks: system ? contributedBy(data, runBySystem(data, system).id) : null,
  };
}

/**
 * A query's pairs in a slice by pool contributions (a run's items), kept with the query's
 * alignment; a part equal to the last one for this alignment, slice and query keeps its serial,
 * so a slice's key changes only when its own pairs do.
 */
type TPart = { pairs: (LabelPair & Keyed)[]; referenceOnly: number; otherOnly: number; serial: number; base: object };
const parts = (data: TCacheHolder) =>
  cacheOf(data).carried("agreement/slices.parts", () => new WeakMap<object, Map<string, TPart>>());
const lastParts = (data: TCacheHolder) =>
  cacheOf(data).carried("agreement/slices.lastParts", () => new Map<string, TPart>());
const MAX_PARTS = 400_000;

function part(data: TCacheHolder, q: TInterned, queryId: number, slice: Slice, chunks: Set<number>): TPart {
  let m = parts(data).get(q);
  if (!m) parts(data).set(q, (m = new Map()));
  let got = m.get(slice.name);
  if (got) return got;
  const pairs = q.pairs.filter((x) => chunks.has(x.chunkId));
  let referenceOnly = 0;
  let otherOnly = 0;
  for (const c of q.referenceOnly) if (chunks.has(c)) referenceOnly++;
  for (const c of q.otherOnly) if (chunks.has(c)) otherOnly++;
  const key = `${q.lineage}\u0000${slice.name}\u0000${queryId}`;
  const prev = lastParts(data).get(key);
  const same =
    prev !== undefined &&
    prev.base === q.base &&
    prev.referenceOnly === referenceOnly &&
    prev.otherOnly === otherOnly &&
    prev.pairs.length === pairs.length &&
    prev.pairs.every(
      (x, i) => x.chunkId === pairs[i].chunkId && x.reference === pairs[i].reference && x.other === pairs[i].other,
    );
  got = same && prev ? prev : { pairs, referenceOnly, otherOnly, serial: nextSerial(), base: q.base };
  m.set(slice.name, got);
  if (lastParts(data).size >= MAX_PARTS) lastParts(data).clear();
  lastParts(data).set(key, got);
  return got;
}

/** Names the slice's part of an alignment: slice, pool, and the serials of what it keeps of each query. */
export function sliceKey(data: TDashboardData, all: TFullAlignment, slice: Slice): string {
  let key = `${baseSerial(data)}\u0000${slice.name}`;
  for (const [queryId, q] of all) {
    if (slice.queries && !slice.queries(queryId)) continue;
    if (!slice.chunks) {
      key += ` ${q.serial}`;
      continue;
    }
    const chunks = slice.chunks.get(queryId);
    if (chunks) key += ` ${part(data, q, queryId, slice, chunks).serial}`;
  }
  return key;
}

/** The slice's part of an alignment; `key` names its content (slice, pool, serials of its queries). */
export function cut(data: TDashboardData, all: TFullAlignment, slice: Slice): Aligned & { key: string } {
  const out: Aligned & { key: string } = {
    pairs: [],
    referenceOnly: 0,
    otherOnly: 0,
    key: `${baseSerial(data)}\u0000${slice.name}`,
  };
  for (const [queryId, q] of all) {
    if (slice.queries && !slice.queries(queryId)) continue;
    const chunks = slice.chunks ? slice.chunks.get(queryId) : null;
    if (chunks === undefined) continue;
    out.key += ` ${q.serial}`;
    if (chunks === null) {
      for (const p of q.pairs) out.pairs.push(p);
      out.referenceOnly += q.referenceOnly.length;
      out.otherOnly += q.otherOnly.length;
      continue;
    }
    const got = part(data, q, queryId, slice, chunks);
    for (const p of got.pairs) out.pairs.push(p);
    out.referenceOnly += got.referenceOnly;
    out.otherOnly += got.otherOnly;
  }
  return out;
}

const baseSerials = (data: TCacheHolder) =>
  cacheOf(data).carried("agreement/slices.baseSerials", () => new WeakMap<object, number>());
function baseSerial(data: TDashboardData): number {
  const base = data.base;
  let n = baseSerials(data).get(base);
  if (n === undefined) baseSerials(data).set(base, (n = nextSerial()));
  return n;
}
