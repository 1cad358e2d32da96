/**
 * The labels the chunking report scores with (chunking-report.ts): per chunking the final human
 * labels, the questions completely human-labelled there (the audit sample) and the labels of a
 * transfer judge into it; memoised in the dashboard's cache object.
 */
import { UNJUDGED, type RankedQuery } from "../stats/measures/types.ts";
import type { TDashboardData, TLabel } from "./data.ts";
import { qrelsOf } from "./labels.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";

export type Labels = Map<number, Map<number, number>>;

export function ranked(qid: string, chunkIds: ArrayLike<number>, judged: Map<number, number> | undefined): RankedQuery {
  const grades = new Int8Array(chunkIds.length);
  const atGrade = [0, 0, 0, 0];
  if (judged) for (const g of judged.values()) if (g >= 0 && g <= 3) atGrade[g]++;
  for (let i = 0; i < grades.length; i++) grades[i] = judged?.get(chunkIds[i]) ?? UNJUDGED;
  return { qid, grades, judgedAtGrade: atGrade };
}

/** Questions completely human-labelled on one chunking: ≥ 1 pool item on its chunks, each with a final human label. */
export const poolCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "chunking-report.poolCache",
    () => new WeakMap<object, Map<number, Map<number, Set<number>>>>(),
  );
/** Per question, the chunks with an annotator's final label (agreed or adjudicated: not imported). */
export const annotatedCache = (data: TCacheHolder) =>
  cacheOf(data).per("chunking-report.annotatedCache", () => new WeakMap<TDashboardData, Map<number, Set<number>>>());
export function annotated(data: TDashboardData): Map<number, Set<number>> {
  let out = annotatedCache(data).get(data);
  if (out) return out;
  out = new Map();
  for (const l of data.reference) {
    if (l.status === "imported") continue;
    let chunks = out.get(l.queryId);
    if (!chunks) out.set(l.queryId, (chunks = new Set()));
    chunks.add(l.chunkId);
  }
  annotatedCache(data).set(data, out);
  return out;
}

/**
 * Questions audited on a chunking: it has pool items of the chunking's chunks and every one has an
 * annotator's final label (imported labels, such as an imported truth, are no audit).
 */
export function auditedQuestions(data: TDashboardData, chunkingId: number): Set<number> {
  let byChunking = poolCache(data).get(data.base);
  if (!byChunking) {
    byChunking = new Map();
    for (const it of data.poolItems.values()) {
      const c = data.chunks.get(it.chunkId)?.chunkingId;
      if (c === undefined) continue;
      let byQuery = byChunking.get(c);
      if (!byQuery) byChunking.set(c, (byQuery = new Map()));
      let chunks = byQuery.get(it.queryId);
      if (!chunks) byQuery.set(it.queryId, (chunks = new Set()));
      chunks.add(it.chunkId);
    }
    poolCache(data).set(data.base, byChunking);
  }
  const pooled = byChunking.get(chunkingId) ?? new Map<number, Set<number>>();
  const out = new Set<number>();
  const people = annotated(data);
  for (const [queryId, chunks] of pooled) {
    const h = people.get(queryId);
    if (h && [...chunks].every((c) => h.has(c))) out.add(queryId);
  }
  return out;
}

export type TPerChunking = {
  human: Labels;
  derived: Labels;
  derivedText: Map<number, string>;
  judge: string | null;
  audited: Set<number>;
};
export const NO_LABELS: Labels = new Map();

/**
 * Final human labels grouped by their chunk's chunking, then by question, per label-set version.
 * The next version copies the previous one's and rebuilds only the questions whose labels changed
 * (data.referenceChanges), as lib/dashboard/labels.ts referenceQrels does.
 */
export const humanCache = (data: TCacheHolder) =>
  cacheOf(data).per("chunking-report.humanCache", () => new WeakMap<TDashboardData, Map<number, Labels>>());
export const lastHuman = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "chunking-report.lastHuman",
    () => new WeakMap<object, { version: string; byChunking: Map<number, Labels> }>(),
  );
export function humanByChunking(data: TDashboardData): Map<number, Labels> {
  let out = humanCache(data).get(data);
  if (out) return out;
  const last = lastHuman(data).get(data.base);
  const changes = data.referenceChanges;
  if (last && changes && last.version === changes.from) {
    out = new Map([...last.byChunking].map(([c, byQuery]) => [c, new Map(byQuery)]));
    for (const byQuery of out.values()) for (const q of changes.queries) byQuery.delete(q);
  } else out = new Map();
  const only = last && changes && last.version === changes.from ? changes.queries : null;
  for (const l of data.reference) {
    if (only && !only.has(l.queryId)) continue;
    const chunkingId = data.chunks.get(l.chunkId)?.chunkingId;
    if (chunkingId === undefined) continue;
    let byQuery = out.get(chunkingId);
    if (!byQuery) out.set(chunkingId, (byQuery = new Map()));
    let m = byQuery.get(l.queryId);
    if (!m) byQuery.set(l.queryId, (m = new Map()));
    m.set(l.chunkId, l.grade);
  }
  humanCache(data).set(data, out);
  lastHuman(data).set(data.base, { version: data.version, byChunking: out });
  return out;
}

/** A judge's labels on one chunking by question, with their text (the cache signature); kept per label list (judge labels change only with an import). */
export const derivedCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "chunking-report.derivedCache",
    () => new WeakMap<readonly TLabel[], Map<number, { labels: Labels; text: Map<number, string> }>>(),
  );
export function derivedLabels(data: TDashboardData, list: readonly TLabel[], chunkingId: number) {
  let byChunking = derivedCache(data).get(list);
  if (!byChunking) derivedCache(data).set(list, (byChunking = new Map()));
  let v = byChunking.get(chunkingId);
  if (!v) {
    const labels = qrelsOf(list.filter((l) => data.chunks.get(l.chunkId)?.chunkingId === chunkingId));
    v = { labels, text: new Map([...labels].map(([q, m]) => [q, labelText(m)])) };
    byChunking.set(chunkingId, v);
  }
  return v;
}

export function labelText(m: Map<number, number> | undefined): string {
  let t = "";
  if (m) for (const [c, g] of m) t += `${c}:${g},`;
  return t;
}
