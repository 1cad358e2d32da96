/**
 * The chunking report's shape (chunking-report.ts): its columns, cells and rows, and how a run's
 * system and a transfer judge are named on a chunking.
 */
import type { Interval } from "../stats/bootstrap.ts";
import type { Gain } from "../stats/measures/ndcg.ts";

export type TReportColumn = { id: string; label: string; lowerIsBetter: boolean; seconds: boolean };
export type TReportCell = {
  mean: number | null;
  n: number;
  ci: Interval | null;
  test: { meanDiff: number; p: number; n: number } | null;
  ppi: { estimate: number; low: number; high: number; labelled: number } | null;
};
/** `derived`: the transfer judge's labels nDCG@10 used (ranked in a top 10 where no human label exists), summed over questions. */
export type TReportRow = {
  chunking: string;
  chunkingId: number;
  system: string;
  run: string;
  transferJudge: string | null;
  audited: number;
  derived: number;
  cells: TReportCell[];
};
export type TChunkingReport = {
  baseline: string | null;
  questions: number;
  columns: TReportColumn[];
  rows: TReportRow[];
  /** The trade-off chart: span recall@10 against seconds read@10, one point per row. */
  points: { chunking: string; system: string; secondsRead10: number | null; spanRecall10: number | null }[];
  empty: string | null;
};

export const REPORT_COLUMNS: TReportColumn[] = [
  { id: "span_recall_5", label: "Span recall@5", lowerIsBetter: false, seconds: false },
  { id: "span_recall_10", label: "Span recall@10", lowerIsBetter: false, seconds: false },
  { id: "time_iou_10", label: "Time-IoU@10", lowerIsBetter: false, seconds: false },
  { id: "seconds_read_10", label: "Seconds read@10", lowerIsBetter: true, seconds: true },
  { id: "start_error", label: "Start error (s)", lowerIsBetter: true, seconds: true },
  { id: "ndcg_cut_10", label: "nDCG@10 (derived + human)", lowerIsBetter: false, seconds: false },
  { id: "judged_10", label: "Judged@10", lowerIsBetter: false, seconds: false },
];
export const NDCG = 5;
export const JUDGED = 6;

export type TChunkingName = { id: number; name: string };
export type TReportOptions = { baseline?: string; gain?: Gain };

export const SEPARATORS = ["@", "-", "_", ".", ":", "/"];

/** The system a run stands for across chunkings (see the file comment). */
export function systemOf(runSystem: string, chunking: string): string {
  for (const sep of SEPARATORS) {
    const suffix = `${sep}${chunking}`;
    if (runSystem.length > suffix.length && runSystem.endsWith(suffix)) return runSystem.slice(0, -suffix.length);
  }
  return runSystem;
}

/** The transfer judge into a chunking: `transfer:<A>-><name>`, the first in byte order, or null. */
export function transferJudgeInto(judges: Iterable<string>, chunking: string): string | null {
  const names = [...judges].filter((j) => j.startsWith("transfer:") && j.endsWith(`->${chunking}`)).sort();
  return names[0] ?? null;
}
