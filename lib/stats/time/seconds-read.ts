/**
 * Seconds of transcript read@k (ours): what the generator must read when it is
 * given the top-k chunks, measured in seconds of video so that chunkings compare.
 *
 *   seconds(q)     = |union of the top-k chunks' spans| (per video, summed over videos);
 *   withRepeats(q) = Σ over the top-k chunks of (end − start).
 *
 * Overlap is counted once in `seconds`, the headline: it is the amount of distinct speech the
 * top-k put in front of the generator, the cost side of the trade-off against answer-span recall
 * (more seconds read buys recall), and a pipeline can merge overlapping chunks of one video before
 * prompting. `withRepeats` counts every chunk in full, overlap as often as it is retrieved: what a
 * pipeline that pastes chunks as they are pays in tokens (Chroma's study noted that overlap
 * reduces token efficiency). Their difference is the price of overlap.
 *
 * Edge cases, decided here:
 * - every query of the ranking or of the references is scored: a query with no ranking reads 0;
 * - k larger than the ranking: the whole ranking;
 * - a docid without a known time adds nothing and is counted as `missing`;
 * - a zero-length chunk adds 0 seconds.
 */
import {
  checkDepth,
  measureByVideo,
  meanOf,
  topSpans,
  unionByVideo,
  type TimeMeasure,
  type TimeRunInput,
} from "./spans.ts";

export type SecondsReadQuery = { seconds: number; withRepeats: number; missing: number };
export type SecondsReadResult = TimeMeasure<SecondsReadQuery> & { meanWithRepeats: number | null };

export function secondsRead(
  input: Pick<TimeRunInput, "rankings" | "chunks"> & Partial<Pick<TimeRunInput, "references">>,
  opts: { k: number },
): SecondsReadResult {
  checkDepth(opts.k, "seconds read");
  const perQuery = new Map<string, SecondsReadQuery>();
  const queries = new Set([...input.rankings.keys(), ...(input.references?.keys() ?? [])]);
  for (const qid of queries) {
    const { spans, missing } = topSpans(input.rankings.get(qid), input.chunks, opts.k);
    let withRepeats = 0;
    for (const s of spans) withRepeats += s.end - s.start;
    perQuery.set(qid, { seconds: measureByVideo(unionByVideo(spans)), withRepeats, missing });
  }
  const values = [...perQuery.values()];
  const { mean, scored } = meanOf(values.map((v) => v.seconds));
  return { perQuery, mean, scored, meanWithRepeats: meanOf(values.map((v) => v.withRepeats)).mean };
}
