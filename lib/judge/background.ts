import "server-only";
/**
 * Judge runs started from the lead's pages: the app server itself is the worker. A run is worked
 * in the background of the server process (runWorker, as `judge resume` runs it); the page polls
 * the run's progress from the database, so any app server answers it. The API key is read from
 * this server's environment (the variable the lead names), never sent by the browser.
 *
 * A server that stops (deploy, crash) leaves its run "running" with a stale heartbeat: `Resume`
 * on the page, or `npx assessor judge resume RUN`, takes it up without judging anything twice.
 */
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { apiKeyFrom } from "./keys.ts";
import { runWorker } from "./runner.ts";
import { runOrThrow } from "./store.ts";

type TLocal = { stop: AbortController; done: Promise<void> };
const g = globalThis as typeof globalThis & { assessorJudgeWorkers?: Map<number, TLocal> };
const local = (g.assessorJudgeWorkers ??= new Map());

/** Starts working the run in this process unless it already does; resolves once the worker holds the run. */
export async function workInBackground(
  db: Db,
  runId: number,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<void> {
  if (local.has(runId)) return;
  const run = await runOrThrow(db, runId);
  const apiKey = apiKeyFrom(env, run.apiKeyEnv, "page");
  const stop = new AbortController();
  let started!: () => void;
  let failed!: (e: unknown) => void;
  const holding = new Promise<void>((ok, ko) => {
    started = ok;
    failed = ko;
  });
  const done = runWorker(db, runId, { apiKey, stop: stop.signal, onStarted: () => started() })
    .then(() => undefined)
    .catch((e: unknown) => {
      failed(e);
      // After the start, a worker's failure is in the run's status and stop reason; log the rest.
      if (!(e instanceof AppError)) console.error(`judge run ${runId}: ${e instanceof Error ? e.message : String(e)}`);
    })
    .finally(() => local.delete(runId));
  local.set(runId, { stop, done });
  await holding;
}

/** Asks this process's worker of the run, if any, to stop after what is in flight. */
export function stopLocal(runId: number): void {
  local.get(runId)?.stop.abort();
}

/** For tests and shutdown: waits for this process's workers to end. */
export async function backgroundIdle(): Promise<void> {
  await Promise.all([...local.values()].map((w) => w.done));
}
