/**
 * Two label sets aligned on (query, chunk) once over the whole project, per query, and interned:
 * a query whose alignment did not change since the last label-set version keeps its object and
 * serial number, which name the slices cut from it (lib/dashboard/agreement/slices.ts).
 */
import type { LabelPair } from "../../stats/agreement/align.ts";
import type { TDashboardData, TLabel } from "../model.ts";
import { cacheOf, type TCacheHolder } from "../load/cache.ts";

export type Keyed = { queryId: number; chunkId: number };
export type TQueryAlignment = { pairs: (LabelPair & Keyed)[]; referenceOnly: number[]; otherOnly: number[] };
/**
 * Two label sets aligned once over the whole project, per query (queryId → its pairs and unmatched
 * chunk ids), ready to be cut into slices. A query's alignment that did not change since the last
 * label-set version is the same object, with the same serial number (see `intern`).
 */
export type TInterned = TQueryAlignment & { serial: number; base: object; lineage: string };
export type TFullAlignment = Map<number, TInterned>;

/** One counter for every serial number (alignments, slice parts, pools): keys made of them never collide. */
let serials = 0;
export function nextSerial(): number {
  return ++serials;
}

/**
 * lib/stats/agreement/align.ts alignLabels on internal ids: pairs on (query, chunk), a later
 * reference label for the same pair replacing an earlier one, every other label without a
 * reference label counted as other-only.
 */
export function alignAll(
  data: TDashboardData,
  reference: Iterable<TLabel>,
  other: Iterable<TLabel>,
): Map<number, TQueryAlignment> {
  const ref = new Map<number, Map<number, number>>();
  for (const r of reference) {
    let m = ref.get(r.queryId);
    if (!m) ref.set(r.queryId, (m = new Map()));
    m.set(r.chunkId, r.grade);
  }
  const out = new Map<number, TQueryAlignment>();
  const of = (queryId: number) => {
    let q = out.get(queryId);
    if (!q) out.set(queryId, (q = { pairs: [], referenceOnly: [], otherOnly: [] }));
    return q;
  };
  const matched = new Map<number, Set<number>>();
  for (const l of other) {
    const g = ref.get(l.queryId)?.get(l.chunkId);
    if (g === undefined) {
      of(l.queryId).otherOnly.push(l.chunkId);
      continue;
    }
    let m = matched.get(l.queryId);
    if (!m) matched.set(l.queryId, (m = new Set()));
    m.add(l.chunkId);
    const qid = data.queries.get(l.queryId)?.qid ?? String(l.queryId);
    const docid = data.chunks.get(l.chunkId)?.docid ?? String(l.chunkId);
    of(l.queryId).pairs.push({ qid, docid, reference: g, other: l.grade, queryId: l.queryId, chunkId: l.chunkId });
  }
  for (const [queryId, m] of ref) {
    const done = matched.get(queryId);
    for (const chunkId of m.keys()) if (!done?.has(chunkId)) of(queryId).referenceOnly.push(chunkId);
  }
  return out;
}

/**
 * alignAll of two label sets on the same items (one label each per pool item, so every label is
 * paired: the two grades of each item).
 */
export function alignItems(
  data: TDashboardData,
  items: readonly { queryId: number; chunkId: number; reference: number; other: number }[],
): Map<number, TQueryAlignment> {
  const out = new Map<number, TQueryAlignment>();
  for (const it of items) {
    let q = out.get(it.queryId);
    if (!q) out.set(it.queryId, (q = { pairs: [], referenceOnly: [], otherOnly: [] }));
    const qid = data.queries.get(it.queryId)?.qid ?? String(it.queryId);
    const docid = data.chunks.get(it.chunkId)?.docid ?? String(it.chunkId);
    q.pairs.push({ qid, docid, reference: it.reference, other: it.other, queryId: it.queryId, chunkId: it.chunkId });
  }
  return out;
}

const interned = (data: TCacheHolder) =>
  cacheOf(data).carried("agreement/align.interned", () => new Map<string, TFullAlignment>());
const MAX_INTERNED = 200;
const sameNumbers = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The alignment `key` of this project as last computed: each query whose alignment is unchanged
 * (same pairs, grades and unmatched chunks, same pool) keeps its object and serial number, so a
 * slice's pairs are named by the serials of its queries (the report cache's key).
 */
export function intern(data: TDashboardData, key: string, all: Map<number, TQueryAlignment>): TFullAlignment {
  const k = `${key}`;
  const before = interned(data).get(k);
  const out: TFullAlignment = new Map();
  for (const [queryId, a] of all) {
    const p = before?.get(queryId);
    const same =
      p === a ||
      (p !== undefined &&
        p.base === data.base &&
        p.pairs.length === a.pairs.length &&
        p.pairs.every(
          (x, i) =>
            x.chunkId === a.pairs[i].chunkId && x.reference === a.pairs[i].reference && x.other === a.pairs[i].other,
        ) &&
        sameNumbers(p.referenceOnly, a.referenceOnly) &&
        sameNumbers(p.otherOnly, a.otherOnly));
    out.set(queryId, same && p ? p : { ...a, serial: nextSerial(), base: data.base, lineage: k });
  }
  interned(data).delete(k);
  interned(data).set(k, out);
  while (interned(data).size > MAX_INTERNED) interned(data).delete(interned(data).keys().next().value as string);
  return out;
}

// Alignments depend only on the loaded data, which is immutable per label-set version.
const alignments = (data: TCacheHolder) =>
  cacheOf(data).per("agreement/align.alignments", () => new WeakMap<TDashboardData, Map<string, TFullAlignment>>());
export function alignmentOf(
  data: TDashboardData,
  key: string,
  make: () => Map<number, TQueryAlignment>,
): TFullAlignment {
  let m = alignments(data).get(data);
  if (!m) alignments(data).set(data, (m = new Map()));
  let a = m.get(key);
  if (!a) m.set(key, (a = intern(data, key, make())));
  return a;
}
