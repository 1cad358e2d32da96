/**
 * A question's reference answer spans in video time: what the time measures
 * (span recall, time-IoU, seconds read, start error) and the label transfer read as "where the
 * answer is". Chunk grades stay the reference of the ranking measures; spans are the reference in
 * time, and they do not depend on which chunkings have labels.
 *
 * The definition:
 * 1. Every answer place given with the question (written at /write or imported: video, start, and
 *    end when given) is a span [start, end]; a place without an end is open (end null: its start
 *    is known, its length is not). A place without a video cannot be put on a timeline and is
 *    dropped; an end before the start is not an end (open).
 * 2. Every corrected start of a grade-3 label (the annotator's "the answer starts here", in any
 *    chunking), with the label's optional corrected end (the answer-end key), is a span of its own,
 *    open when it has no end — unless it lies within `mergeSeconds` of a span already listed in the
 *    same video (from [start − m, end + m], an open span counting as its start): it marks an answer
 *    already known (the place, or the same answer marked by the annotators of another chunking).
 *    Starts are taken in the order (video, start, end), so the result does not depend on the order
 *    labels are read in.
 * 3. Nothing else: a grade-3 label without a corrected start names a chunk, not a time, and the
 *    chunk's bounds belong to its chunking. A question with no place and no corrected start has no
 *    reference span (its time measures are not scored).
 *
 * `mergeSeconds` defaults to 5 s, about one subtitle cue (the span-recall tolerance).
 */
import { SPAN_RECALL_TOLERANCE } from "./span-recall.ts";

/** A reference span; `end` null: open (only the start is known). */
export type ReferenceSpan = { video: string; start: number; end: number | null };

/** An answer place as stored (QueryPlace): video may be missing, end is optional. */
export type GivenPlace = { video: string | null; start: number; end?: number | null };

/** A grade-3 label's corrected start (and, when the annotator marked it, its end). */
export type MarkedStart = { video: string; start: number; end?: number | null };

const endOf = (start: number, end: number | null | undefined): number | null =>
  end !== null && end !== undefined && Number.isFinite(end) && end >= start ? end : null;

export function referenceSpans(
  places: readonly GivenPlace[],
  starts: readonly MarkedStart[],
  mergeSeconds = SPAN_RECALL_TOLERANCE,
): ReferenceSpan[] {
  const out: ReferenceSpan[] = [];
  for (const p of places)
    if (p.video !== null && Number.isFinite(p.start))
      out.push({ video: p.video, start: p.start, end: endOf(p.start, p.end) });
  const sorted = starts
    .filter((s) => Number.isFinite(s.start))
    .map((s) => ({ video: s.video, start: s.start, end: endOf(s.start, s.end) }))
    .sort((a, b) =>
      a.video < b.video ? -1 : a.video > b.video ? 1 : a.start - b.start || (a.end ?? a.start) - (b.end ?? b.start),
    );
  for (const s of sorted) {
    const known = out.some(
      (r) => r.video === s.video && s.start >= r.start - mergeSeconds && s.start <= (r.end ?? r.start) + mergeSeconds,
    );
    if (!known) out.push(s);
  }
  return out;
}
