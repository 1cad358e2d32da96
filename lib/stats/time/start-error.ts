/**
 * Start-time error from chunk times alone: the time-based variant of
 * lib/stats/measures/start-error.ts, for comparing chunkings without labels on each of them.
 * Same cap (150 s, Eskevich et al. 2012), same within-15/30/60 s and time-aware reciprocal rank;
 * what differs is which chunk is measured and against which reference start.
 *
 * Definition, for a question with answer places P (video, start, end; see spans.ts `answerPlaces`
 * for the rule that takes annotators' corrected starts where they gave them):
 * - the measured chunk is the highest-ranked chunk (within `depth`, default the whole ranking) that
 *   meets an answer place: it shares seconds with the place, or, when the place or the chunk has
 *   zero length, one lies within the other (closed intervals). This replaces "the highest-ranked
 *   chunk with grade ≥ 1" of the label-based measure: a chunk meeting the answer in time is, by
 *   the transfer rule's evidence test, at least related;
 * - error = min over the answer places in the chunk's own video of |chunk start − place start|,
 *   capped at 150 s: the nearest answer place in the same video (a question may be answered in
 *   several places; the user lands at the chunk's start and the nearest answer is the one found);
 * - no chunk meets an answer place: error = 150 (the cap), rank 0, time-aware RR 0, as the
 *   label-based measure does for "no relevant chunk retrieved". A retrieved chunk in a video with
 *   no answer place never meets one, so "no answer place in that video" is the cap too;
 * - a docid without a known time cannot be placed: it takes its rank but is skipped (counted in
 *   `missingChunkTimes`);
 * - a question without answer places is not scored (null) and is left out of the means.
 * Videos are compared exactly (spans.ts), unlike the label-based measure, which lets a missing
 * video match any: seconds of two different videos never meet.
 */
import { START_ERROR_CAP_SECONDS, START_WITHIN_SECONDS } from "../measures/start-error.ts";
import { EPS, chunkSpan, meanOf, overlapSeconds, placeSpan, type TimeRunInput, type TimeSpan } from "./spans.ts";

export type TimeStartErrorQuery = {
  error: number;
  /** Rank of the measured chunk (1-based); 0 when no retrieved chunk meets an answer place. */
  rank: number;
  /** 1/rank × max(0, 1 − error/150); 0 when rank is 0. */
  timeAwareRR: number;
  missingChunkTimes: number;
} | null;

export type TimeStartErrorResult = {
  perQuery: Map<string, TimeStartErrorQuery>;
  /** Means over the scored questions (null when none): error, within 15/30/60 s (shares), time-aware RR. */
  mean: {
    error: number | null;
    within: Record<(typeof START_WITHIN_SECONDS)[number], number | null>;
    timeAwareRR: number | null;
  };
  scored: number;
};

function meets(c: TimeSpan, p: TimeSpan): boolean {
  if (c.video !== p.video) return false;
  if (c.end - c.start <= EPS || p.end - p.start <= EPS) return c.start <= p.end + EPS && p.start <= c.end + EPS;
  return overlapSeconds(c.start, c.end, p.start, p.end) > EPS;
}

export function timeStartError(input: TimeRunInput, opts: { depth?: number } = {}): TimeStartErrorResult {
  const perQuery = new Map<string, TimeStartErrorQuery>();
  for (const [qid, given] of input.references) {
    if (given.length === 0) {
      perQuery.set(qid, null);
      continue;
    }
    const places = given.map(placeSpan);
    const ranking = input.rankings.get(qid) ?? [];
    const depth = Math.min(opts.depth ?? ranking.length, ranking.length);
    let result: NonNullable<TimeStartErrorQuery> = {
      error: START_ERROR_CAP_SECONDS,
      rank: 0,
      timeAwareRR: 0,
      missingChunkTimes: 0,
    };
    for (let i = 0; i < depth; i++) {
      const t = input.chunks.get(ranking[i]);
      if (!t) {
        result.missingChunkTimes++;
        continue;
      }
      const c = chunkSpan(t);
      if (!places.some((p) => meets(c, p))) continue;
      let error = START_ERROR_CAP_SECONDS;
      for (const p of places) if (p.video === c.video) error = Math.min(error, Math.abs(c.start - p.start));
      const rank = i + 1;
      result = {
        error,
        rank,
        timeAwareRR: (1 / rank) * Math.max(0, 1 - error / START_ERROR_CAP_SECONDS),
        missingChunkTimes: result.missingChunkTimes,
      };
      break;
    }
    perQuery.set(qid, result);
  }
  const scoredValues = [...perQuery.values()].filter((v): v is NonNullable<TimeStartErrorQuery> => v !== null);
  const within = Object.fromEntries(
    START_WITHIN_SECONDS.map((s) => [s, meanOf(scoredValues.map((v) => (v.error <= s ? 1 : 0))).mean]),
  ) as TimeStartErrorResult["mean"]["within"];
  return {
    perQuery,
    mean: {
      error: meanOf(scoredValues.map((v) => v.error)).mean,
      within,
      timeAwareRR: meanOf(scoredValues.map((v) => v.timeAwareRR)).mean,
    },
    scored: scoredValues.length,
  };
}
