import type { ChunkTime } from "../stats/measures/start-error.ts";
import { answerPlaces, answerSpanRecall, secondsRead, timeIou, timeStartError, type TimeSpan } from "../stats/time/index.ts";
import type { TDashboardData } from "./data.ts";

/**
 * The dashboard's inputs of the time-based measures (lib/stats/time, issue 20 item 5), from the
 * loaded project: chunk times per chunking, and each question's answer places.
 *
 * - Chunk times are keyed by docid within one chunking: two chunkings may give the same docid to
 *   different chunks (an imported chunking), so a run's docids are looked up in its own chunking
 *   only. Videos are the internal video id as a string.
 * - A question's answer places (lib/stats/time/spans.ts `answerPlaces`, the rule stated there):
 *   its reference start (an instant in its reference video; a start without a video is dropped,
 *   it cannot be placed on a timeline) and, from its final human labels of grade 3 in any
 *   chunking, the labelled chunk's span with the annotator's corrected start where one was given.
 *   Labels are in video time, so every chunking's runs are measured against the same places.
 */
export type TChunkTimes = Map<string, ChunkTime & { end: number }>;

const timesCache = new WeakMap<object, Map<number, TChunkTimes>>();

/** Chunk times per chunking id (kept per data.base: chunks do not change with labels). */
export function chunkTimesByChunking(data: TDashboardData): Map<number, TChunkTimes> {
  let byChunking = timesCache.get(data.base);
  if (byChunking) return byChunking;
  byChunking = new Map();
  for (const c of data.chunks.values()) {
    let m = byChunking.get(c.chunkingId);
    if (!m) byChunking.set(c.chunkingId, (m = new Map()));
    m.set(c.docid, { video: String(c.videoId), start: c.start, end: c.end });
  }
  timesCache.set(data.base, byChunking);
  return byChunking;
}

const placesCache = new WeakMap<TDashboardData, Map<number, TimeSpan[]>>();

/** Answer places per query id (internal), for every query of the project (an empty list: none). */
export function answerPlacesByQuery(data: TDashboardData): Map<number, TimeSpan[]> {
  let out = placesCache.get(data);
  if (out) return out;
  const labels = new Map<number, { video: string; start: number; end: number; grade: number; correctedStart: number | null }[]>();
  for (const r of data.reference) {
    if (r.grade < 3) continue;
    const c = data.chunks.get(r.chunkId);
    if (!c) continue;
    let list = labels.get(r.queryId);
    if (!list) labels.set(r.queryId, (list = []));
    list.push({ video: String(c.videoId), start: c.start, end: c.end, grade: r.grade, correctedStart: r.startSeconds });
  }
  out = new Map();
  for (const [queryId, q] of data.queries) {
    // The question's answer places with a video (issue 23: several per question; end unset = an instant at the start).
    const given = q.places.flatMap((p) => (p.videoId === null ? [] : [{ video: String(p.videoId), start: p.start, end: p.start }]));
    out.set(queryId, answerPlaces(given, labels.get(queryId) ?? []));
  }
  placesCache.set(data, out);
  return out;
}

/** A short text that changes when a query's answer places change (the systems table's cache key). */
export function placesSignature(places: readonly TimeSpan[] | undefined): string {
  return places ? places.map((p) => `${p.video}:${p.start}-${p.end}`).join(";") : "";
}

/** The time measures of one question for one ranking, the columns the dashboard shows. */
export type TTimeValues = { spanRecall5: number | null; spanRecall10: number | null; timeIou10: number | null; secondsRead10: number; startError: number | null; within: Record<15 | 30 | 60, number | null> };

/** The time measures of one question (lib/stats/time's functions on a one-question input). */
export function timeValues(qid: string, docids: readonly string[], chunks: ReadonlyMap<string, ChunkTime & { end: number }>, places: readonly TimeSpan[]): TTimeValues {
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
