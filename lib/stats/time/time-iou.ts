/**
 * Time-IoU@k (ours; after Chroma's token-wise IoU, Smith & Troynikov 2024,
 * "Evaluating Chunking Strategies for Retrieval", with seconds of video in place of tokens):
 *
 *   R = the seconds of the top-k retrieved chunks (their union, per video),
 *   G = the relevant seconds of the question (the union of its reference spans, per video),
 *   IoU(q) = |R ∩ G| / |R ∪ G| = |R ∩ G| / (|R| + |G| − |R ∩ G|).
 *
 * It rewards retrieving the relevant seconds (recall) and penalises retrieving other seconds
 * (precision) in one number; a chunking whose chunks are much longer than the answers cannot reach
 * 1 even when it retrieves every answer.
 *
 * Seconds that several retrieved chunks share (overlapping chunks) are counted once, in R and so in
 * the denominator: the measure is a ratio of sets, as its name says. Chroma's reference code
 * (chunking_evaluation, base_evaluation.py) instead sums the retrieved chunks' lengths in the
 * denominator, so overlap lowers its IoU; the price of reading overlap twice is reported here by
 * seconds read@k (`withRepeats`), kept apart from the overlap of retrieved and relevant seconds.
 *
 * Edge cases, decided here:
 * - a question without reference spans, or whose spans hold no seconds (starts only), is not
 *   scored (null): there are no relevant seconds to intersect;
 * - a question with relevant seconds and nothing retrieved (no ranking, only chunks without a
 *   known time, only zero-length chunks): 0;
 * - k larger than the ranking: the whole ranking; a docid without a known time takes its rank but
 *   adds no seconds;
 * - seconds of another video than a reference's are in R (retrieved, not relevant) and never in
 *   the intersection.
 */
import {
  checkDepth,
  intersectionByVideo,
  measureByVideo,
  meanOf,
  placeSpan,
  topSpans,
  unionByVideo,
  type TimeMeasure,
  type TimeRunInput,
} from "./spans.ts";

export type TimeIouQuery = { iou: number; retrieved: number; relevant: number; shared: number } | null;

export function timeIou(input: TimeRunInput, opts: { k: number }): TimeMeasure<TimeIouQuery> {
  checkDepth(opts.k, "time-IoU");
  const perQuery = new Map<string, TimeIouQuery>();
  for (const [qid, places] of input.references) {
    const g = unionByVideo(places.map(placeSpan));
    const relevant = measureByVideo(g);
    if (relevant <= 0) {
      perQuery.set(qid, null);
      continue;
    }
    const r = unionByVideo(topSpans(input.rankings.get(qid), input.chunks, opts.k).spans);
    const retrieved = measureByVideo(r);
    const shared = intersectionByVideo(r, g);
    perQuery.set(qid, { iou: shared / (retrieved + relevant - shared), retrieved, relevant, shared });
  }
  const { mean, scored } = meanOf([...perQuery.values()].map((v) => (v ? v.iou : null)));
  return { perQuery, mean, scored };
}
