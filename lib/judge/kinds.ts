/**
 * What a judge run judges, as the runner (runner.ts) sees it: a task kind. The runner owns the
 * claiming loop, heartbeats, buffering, retries, the cost cap, stop, cancel and resume; a kind says
 * how its tasks are claimed, what prompt each gets, how an answer is read, and how a batch of
 * results is recorded (exactly once: only where the worker still holds the task, store.ts).
 *
 * Two kinds: `chunks` (JudgeTask: a question–chunk pair and sample, graded 0–3; this file) and
 * `answers` (AnswerJudgeTask: a generated answer and sample, its claims labelled s/p/n/x and its
 * relevance 0–3; answers-kind.ts). JudgeRun.target names the kind of a run.
 */
import type { Db, JudgeRun } from "../db/client.ts";
import { AppError } from "../errors.ts";
import type { TRunParams } from "./create.ts";
import { publicBaseUrl } from "./endpoint.ts";
import { looksLikeInjection } from "./injection.ts";
import { parseAnswer, type TFailureReason, type TModelAnswer } from "./parse.ts";
import {
  cachedAnswers,
  claimTasks,
  recordResults,
  type TClaimed,
  type TTaskOutcome,
  type TTaskTable,
} from "./store.ts";
import { renderTemplate, sha256 } from "./template.ts";
import { pairViewLoader } from "./views.ts";
import { probePerturber } from "./probe/hook.ts";

export type TTarget = "chunks" | "answers";
export const TARGETS: readonly TTarget[] = ["chunks", "answers"];
export { taskTable, type TTaskTable } from "./store.ts";

/** What every kind's claimed task has. */
export type TKindTask = { id: number; sample: number; attempts: number };

/** A parsed answer: the kind's value, or a failure in parse.ts's terms (so the runner's retry policy applies alike). */
export type TKindParsed<V> = { value: V } | { value: null; reason: TFailureReason; error: string };

/** A claimed task ready to send: its prompt, cache key, injection flag, and the reader of its answer. */
export type TPrepared<T extends TKindTask, V> = {
  t: T;
  prompt: string;
  key: string;
  injection: boolean;
  parse: (a: TModelAnswer) => TKindParsed<V>;
};

/** What a worker learned about one task (runner.ts): the kind's value where done. */
export type TKindResult<T extends TKindTask, V> = TTaskOutcome & { t: T; value: V | null };

/** A task kind bound to one run and one worker. */
export type TTaskKind<T extends TKindTask, V> = {
  table: TTaskTable;
  /** The `response_format` asked for when the run is structured. */
  responseFormat?: Record<string, unknown>;
  claim: (limit: number) => Promise<T[]>;
  /** Prompts of a claimed batch (read per batch: a resume starts at once, memory stays with the batch). */
  prepare: (tasks: T[]) => Promise<TPrepared<T, V>[]>;
  /** Raw answers cached under these keys (read again with the current parser by the runner). */
  cachedRaw: (keys: string[]) => Promise<Map<string, string>>;
  record: (results: TKindResult<T, V>[]) => Promise<number>;
};

/**
 * The response cache's key: the endpoint (its base URL as stored: normalised by `publicBaseUrl`,
 * without credentials or query), model, parameters that change the answer, template, sample, and
 * the prompt (question and chunk text). The same model name at another base URL is another model:
 * it never gets the first endpoint's answers. `extra` (answer runs: the claim texts) is appended.
 */
export function cacheKey(
  run: Pick<JudgeRun, "baseUrl" | "model" | "templateSha256">,
  p: Pick<TRunParams, "temperature" | "maxTokens" | "structured">,
  sample: number,
  prompt: string,
  extra?: unknown,
): string {
  const parts: unknown[] = [
    publicBaseUrl(run.baseUrl),
    run.model,
    p.temperature,
    p.maxTokens,
    p.structured,
    run.templateSha256,
    sample,
    prompt,
  ];
  if (extra !== undefined) parts.push(extra);
  return sha256(JSON.stringify(parts));
}

/** The chunk kind: question–chunk pairs graded 0–3 (JudgeTask, JudgeLabel). */
export function chunkKind(db: Db, run: JudgeRun, params: TRunParams, workerId: string): TTaskKind<TClaimed, number> {
  // Views are read per claimed batch (lib/judge/views.ts), so a resume starts at once and memory stays with the batch.
  const viewsOf = pairViewLoader(db, run.template);
  // A robustness probe (lib/judge/probe) changes each pair's view before rendering; null for every other run.
  const perturber = probePerturber(db, params.probe);
  const parse = (a: TModelAnswer): TKindParsed<number> => {
    const p = parseAnswer(a);
    return p.grade !== null ? { value: p.grade } : { value: null, reason: p.reason, error: p.error };
  };
  return {
    table: "JudgeTask",
    claim: (limit) => claimTasks(db, run.id, workerId, limit),
    prepare: async (claimed) => {
      const [views, perturb] = await Promise.all([viewsOf(claimed), perturber?.(claimed)]);
      return claimed.map((t) => {
        const view = views.get(`${t.queryId}:${t.chunkId}`);
        if (!view)
          throw new AppError("not_found", `run ${run.id}: the query or chunk of task ${t.id} no longer exists`);
        const shown = perturb ? perturb(view.view, t) : view.view;
        const prompt = renderTemplate(run.template, shown);
        return {
          t,
          prompt,
          key: cacheKey(run, params, t.sample, prompt),
          injection: looksLikeInjection(shown.chunk),
          parse,
        };
      });
    },
    cachedRaw: async (keys) => new Map([...(await cachedAnswers(db, keys))].map(([k, v]) => [k, v.raw])),
    record: (results) =>
      recordResults(
        db,
        run,
        workerId,
        results.map((r) => ({
          id: r.t.id,
          queryId: r.t.queryId,
          chunkId: r.t.chunkId,
          outcome: r.outcome,
          grade: r.value,
          raw: r.raw,
          error: r.error,
          attempts: r.attempts,
          promptTokens: r.promptTokens,
          completionTokens: r.completionTokens,
          cost: r.cost,
          cached: r.cached,
          cacheKey: r.cacheKey,
          injection: r.injection,
        })),
      ),
  };
}
