/**
 * One worker of a judge run: claims pending tasks, asks the model (at most `concurrency` requests
 * in flight), parses the answer, and records results in batches (lib/judge/store.ts). It stops
 * when nothing is left, when asked to (Ctrl+C or the web's stop: what is in flight finishes and
 * is recorded first), when the run is cancelled (seen at the next heartbeat), when the cost cap
 * is reached, when `maxConsecutiveFailures` tasks in a row fail, or when the endpoint refuses the
 * key or the model. Several workers may share a run on PostgreSQL (store.ts). The loop is the same
 * for every kind of task (kinds.ts: question–chunk pairs, answers-kind.ts: generated answers).
 */
import { randomUUID } from "node:crypto";
import type OpenAI from "openai";
import type { Db, JudgeRun } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { paramsOf } from "./create.ts";
import { answerKind } from "./answers-kind.ts";
import { ask, EndpointError, makeClient } from "./endpoint.ts";
import {
  cacheKey,
  chunkKind,
  taskTable,
  type TKindResult,
  type TKindTask,
  type TPrepared,
  type TTaskKind,
} from "./kinds.ts";
import { warmInjectionDetector } from "./injection.ts";
import { inWords } from "../terms.ts";
import { costOf, STOPPED_BY_USER, type TProgress, type TWorkerOptions, type TWorkerResult } from "./worker-state.ts";
import { storedError } from "./parse.ts";
import {
  heartbeat,
  HEARTBEAT_MS,
  liveWorkers,
  pendingTasks,
  reclaimDead,
  registerWorker,
  removeWorker,
  runCounts,
  runOrThrow,
  setStatus,
} from "./store.ts";

export { costOf, STOPPED_BY_USER, type TProgress, type TWorkerOptions, type TWorkerResult } from "./worker-state.ts";
export { cacheKey };

/** Requests one task may take over all rounds and resumes before it is marked failed. */
const MAX_ATTEMPTS = 8;

/** Runs this process as a worker of the run until it ends or stops (see the file comment). */
export async function runWorker(db: Db, runId: number, opts: TWorkerOptions): Promise<TWorkerResult> {
  const run = await runOrThrow(db, runId);
  if (run.status === "cancelled")
    throw new AppError("conflict", `run ${run.id} (${run.judge}) was cancelled; start a new run to judge again`);
  const params = paramsOf(run);
  const workerId = randomUUID();
  // One loop for every kind of task (kinds.ts): only claiming, prompts, parsing and recording differ.
  if (run.target === "answers") return workKind(db, run, workerId, opts, (r) => answerKind(db, r, params, workerId));
  return workKind(db, run, workerId, opts, (r) => chunkKind(db, r, params, workerId));
}

