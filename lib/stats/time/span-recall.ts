/**
 * Answer-span recall@k (ours; the time counterpart of Recall@k, comparable across
 * chunkings because it asks about seconds of the video, not about chunk ids).
 *
 * Definition, for one question q with reference places P (answer places: video, start, end; or its
 * labelled relevant spans) and the top-k retrieved chunks:
 *   U_v  = the union of the top-k chunks of video v, each widened by `tolerance` seconds on both
 *          sides ([start − t, end + t]);
 *   f(p) = |U_v ∩ [p.start, p.end]| / (p.end − p.start) for a place p of video v (seconds of the
 *          answer the retrieved chunks hold, give or take the tolerance); for a place of zero
 *          length (a start only) f(p) = 1 when p.start lies in U_v, else 0;
 *   p is covered when f(p) ≥ minCoverage (default 1: all of the answer, which is what the
 *          generator must read; 0.5 asks for most of it);
 *   recall(q) = 1 when at least one place is covered, else 0 (several places are alternatives: any
 *          one of them answers the question), and coverage(q) = max over places of f(p).
 * The mean over questions is the share of questions whose answer the top-k chunks cover.
 *
 * Edge cases, decided here:
 * - a question without reference places is not scored (null), as start_error does: the means are
 *   over the questions that have one;
 * - a question with places but no ranking, or a ranking with no chunk of the place's video: 0;
 * - k larger than the ranking: the whole ranking;
 * - a retrieved docid without a known time takes its rank but covers nothing (counted `missing`);
 * - a zero-length chunk (no end, or end = start) holds no transcript and covers nothing, even with
 *   the tolerance: the tolerance absorbs boundary slack of chunks that do hold speech;
 * - chunks of another video than the place's never cover it.
 * Tolerance default: 5 s, about one subtitle cue (YouTube's automatic captions come in cues of
 * 2–5 s), so a chunk boundary cut a few words off the answer does not count as a miss.
 */
import {
  EPS,
  checkDepth,
  checkSeconds,
  intersectionSeconds,
  meanOf,
  placeSpan,
  topSpans,
  union,
  type Intervals,
  type TimeMeasure,
  type TimeRunInput,
} from "./spans.ts";

export type SpanRecallOptions = { k: number; tolerance?: number; minCoverage?: number };
export type SpanRecallQuery = { recall: 0 | 1; coverage: number; missing: number } | null;
export type SpanRecallResult = TimeMeasure<SpanRecallQuery> & { meanCoverage: number | null };

export const SPAN_RECALL_TOLERANCE = 5;

function containsInstant(u: Intervals | undefined, t: number): boolean {
  return !!u && u.some(([s, e]) => s - EPS <= t && t <= e + EPS);
}

export function answerSpanRecall(input: TimeRunInput, opts: SpanRecallOptions): SpanRecallResult {
  const { k, tolerance = SPAN_RECALL_TOLERANCE, minCoverage = 1 } = opts;
  checkDepth(k, "answer-span recall");
  checkSeconds(tolerance, "answer-span recall: the tolerance");
  if (!(minCoverage > 0 && minCoverage <= 1))
    throw new RangeError(`answer-span recall: minCoverage must be in (0, 1], found ${minCoverage}`);
  const perQuery = new Map<string, SpanRecallQuery>();
  for (const [qid, places] of input.references) {
    if (places.length === 0) {
      perQuery.set(qid, null);
      continue;
    }
    const { spans, missing } = topSpans(input.rankings.get(qid), input.chunks, k);
    const widened = new Map<string, Array<[number, number]>>();
    for (const s of spans) {
      if (s.end - s.start <= EPS) continue;
      const list = widened.get(s.video) ?? [];
      list.push([s.start - tolerance, s.end + tolerance]);
      widened.set(s.video, list);
    }
    const unions = new Map([...widened].map(([v, list]) => [v, union(list)] as const));
    let coverage = 0;
    let recall: 0 | 1 = 0;
    for (const place of places) {
      const p = placeSpan(place);
      const u = unions.get(p.video);
      const f =
        p.end - p.start <= EPS
          ? containsInstant(u, p.start)
            ? 1
            : 0
          : u
            ? intersectionSeconds(u, [[p.start, p.end]]) / (p.end - p.start)
            : 0;
      coverage = Math.max(coverage, f);
      if (f >= minCoverage - EPS) recall = 1;
    }
    perQuery.set(qid, { recall, coverage, missing });
  }
  const values = [...perQuery.values()];
  const { mean, scored } = meanOf(values.map((v) => (v ? v.recall : null)));
  return { perQuery, mean, scored, meanCoverage: meanOf(values.map((v) => (v ? v.coverage : null))).mean };
}
