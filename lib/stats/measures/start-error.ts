import type { EvalOptions, RankedQuery } from "./types.ts";

/** Where a query's answer starts (reference labels, `--queries`). */
export type ReferenceStart = { start: number; video?: string | null };
/** A chunk's place in its video (`--chunks`). */
export type ChunkTime = { video?: string | null; start: number; end?: number | null };

export const START_ERROR_CAP_SECONDS = 150;
export const START_WITHIN_SECONDS = [15, 30, 60] as const;

export type StartErrorResult = {
  /** |start of the highest-ranked relevant chunk − reference start|, capped at 150 s. */
  error: number;
  /** Rank of that chunk (1-based), 0 when no relevant chunk was retrieved. */
  rank: number;
  /** 1/rank × max(0, 1 − error/150); 0 when no relevant chunk was retrieved. */
  timeAwareRR: number;
  /** The chunk had no known start time (not in the chunks file): counted as the cap. */
  missingChunkTime: boolean;
};

/**
 * Start-time error (ours; after CLEF's mGAP idea of penalising distance from the true start, capped
 * at 150 s as Eskevich et al. 2012): for a query with a reference start, take the highest-ranked
 * relevant chunk (grade ≥ relevance level) in the evaluated order and measure the absolute
 * difference in seconds between its start and the reference start.
 *
 * Edge cases, decided here:
 * - no relevant chunk retrieved: error = 150 (the cap), rank 0, time-aware RR 0;
 * - the chunk is from a different video than the reference (both known): error = 150;
 * - the chunk has no known start time: error = 150, flagged `missingChunkTime`;
 * - a query without a reference start is not scored at all (null): it is left out of the
 *   start-error means, which are therefore over the queries that have one;
 * - a query with several answer places (a list of references) is measured against the
 *   nearest one in the chunk's video, as lib/stats/time/start-error.ts does (a place without a
 *   video matches any, as a single reference does); an empty list is not scored.
 *
 * Reported per query as `start_error` (the capped error), `start_within_15/30/60` (1 when
 * error ≤ that many seconds, else 0) and `start_rr` (time-aware reciprocal rank).
 */
export function startError(
  q: RankedQuery,
  given: ReferenceStart | readonly ReferenceStart[] | undefined,
  chunks: ReadonlyMap<string, ChunkTime>,
  opts: EvalOptions,
): StartErrorResult | null {
  const refs: readonly ReferenceStart[] = given === undefined ? [] : "start" in given ? [given] : given;
  if (refs.length === 0) return null;
  let i = 0;
  while (i < q.grades.length && q.grades[i] < opts.relevanceLevel) i++;
  if (i === q.grades.length)
    return { error: START_ERROR_CAP_SECONDS, rank: 0, timeAwareRR: 0, missingChunkTime: false };
  const rank = i + 1;
  const docid = q.docids?.[i];
  const chunk = docid === undefined ? undefined : chunks.get(docid);
  let error = START_ERROR_CAP_SECONDS;
  if (chunk)
    for (const ref of refs) {
      const sameVideo = !ref.video || !chunk.video || ref.video === chunk.video;
      if (sameVideo) error = Math.min(error, Math.abs(chunk.start - ref.start));
    }
  const timeAwareRR = (1 / rank) * Math.max(0, 1 - error / START_ERROR_CAP_SECONDS);
  return { error, rank, timeAwareRR, missingChunkTime: !chunk };
}
