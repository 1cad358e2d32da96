/**
 * Labels and measures on the video's time, pure: no database, React or Next.
 * Transfer of labels between chunkings: `transferLabels` (transfer.ts, the rule in its doc comment).
 * Measures comparable across chunkings, from chunk times: `answerSpanRecall`, `timeIou`,
 * `secondsRead`, `timeStartError`; a question's answer places: `answerPlaces`; its reference spans
 * in time: `referenceSpans` (reference.ts).
 */
export {
  transferLabels,
  DEFAULT_TRANSFER,
  type LabelledSpan,
  type TargetChunk,
  type TransferOptions,
  type TransferredLabel,
  type TransferRule,
  type TransferSource,
} from "./transfer.ts";
export {
  answerSpanRecall,
  SPAN_RECALL_TOLERANCE,
  type SpanRecallOptions,
  type SpanRecallQuery,
  type SpanRecallResult,
} from "./span-recall.ts";
export { timeIou, type TimeIouQuery } from "./time-iou.ts";
export { secondsRead, type SecondsReadQuery, type SecondsReadResult } from "./seconds-read.ts";
export { timeStartError, type TimeStartErrorQuery, type TimeStartErrorResult } from "./start-error.ts";
export {
  answerPlaces,
  type AnswerPlace,
  type TimedLabel,
  type TimeSpan,
  type TimeRunInput,
  type TimeMeasure,
} from "./spans.ts";
export { referenceSpans, type ReferenceSpan, type GivenPlace, type MarkedStart } from "./reference.ts";
