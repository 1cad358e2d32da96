/**
 * Time spans on a video's timeline: the common ground of the label transfer (transfer.ts) and the
 * time-based measures (span-recall.ts, time-iou.ts, seconds-read.ts, start-error.ts).
 *
 * Conventions, decided here once:
 * - Times are seconds (decimal numbers), as everywhere in Assessor. A span is the closed interval
 *   [start, end] of one video; its length is end − start; a zero-length span (end = start) is an
 *   instant and holds no seconds.
 * - Two spans interact only when they are in the same video: `video` keys are compared exactly
 *   (a missing video is the key ""; seconds of two different videos never overlap).
 * - Seconds are measured on unions: seconds that several spans share are counted once.
 */

export type TimeSpan = { video: string; start: number; end: number };

/** Seconds are compared with this slack: timestamps come from subtitle files rounded to milliseconds. */
export const EPS = 1e-6;

/** Seconds shared by [a0, a1] and [b0, b1] (0 when they only touch or are apart). */
export function overlapSeconds(a0: number, a1: number, b0: number, b1: number): number {
  const d = Math.min(a1, b1) - Math.max(a0, b0);
  return d > 0 ? d : 0;
}

/** [start, end] pairs of one video, sorted by start and merged where they overlap or touch. */
export type Intervals = Array<[number, number]>;

/** The union of intervals (input in any order; not changed), as sorted disjoint intervals. */
export function union(intervals: ReadonlyArray<readonly [number, number]>): Intervals {
  const sorted = intervals.filter(([s, e]) => e > s).sort((x, y) => x[0] - y[0]);
  const out: Intervals = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    if (last && s <= last[1]) last[1] = Math.max(last[1], e);
    else out.push([s, e]);
  }
  return out;
}

/** Total seconds of sorted disjoint intervals. */
export function measure(u: Intervals): number {
  let t = 0;
  for (const [s, e] of u) t += e - s;
  return t;
}

/** Seconds shared by two unions (both sorted and disjoint): a merge walk, O(|a| + |b|). */
export function intersectionSeconds(a: Intervals, b: Intervals): number {
  let i = 0;
  let j = 0;
  let t = 0;
  while (i < a.length && j < b.length) {
    t += overlapSeconds(a[i][0], a[i][1], b[j][0], b[j][1]);
    if (a[i][1] < b[j][1]) i++;
    else j++;
  }
  return t;
}

/** Groups spans by video into unions: video → sorted disjoint intervals. */
export function unionByVideo(spans: Iterable<TimeSpan>): Map<string, Intervals> {
  const raw = new Map<string, Array<[number, number]>>();
  for (const s of spans) {
    const list = raw.get(s.video);
    if (list) list.push([s.start, s.end]);
    else raw.set(s.video, [[s.start, s.end]]);
  }
  const out = new Map<string, Intervals>();
  for (const [v, list] of raw) out.set(v, union(list));
  return out;
}

/** Seconds of a per-video union. */
export function measureByVideo(u: ReadonlyMap<string, Intervals>): number {
  let t = 0;
  for (const iv of u.values()) t += measure(iv);
  return t;
}

/** Seconds shared by two per-video unions. */
export function intersectionByVideo(a: ReadonlyMap<string, Intervals>, b: ReadonlyMap<string, Intervals>): number {
  let t = 0;
  for (const [v, iv] of a) {
    const other = b.get(v);
    if (other) t += intersectionSeconds(iv, other);
  }
  return t;
}

