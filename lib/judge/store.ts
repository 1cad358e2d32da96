/**
 * LLM judge runs in the database: creating a run (its tasks: one row per pair and sample),
 * claiming tasks, recording results exactly once, workers and their heartbeats, progress.
 *
 * Exactly once: a worker claims pending tasks (status → running, workerId → its id) and writes a
 * result only where the task is still claimed by it (`WHERE id = ? AND workerId = ?`), so a task
 * reclaimed from a worker taken for dead can never get two results. A finished task is never
 * claimed again: `judge resume` sends nothing twice that was stored. Claims on PostgreSQL take
 * `FOR UPDATE SKIP LOCKED`, so any number of workers share a run; on SQLite one worker at a time
 * holds a run (registerWorker), since SQLite has a single writer anyway.
 *
 * Dead workers: each live worker beats every HEARTBEAT_MS. A worker whose beat is older than
 * STALE_MS, or whose process is gone (same host, `kill(pid, 0)` fails), is removed and its running
 * tasks go back to pending: a run stopped by `kill -9` resumes at once on the same machine.
 *
 * This module gathers what its parts export: store-workers.ts (workers, heartbeats, reclaiming),
 * store-record.ts (claiming chunk tasks, recording results), store-runs.ts (status, counts,
 * labels, finding and cancelling runs) and task-table.ts (the two task tables as one).
 */
export {
  HEARTBEAT_MS,
  STALE_MS,
  heartbeat,
  liveWorkers,
  reclaimDead,
  registerWorker,
  removeWorker,
} from "./store-workers.ts";
export {
  addRunTotals,
  batchTotals,
  cachedAnswers,
  claimTasks,
  labelRationale,
  recordResults,
  type TClaimed,
  type TTaskOutcome,
  type TTaskResult,
} from "./store-record.ts";
export {
  cancelRun,
  findRun,
  pendingTasks,
  requeueFailed,
  runCounts,
  runLabels,
  runOrThrow,
  sampleGrades,
  setStatus,
  type TRunCounts,
  type TRunStatus,
} from "./store-runs.ts";
export { taskTable, type TTaskTable } from "./task-table.ts";