async function workKind<T extends TKindTask, V>(
  db: Db,
  first: JudgeRun,
  workerId: string,
  opts: TWorkerOptions,
  kindOf: (run: JudgeRun) => TTaskKind<T, V>,
): Promise<TWorkerResult> {
  let run = first;
  const runId = run.id;
  const params = paramsOf(run);
  const concurrency = opts.concurrency ?? params.concurrency;
  const table = taskTable(run.target);
  await registerWorker(db, runId, workerId, table);
  await db.judgeRun.update({
    where: { id: runId },
    data: {
      status: "running",
      stopReason: null,
      finishedAt: null,
      ...(run.startedAt ? {} : { startedAt: new Date() }),
    },
  });
  run = await runOrThrow(db, runId);
  const kind = kindOf(run);
  // The injection flag's rules compiled now, before any request is in flight (injection.ts).
  warmInjectionDetector();
  opts.onStarted?.();

  const started = Date.now();
  const base = await runCounts(db, runId, run.target);
  const progress: TProgress = {
    total: base.total,
    done: base.done,
    failed: base.failed,
    cached: base.cached,
    promptTokens: run.promptTokens,
    completionTokens: run.completionTokens,
    cost: run.cost,
    elapsedMs: 0,
    sentThisWorker: 0,
  };
  const client: OpenAI = makeClient({
    baseUrl: run.baseUrl,
    apiKey: opts.apiKey,
    timeoutMs: params.timeoutMs,
    maxRetries: params.maxRetries,
    concurrency,
  });
  const endpoint = { apiKey: opts.apiKey, baseUrl: run.baseUrl };
  let structured = params.structured;
  let stopReason: string | null = null;
  let cancelled = false;
  let consecutiveFailures = 0;
  const stop = (reason: string) => {
    stopReason ??= reason;
  };
  opts.stop?.addEventListener("abort", () => stop(inWords(STOPPED_BY_USER, "cli")), { once: true });
  if (opts.stop?.aborted) stop(inWords(STOPPED_BY_USER, "cli"));

  // Results wait in `buffer` until the next flush; `flushing` chains flushes one after another.
  let buffer: TKindResult<T, V>[] = [];
  let flushing: Promise<void> = Promise.resolve();
  let flushError: unknown = null;
  const flush = () => {
    const batch = buffer;
    buffer = [];
    flushing = flushing.then(async () => {
      if (!batch.length) return;
      try {
        await kind.record(batch);
      } catch (e) {
        flushError ??= e;
        stop(`could not record results: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
    return flushing;
  };
  const report = () => opts.onProgress?.({ ...progress, elapsedMs: Date.now() - started });
  const flushTimer = setInterval(() => {
    void flush();
    report();
  }, opts.flushEveryMs ?? 100);
  const beatTimer = setInterval(() => {
    void (async () => {
      try {
        await heartbeat(db, workerId);
        const now = await db.judgeRun.findUnique({ where: { id: runId }, select: { status: true, cost: true } });
        if (!now || now.status === "cancelled") {
          cancelled = true;
          stop("cancelled by the lead");
        }
        // Other workers' spending counts against the cap too.
        if (now && now.cost > progress.cost) progress.cost = now.cost;
      } catch {
        // A missed beat is retried at the next tick.
      }
    })();
  }, HEARTBEAT_MS);

  const finish = (t: T, r: Omit<TKindResult<T, V>, "t">) => {
    buffer.push({ t, ...r });
    progress.promptTokens += r.promptTokens;
    progress.completionTokens += r.completionTokens;
    progress.cost += r.cost;
    if (r.outcome === "done") {
      progress.done++;
      if (r.cached) progress.cached++;
      consecutiveFailures = 0;
    } else {
      if (r.outcome === "failed") progress.failed++;
      if (++consecutiveFailures >= params.maxConsecutiveFailures)
        stop(`${consecutiveFailures} consecutive failures; the last: ${r.error ?? "unknown"}`);
    }
    if (buffer.length >= 256) void flush();
  };

  const judgeOne = async ({ t, prompt, key, injection, parse }: TPrepared<T, V>) => {
    let tokensIn = 0;
    let tokensOut = 0;
    let attempts = t.attempts;
    let lastRaw: string | null = null;
    let lastError = "";
    for (let parseTry = 0; parseTry <= params.parseRetries; parseTry++) {
      attempts++;
      let answer;
      try {
        progress.sentThisWorker++;
        answer = await ask(client, endpoint, {
          model: run.model,
          prompt,
          temperature: params.temperature,
          maxTokens: params.maxTokens,
          structured,
          responseFormat: kind.responseFormat,
        });
      } catch (e) {
        if (!(e instanceof EndpointError)) throw e;
        const f = e.failure;
        if (f.kind === "structured_unsupported" && structured) {
          structured = false; // the endpoint does not do JSON schema: plain text for the rest of this worker
          parseTry--;
          continue;
        }
        const cost = costOf(run, tokensIn, tokensOut);
        if (f.kind === "fatal") stop(f.message);
        // A transient failure is retried in a later round, up to MAX_ATTEMPTS requests in all.
        const outcome = f.kind === "refused" || attempts >= MAX_ATTEMPTS ? "failed" : "retry";
        return finish(t, {
          outcome,
          value: null,
          raw: lastRaw,
          error: f.message,
          attempts,
          promptTokens: tokensIn,
          completionTokens: tokensOut,
          cost,
          cached: false,
          cacheKey: null,
          injection,
        });
      }
      tokensIn += answer.promptTokens;
      tokensOut += answer.completionTokens;
      lastRaw = answer.raw;
      const parsed = parse(answer);
      if (!("reason" in parsed)) {
        return finish(t, {
          outcome: "done",
          value: parsed.value,
          raw: answer.raw,
          error: null,
          attempts,
          promptTokens: tokensIn,
          completionTokens: tokensOut,
          cost: costOf(run, tokensIn, tokensOut),
          cached: false,
          cacheKey: key,
          injection,
        });
      }
      // `judge reparse` recognises a truncation or a refusal field by the stored error's prefix (parse.ts).
      lastError = storedError(parsed);
      // At temperature 0 the same request is cut at the same place again: no new request for a truncated answer.
      if (stopReason || (parsed.reason === "truncated" && params.temperature === 0)) break;
    }
    finish(t, {
      outcome: "failed",
      value: null,
      raw: lastRaw,
      error: lastError,
      attempts,
      promptTokens: tokensIn,
      completionTokens: tokensOut,
      cost: costOf(run, tokensIn, tokensOut),
      cached: false,
      cacheKey: null,
      injection,
    });
  };

  // Claimed tasks wait in `queue`; lanes take from it and refill it through one shared claim.
  const queue: TPrepared<T, V>[] = [];
  let exhausted = false;
  let claiming: Promise<void> | null = null;
  const refill = () => {
    claiming ??= (async () => {
      try {
        const claimed = await kind.claim(Math.max(64, concurrency * 4));
        if (claimed.length === 0) {
          exhausted = true;
          return;
        }
        const prepared = await kind.prepare(claimed);
        const hits = await kind.cachedRaw(prepared.map((p) => p.key));
        for (const p of prepared) {
          // A cached answer is read again with the current parser (an entry from an older parser may hold a misread grade).
          const hit = hits.get(p.key);
          const value = hit !== undefined ? p.parse({ content: hit }).value : null;
          if (hit !== undefined && value !== null)
            finish(p.t, {
              outcome: "done",
              value,
              raw: hit,
              error: null,
              attempts: p.t.attempts,
              promptTokens: 0,
              completionTokens: 0,
              cost: 0,
              cached: true,
              cacheKey: p.key,
              injection: p.injection,
            });
          else queue.push(p);
        }
      } finally {
        claiming = null;
      }
    })();
    return claiming;
  };
  const overBudget = () => run.maxCost !== null && progress.cost >= run.maxCost;
  const lane = async () => {
    for (;;) {
      if (stopReason) return;
      if (overBudget()) {
        stop(`the cost cap of $${run.maxCost?.toFixed(4)} is reached ($${progress.cost.toFixed(4)} spent)`);
        return;
      }
      const next = queue.shift();
      if (next) {
        await judgeOne(next);
        continue;
      }
      if (exhausted) return;
      await refill();
    }
  };

  let laneError: unknown = null;
  try {
    // Tasks put back after a transient error are claimed again in the next round.
    for (;;) {
      exhausted = false;
      await Promise.all(
        Array.from({ length: concurrency }, () =>
          lane().catch((e: unknown) => {
            laneError ??= e;
            stop(`internal error: ${e instanceof Error ? e.message : String(e)}`);
          }),
        ),
      );
      await flush();
      if (stopReason || (await pendingTasks(db, runId, table)) === 0) break;
    }
  } finally {
    clearInterval(flushTimer);
    clearInterval(beatTimer);
    await flush();
    await removeWorker(db, runId, workerId, table); // unsent claimed tasks go back to pending
  }
  report();
  if (laneError) throw laneError;
  if (flushError) throw flushError;

  // The run's status: completed when nothing is left; otherwise stopped, unless other workers go on.
  await reclaimDead(db, runId, table);
  const counts = await runCounts(db, runId, run.target);
  let status: TWorkerResult["status"];
  // The cancel may have come after the last heartbeat (the page stops its own worker at once).
  if (
    !cancelled &&
    (await db.judgeRun.findUnique({ where: { id: runId }, select: { status: true } }))?.status === "cancelled"
  )
    cancelled = true;
  if (cancelled) status = "cancelled";
  else if (counts.pending === 0 && counts.running === 0) {
    status = "completed";
    await setStatus(db, runId, "completed");
  } else if ((await liveWorkers(db, runId)) > 0) status = "running";
  else {
    status = "stopped";
    await setStatus(db, runId, "stopped", stopReason ?? "stopped");
  }
  if (status === "completed" || status === "stopped") {
    await db.importRecord.create({
      data: {
        projectId: run.projectId,
        kind: "judge-run",
        fileName: `judge run ${run.id} (${run.judge})`,
        sha256: run.templateSha256,
        rows: counts.labelled,
      },
    });
  }
  return {
    status,
    reason: status === "completed" ? null : stopReason,
    progress: { ...progress, elapsedMs: Date.now() - started },
  };
}
