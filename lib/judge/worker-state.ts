import type { JudgeRun } from "../db/client.ts";
import { action, say, type Said } from "../terms.ts";

/** What a judge worker reports (lib/judge/runner.ts): its progress, its result, its options, and the cost of tokens. */
export type TProgress = {
  total: number;
  done: number;
  failed: number;
  cached: number;
  promptTokens: number;
  completionTokens: number;
  cost: number;
  elapsedMs: number;
  sentThisWorker: number;
};
export type TWorkerResult = {
  status: "completed" | "stopped" | "cancelled" | "running";
  reason: string | null;
  progress: TProgress;
};
export type TWorkerOptions = {
  apiKey: string;
  /** Overrides the run's concurrency (e.g. a second worker with fewer slots). */
  concurrency?: number;
  /** Aborting stops claiming; what is in flight finishes and is recorded. */
  stop?: AbortSignal;
  onProgress?: (p: TProgress) => void;
  /** Called once the worker holds the run (registered, status running). */
  onStarted?: () => void;
  flushEveryMs?: number;
};

/** A run's reason when the user stopped it by hand; stored in the command line's words. */
export const STOPPED_BY_USER: Said = say`stopped by the user${action("stopJudgeHint")}`;

export function costOf(
  run: Pick<JudgeRun, "priceIn" | "priceOut">,
  promptTokens: number,
  completionTokens: number,
): number {
  return (promptTokens * (run.priceIn ?? 0) + completionTokens * (run.priceOut ?? 0)) / 1e6;
}