/** Index of the first element of `sorted` (ascending) that is ≥ x (binary search). */
export function lowerBound(sorted: ArrayLike<number>, x: number, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Throws a RangeError naming `what` when a span is not [start ≤ end] in finite seconds ≥ 0. */
export function checkSpan(s: { start: number; end: number }, what: string): void {
  if (!Number.isFinite(s.start) || s.start < 0)
    throw new RangeError(`${what}: start must be seconds ≥ 0, found ${s.start}`);
  if (!Number.isFinite(s.end) || s.end < s.start)
    throw new RangeError(`${what}: end must be seconds ≥ start (${s.start}), found ${s.end}`);
}

/** A chunk's place in time as the chunks file gives it (lib/stats/start-inputs.ts). */
export type ChunkTimeLike = { video?: string | null; start: number; end?: number | null };

/**
 * The span a chunk covers: a missing video is "", a missing end makes the chunk an instant at its
 * start (it exposes no seconds of transcript that can be measured).
 */
export function chunkSpan(c: ChunkTimeLike): TimeSpan {
  return { video: c.video ?? "", start: c.start, end: c.end ?? c.start };
}

/** A question's reference answer place, or a labelled relevant span. `end` missing: an instant. */
export type AnswerPlace = { video?: string | null; start: number; end?: number | null };

export function placeSpan(p: AnswerPlace): TimeSpan {
  return { video: p.video ?? "", start: p.start, end: p.end ?? p.start };
}

/** A reference label kept in video time. */
export type TimedLabel = { video: string; start: number; end: number; grade: number; correctedStart?: number | null };

/**
 * Answer places of one question, the rule stated once:
 * - the places given with the question (its answer places: video, start, end), all of them;
 * - plus, from its reference labels of grade ≥ `minGrade` (default 3, "contains the exact
 *   answer"), one place per label: the labelled chunk's video, its end, and as start the
 *   annotator's corrected start where one was given (the answer begins there, even when that is
 *   before the chunk), else the chunk's start. A corrected start after the chunk's end is an
 *   inconsistent label: the chunk's start is used.
 * Places that are identical (same video, start and end within EPS) are kept once.
 */
export function answerPlaces(given: readonly AnswerPlace[], labels: readonly TimedLabel[], minGrade = 3): TimeSpan[] {
  const out: TimeSpan[] = given.map(placeSpan);
  for (const l of labels) {
    if (l.grade < minGrade) continue;
    const c = l.correctedStart;
    const start = c !== null && c !== undefined && Number.isFinite(c) && c <= l.end ? c : l.start;
    out.push({ video: l.video, start, end: l.end });
  }
  return out.filter(
    (p, i) =>
      out.findIndex(
        (q) => q.video === p.video && Math.abs(q.start - p.start) < EPS && Math.abs(q.end - p.end) < EPS,
      ) === i,
  );
}

/**
 * What every time-based measure reads: plain maps, nothing of the database. The questions scored
 * are the keys of `references` (a question without an entry there is not evaluated; one with an
 * empty list is listed as not scored); seconds read@k also scores every key of `rankings`.
 */
export type TimeRunInput = {
  /** Per query id, the retrieved docids in the evaluated order (lib/stats/order.ts), rank 1 first. */
  rankings: ReadonlyMap<string, readonly string[]>;
  /** Chunk times keyed by docid (the chunks file, lib/stats/start-inputs.ts `parseChunkTimes`). */
  chunks: ReadonlyMap<string, ChunkTimeLike>;
  /** Per query id, its reference spans: answer places (`answerPlaces`) or labelled relevant spans. */
  references: ReadonlyMap<string, readonly AnswerPlace[]>;
};

/** Per-query values (null: not scored) and their mean over the scored queries (null when none). */
export type TimeMeasure<T> = { perQuery: Map<string, T>; mean: number | null; scored: number };

/** The spans of a ranking's first k docids that have a known time; `missing` counts those without. */
export function topSpans(
  ranking: readonly string[] | undefined,
  chunks: ReadonlyMap<string, ChunkTimeLike>,
  k: number,
): { spans: TimeSpan[]; missing: number } {
  const spans: TimeSpan[] = [];
  let missing = 0;
  if (!ranking) return { spans, missing };
  const n = Math.min(k, ranking.length);
  for (let i = 0; i < n; i++) {
    const c = chunks.get(ranking[i]);
    if (c) spans.push(chunkSpan(c));
    else missing++;
  }
  return { spans, missing };
}

/** Mean of the non-null values; null when there are none. */
export function meanOf(values: Iterable<number | null>): { mean: number | null; scored: number } {
  let s = 0;
  let n = 0;
  for (const v of values) {
    if (v === null) continue;
    s += v;
    n++;
  }
  return { mean: n ? s / n : null, scored: n };
}

export function checkDepth(k: number, what: string): void {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`${what}: k must be an integer ≥ 1, found ${k}`);
}

export function checkSeconds(x: number, what: string): void {
  if (!Number.isFinite(x) || x < 0) throw new RangeError(`${what} must be seconds ≥ 0, found ${x}`);
}
