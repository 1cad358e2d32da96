import type { ChunkTime } from "../stats/measures/start-error.ts";
import {
  answerSpanRecall,
  referenceSpans,
  secondsRead,
  timeIou,
  timeStartError,
  type AnswerPlace,
  type MarkedStart,
  type ReferenceSpan,
} from "../stats/time/index.ts";
import type { TDashboardData } from "./data.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";

/**
 * The dashboard's inputs of the time-based measures (lib/stats/time), from the
 * loaded project: chunk times per chunking, and each question's answer places.
 *
 * - Chunk times are keyed by docid within one chunking: two chunkings may give the same docid to
 *   different chunks (an imported chunking), so a run's docids are looked up in its own chunking
 *   only. Videos are the internal video id as a string.
 * - A question's reference spans (lib/stats/time/reference.ts `referenceSpans`, the rule stated
 *   there): its answer places (start, and end when given; a place without
 *   a video is dropped, it cannot be placed on a timeline; without an end it is an instant for the
 *   measures) and the corrected starts of its grade-3 labels in any chunking (with the label's
 *   answer end when marked, else instants), not the
 *   labelled chunks' bounds: the time measures do not move when another chunking's labels arrive.
 */
export type TChunkTimes = Map<string, ChunkTime & { end: number }>;

const timesCache = (data: TCacheHolder) =>
  cacheOf(data).carried("time.timesCache", () => new WeakMap<object, Map<number, TChunkTimes>>());

/** Chunk times per chunking id (kept per data.base: chunks do not change with labels). */
export function chunkTimesByChunking(data: TDashboardData): Map<number, TChunkTimes> {
  let byChunking = timesCache(data).get(data.base);
  if (byChunking) return byChunking;
  byChunking = new Map();
  for (const c of data.chunks.values()) {
    let m = byChunking.get(c.chunkingId);
    if (!m) byChunking.set(c.chunkingId, (m = new Map()));
    m.set(c.docid, { video: String(c.videoId), start: c.start, end: c.end });
  }
  timesCache(data).set(data.base, byChunking);
  return byChunking;
}

const placesCache = (data: TCacheHolder) =>
  cacheOf(data).per("time.placesCache", () => new WeakMap<TDashboardData, Map<number, ReferenceSpan[]>>());

/** Reference spans per query id (internal), for every query of the project (an empty list: none). */
export function answerPlacesByQuery(data: TDashboardData): Map<number, ReferenceSpan[]> {
  let out = placesCache(data).get(data);
  if (out) return out;
  const starts = new Map<number, MarkedStart[]>();
  for (const r of data.reference) {
    if (r.grade < 3 || r.startSeconds === null) continue;
    const c = data.chunks.get(r.chunkId);
    if (!c) continue;
    let list = starts.get(r.queryId);
    if (!list) starts.set(r.queryId, (list = []));
    list.push({ video: String(c.videoId), start: r.startSeconds, end: r.endSeconds ?? null });
  }
  out = new Map();
  for (const [queryId, q] of data.queries) {
    const given = q.places.map((p) => ({
      video: p.videoId === null ? null : String(p.videoId),
      start: p.start,
      end: p.end,
    }));
    out.set(queryId, referenceSpans(given, starts.get(queryId) ?? []));
  }
  placesCache(data).set(data, out);
  return out;
}

/** A short text that changes when a query's answer places change (the systems table's cache key). */
export function placesSignature(places: readonly AnswerPlace[] | undefined): string {
  return places ? places.map((p) => `${p.video}:${p.start}-${p.end ?? ""}`).join(";") : "";
}

/** The time measures of one question for one ranking, the columns the dashboard shows. */
export type TTimeValues = {
  spanRecall5: number | null;
  spanRecall10: number | null;
  timeIou10: number | null;
  secondsRead10: number;
  startError: number | null;
  within: Record<15 | 30 | 60, number | null>;
};

/** The time measures of one question (lib/stats/time's functions on a one-question input). */
export function timeValues(
  qid: string,
  docids: readonly string[],
  chunks: ReadonlyMap<string, ChunkTime & { end: number }>,
  places: readonly AnswerPlace[],
): TTimeValues {
  const input = { rankings: new Map([[qid, docids]]), chunks, references: new Map([[qid, places]]) };
  const r5 = answerSpanRecall(input, { k: 5 }).perQuery.get(qid);
  const r10 = answerSpanRecall(input, { k: 10 }).perQuery.get(qid);
  const iou = timeIou(input, { k: 10 }).perQuery.get(qid);
  const read = secondsRead(input, { k: 10 }).perQuery.get(qid);
  const start = timeStartError(input).perQuery.get(qid);
  const within = (s: number) => (start ? (start.error <= s ? 1 : 0) : null);
  return {
    spanRecall5: r5 ? r5.recall : null,
    spanRecall10: r10 ? r10.recall : null,
    timeIou10: iou ? iou.iou : null,
    secondsRead10: read ? read.seconds : 0,
    startError: start ? start.error : null,
    within: { 15: within(15), 30: within(30), 60: within(60) },
  };
}
