import { ValidationError } from "../../lib/errors.ts";
import type { EvalResult, Judgements } from "../../lib/stats/evaluate.ts";
import type { MeasureColumn } from "../../lib/stats/measures/index.ts";
import type { ChunkTime } from "../../lib/stats/measures/start-error.ts";
import type { RankedQuery } from "../../lib/stats/measures/types.ts";
import { parseAnswerPlaces, parseChunkTimes } from "../../lib/stats/start-inputs.ts";
import { meanOf } from "../../lib/stats/time/spans.ts";
import {
  answerPlaces,
  answerSpanRecall,
  secondsRead,
  SPAN_RECALL_TOLERANCE,
  timeIou,
  timeStartError,
  type AnswerPlace,
  type TimedLabel,
} from "../../lib/stats/time/index.ts";
import { readInput } from "./eval-read.ts";

/**
 * `assessor eval --chunks FILE`: the time measures (lib/stats/time) beside the
 * label-based ones, from the chunks' times. A question's answer places are those of the queries
 * file (`--queries`: `answers`, and the reference start; lib/stats/start-inputs.ts
 * parseAnswerPlaces) plus, from the qrels, each chunk of grade 3 as a place (its span; the rule of
 * lib/stats/time/spans.ts answerPlaces). The measures, in this order:
 *   span_recall_5, span_recall_10   answer-span recall@k (tolerance `--tolerance`, default 5 s)
 *   time_iou_10                     time-IoU@10 of the retrieved seconds against the answer places'
 *   seconds_read_10                 seconds of transcript read@10 (overlap counted once)
 *   time_start_error                start error from chunk times against the nearest answer place (capped at 150 s)
 *   time_within_15/30/60            share of questions with that start error ≤ 15/30/60 s
 * Each is a value per evaluated question (null where not defined: no answer place, no relevant
 * seconds), averaged over the questions where it is defined; they are appended to the evaluation,
 * so every output format prints them after the label-based measures.
 */
export type TimeInputs = { chunks: Map<string, ChunkTime>; given: Map<string, AnswerPlace[]>; tolerance: number };

export const TIME_MEASURE_NAMES = [
  "span_recall_5",
  "span_recall_10",
  "time_iou_10",
  "seconds_read_10",
  "time_start_error",
  "time_within_15",
  "time_within_30",
  "time_within_60",
] as const;

export function readTimeInputs(
  chunksPath: string,
  queriesPath: string | undefined,
  tolerance: number | undefined,
): TimeInputs {
  const ch = parseChunkTimes(readInput(chunksPath).toString("utf8"), chunksPath);
  const q = queriesPath
    ? parseAnswerPlaces(readInput(queriesPath).toString("utf8"), queriesPath)
    : { places: new Map<string, AnswerPlace[]>(), errors: [] };
  if (ch.errors.length || q.errors.length) throw new ValidationError([...ch.errors, ...q.errors]);
  return { chunks: ch.chunks, given: q.places, tolerance: tolerance ?? SPAN_RECALL_TOLERANCE };
}

const column = (name: string): MeasureColumn => ({
  name,
  family: "time",
  summary: "mean",
  integer: false,
  perQuery: true,
  fill: "compute",
  compute: () => null,
});

/** Appends the time measures to `result` (its queries, in its order; -c fills have no ranking). */
export function addTimeMeasures(
  result: EvalResult,
  ranked: ReadonlyMap<string, RankedQuery>,
  judgements: Judgements,
  inputs: TimeInputs,
): void {
  const rankings = new Map<string, readonly string[]>();
  const references = new Map<string, AnswerPlace[]>();
  for (const qid of result.queries) {
    const docids = ranked.get(qid)?.docids;
    if (docids) rankings.set(qid, docids);
    const labels: TimedLabel[] = [];
    for (const [docid, grade] of judgements.get(qid) ?? []) {
      const c = inputs.chunks.get(docid);
      if (c && grade >= 3) labels.push({ video: c.video ?? "", start: c.start, end: c.end ?? c.start, grade });
    }
    references.set(qid, answerPlaces(inputs.given.get(qid) ?? [], labels));
  }
  const input = { rankings, chunks: inputs.chunks, references };
  const r5 = answerSpanRecall(input, { k: 5, tolerance: inputs.tolerance }).perQuery;
  const r10 = answerSpanRecall(input, { k: 10, tolerance: inputs.tolerance }).perQuery;
  const iou = timeIou(input, { k: 10 }).perQuery;
  const read = secondsRead(input, { k: 10 }).perQuery;
  const start = timeStartError(input).perQuery;
  const within = (s: number) => (qid: string) => {
    const v = start.get(qid);
    return v ? (v.error <= s ? 1 : 0) : null;
  };
  const perQuery: ((qid: string) => number | null)[] = [
    (qid) => r5.get(qid)?.recall ?? null,
    (qid) => r10.get(qid)?.recall ?? null,
    (qid) => iou.get(qid)?.iou ?? null,
    (qid) => read.get(qid)?.seconds ?? null,
    (qid) => start.get(qid)?.error ?? null,
    within(15),
    within(30),
    within(60),
  ];
  // The columns list is the measure spec's, shared by every run's result: extend a copy.
  result.columns = [...result.columns];
  TIME_MEASURE_NAMES.forEach((name, m) => {
    const values = result.queries.map(perQuery[m]);
    result.columns.push(column(name));
    result.values.push(values);
    result.texts.push(null);
    result.summary.push(meanOf(values).mean);
  });
}
