/**
 * The answer kind of judge run (JudgeRun.target "answers"): a task is an
 * AnswerJudgeTask (answer × sample). The prompt shows the question, the answer's context chunks in
 * the generator's order (text, video title, times) and the claims of the answer's current claim
 * version (answers-template.ts); the answer is read by answers-parse.ts. Results are recorded as the
 * chunk kind's are (store.ts): only where this worker still holds the task, in one transaction with
 * the cache entries, the run's totals and the labels of answers whose samples are all finished.
 *
 * The label: an AnswerJudgeLabel under the run's judge name with the claim version judged, the
 * claim labels (JSON array), the relevance, and provenance JSON (run id, model, template sha256,
 * samples, each sample's labels or null, and the injection flag, lib/judge/injection.ts, since
 * the label table has no column for it). With several samples: answers-parse.ts
 * `aggregateAnswerSamples` over the samples of the newest claim version judged.
 *
 * The cache key (kinds.ts `cacheKey`) adds the claim texts to the prompt's: a re-split changes it.
 * JudgeCache.result holds the parsed verdict as JSON, `grade` its relevance.
 */
import type { Db, JudgeRun } from "../db/client.ts";
import { all, provider, run as runSql, sqlRead, sqlTransaction, type TSqlBody } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import type { TRunParams } from "./create.ts";
import {
  aggregateAnswerSamples,
  answerResponseFormat,
  parseAnswerVerdict,
  type TAnswerVerdict,
} from "./answers-parse.ts";
import { answerView, renderAnswerTemplate, type TContextChunk } from "./answers-template.ts";
import { looksLikeInjection } from "./injection.ts";
import { cacheKey, type TKindParsed, type TKindResult, type TTaskKind } from "./kinds.ts";
import { batchTotals, labelRationale } from "./store.ts";

export type TAnswerClaimed = { id: number; answerId: string; sample: number; attempts: number };
/** A sample's verdict with the claim version it was given (stored as AnswerJudgeTask.result). */
export type TAnswerResult = TAnswerVerdict & { claimVersion: number };
export type TAnswerProvenance = {
  runId: number;
  model: string;
  templateSha256: string;
  samples: number;
  sampleLabels: (TAnswerVerdict | null)[];
  injection: boolean;
};

const now = () => new Date();

/** What the prompt of each answer is made of (read per claimed batch). */
export type TAnswerPromptData = {
  answerId: string;
  question: string;
  text: string;
  claimVersion: number;
  claims: string[];
  context: TContextChunk[];
};

/** The prompt data of these answers, keyed by answer id (answers that no longer exist are absent). */
export async function loadAnswerPromptData(
  db: Db,
  answerIds: readonly string[],
): Promise<Map<string, TAnswerPromptData>> {
  const out = new Map<string, TAnswerPromptData>();
  const ids = [...new Set(answerIds)];
  for (let i = 0; i < ids.length; i += 1000) {
    const answers = await db.answer.findMany({
      where: { id: { in: ids.slice(i, i + 1000) } },
      select: {
        id: true,
        text: true,
        claimVersion: true,
        query: { select: { text: true } },
        context: {
          orderBy: { position: "asc" },
          select: {
            chunk: { select: { text: true, startSeconds: true, endSeconds: true, video: { select: { title: true } } } },
          },
        },
      },
    });
    const claims = await db.answerClaim.findMany({
      where: { OR: answers.map((a) => ({ answerId: a.id, version: a.claimVersion })) },
      orderBy: [{ answerId: "asc" }, { position: "asc" }],
      select: { answerId: true, text: true },
    });
    const claimsOf = new Map<string, string[]>();
    for (const c of claims) claimsOf.set(c.answerId, [...(claimsOf.get(c.answerId) ?? []), c.text]);
    for (const a of answers)
      out.set(a.id, {
        answerId: a.id,
        question: a.query.text,
        text: a.text,
        claimVersion: a.claimVersion,
        claims: claimsOf.get(a.id) ?? [],
        context: a.context.map((c) => ({
          title: c.chunk.video.title,
          startSeconds: c.chunk.startSeconds,
          endSeconds: c.chunk.endSeconds,
          text: c.chunk.text,
        })),
      });
  }
  return out;
}

/** The prompt of one answer under a template. */
export function answerPrompt(template: string, d: TAnswerPromptData): string {
  return renderAnswerTemplate(template, answerView(d.question, d.text, d.context, d.claims));
}

function isVerdict(v: unknown): v is TAnswerResult {
  return (
    typeof v === "object" &&
    v !== null &&
    Array.isArray((v as TAnswerResult).claims) &&
    typeof (v as TAnswerResult).relevance === "number" &&
    typeof (v as TAnswerResult).claimVersion === "number"
  );
}

/** A stored task result (AnswerJudgeTask.result), or null when there is none or it is not one. */
export function storedResult(json: string | null): TAnswerResult | null {
  if (json === null) return null;
  try {
    const v: unknown = JSON.parse(json);
    return isVerdict(v) ? v : null;
  } catch {
    return null;
  }
}

/** The label of an answer from its samples' rows, or null while any is unfinished or none is done. */
export function answerLabel(
  samples: readonly { sample: number; status: string; result: TAnswerResult | null }[],
  n: number,
): { verdict: TAnswerVerdict; claimVersion: number; sampleLabels: (TAnswerVerdict | null)[] } | null {
  if (samples.some((s) => s.status !== "done" && s.status !== "failed")) return null;
  const done = samples.filter((s) => s.status === "done" && s.result !== null);
  if (!done.length) return null;
  // A re-split between samples: only the newest claim version's samples count.
  const claimVersion = Math.max(...done.map((s) => (s.result as TAnswerResult).claimVersion));
  const current = done.filter((s) => s.result?.claimVersion === claimVersion);
  const verdict = aggregateAnswerSamples(current.map((s) => s.result as TAnswerResult));
  if (!verdict) return null;
  const sampleLabels: (TAnswerVerdict | null)[] = Array.from({ length: n }, () => null);
  for (const s of current)
    if (s.sample < n && s.result) sampleLabels[s.sample] = { claims: s.result.claims, relevance: s.result.relevance };
  return { verdict, claimVersion, sampleLabels };
}

export function answerKind(
  db: Db,
  r: JudgeRun,
  params: TRunParams,
  workerId: string,
): TTaskKind<TAnswerClaimed, TAnswerResult> {
  return {
    table: "AnswerJudgeTask",
    responseFormat: answerResponseFormat(),
    claim: (limit) =>
      sqlTransaction(db, function* () {
        const lock = (yield* provider()) === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
        const rows = yield* all<{
          id: number | bigint;
          answerId: string;
          sample: number | bigint;
          attempts: number | bigint;
        }>(
          `UPDATE "AnswerJudgeTask" SET "status" = 'running', "workerId" = ?, "claimedAt" = ? WHERE "id" IN (SELECT "id" FROM "AnswerJudgeTask" WHERE "runId" = ? AND "status" = 'pending' ORDER BY "id" LIMIT ?${lock}) RETURNING "id", "answerId", "sample", "attempts"`,
          [workerId, now(), r.id, limit],
        );
        return rows.map((x) => ({
          id: Number(x.id),
          answerId: x.answerId,
          sample: Number(x.sample),
          attempts: Number(x.attempts),
        }));
      }),
    prepare: async (claimed) => {
      const data = await loadAnswerPromptData(
        db,
        claimed.map((t) => t.answerId),
      );
      return claimed.map((t) => {
        const d = data.get(t.answerId);
        if (!d) throw new AppError("not_found", `run ${r.id}: the answer of task ${t.id} no longer exists`);
        const prompt = answerPrompt(r.template, d);
        const injection = looksLikeInjection(d.text) || d.context.some((c) => looksLikeInjection(c.text));
        const parse = (a: Parameters<typeof parseAnswerVerdict>[0]): TKindParsed<TAnswerResult> => {
          const p = parseAnswerVerdict(a, d.claims.length);
          return p.value === null ? p : { value: { ...p.value, claimVersion: d.claimVersion } };
        };
        return { t, prompt, key: cacheKey(r, params, t.sample, prompt, d.claims), injection, parse };
      });
    },
    cachedRaw: async (keys) => {
      const out = new Map<string, string>();
      for (let i = 0; i < keys.length; i += 500) {
        const slice = keys.slice(i, i + 500);
        if (!slice.length) continue;
        const rows = await sqlRead(db, function* () {
          return yield* all<{ key: string; raw: string }>(
            `SELECT "key", "raw" FROM "JudgeCache" WHERE "result" IS NOT NULL AND "key" IN (${slice.map(() => "?").join(",")})`,
            slice,
          );
        });
        for (const x of rows) out.set(x.key, x.raw);
      }
      return out;
    },
    record: (results) => recordAnswerResults(db, r, workerId, results),
  };
}

/** Writes a batch of answer results in one transaction (see the file comment); returns how many applied. */
export async function recordAnswerResults(
  db: Db,
  r: Pick<JudgeRun, "id" | "projectId" | "judge" | "samples" | "model" | "templateSha256">,
  workerId: string,
  results: TKindResult<TAnswerClaimed, TAnswerResult>[],
): Promise<number> {
  if (!results.length) return 0;
  const at = now();
  const { tokensIn, tokensOut, cost } = batchTotals(results);
  return sqlTransaction(db, function* (): TSqlBody<number> {
    const applied: TKindResult<TAnswerClaimed, TAnswerResult>[] = [];
    for (const x of results) {
      const finished = x.outcome !== "retry";
      const n = yield* runSql(
        `UPDATE "AnswerJudgeTask" SET "status" = ?, "result" = ?, "raw" = ?, "error" = ?, "attempts" = ?, "promptTokens" = "promptTokens" + ?, "completionTokens" = "completionTokens" + ?, "cached" = ?, "finishedAt" = ?, "workerId" = NULL, "claimedAt" = NULL
         WHERE "id" = ? AND "workerId" = ? AND "status" = 'running'`,
        [
          finished ? x.outcome : "pending",
          x.value === null ? null : JSON.stringify(x.value),
          x.raw,
          x.error,
          x.attempts,
          x.promptTokens,
          x.completionTokens,
          x.cached,
          finished ? at : null,
          x.t.id,
          workerId,
        ],
      );
      if (n === 1) applied.push(x);
    }
    for (const x of applied) {
      if (x.outcome !== "done" || !x.cacheKey || x.cached || x.value === null) continue;
      yield* runSql(
        `INSERT INTO "JudgeCache" ("key", "grade", "result", "raw", "promptTokens", "completionTokens", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("key") DO NOTHING`,
        [
          x.cacheKey,
          x.value.relevance,
          JSON.stringify({ claims: x.value.claims, relevance: x.value.relevance }),
          x.raw ?? "",
          x.promptTokens,
          x.completionTokens,
          at,
        ],
      );
    }
    yield* runSql(
      `UPDATE "JudgeRun" SET "promptTokens" = "promptTokens" + ?, "completionTokens" = "completionTokens" + ?, "cost" = "cost" + ? WHERE "id" = ?`,
      [tokensIn, tokensOut, cost, r.id],
    );
    // Answers with a sample finished in this batch: labelled once all their samples are finished.
    const finishedAnswers = new Map<string, TKindResult<TAnswerClaimed, TAnswerResult>>();
    for (const x of applied) if (x.outcome !== "retry") finishedAnswers.set(x.t.answerId, x);
    for (const [answerId, last] of finishedAnswers) {
      let samples: { sample: number; status: string; result: TAnswerResult | null }[];
      if (r.samples === 1) samples = [{ sample: last.t.sample, status: last.outcome, result: last.value }];
      else {
        const rows = yield* all<{ sample: number | bigint; status: string; result: string | null }>(
          `SELECT "sample", "status", "result" FROM "AnswerJudgeTask" WHERE "runId" = ? AND "answerId" = ?`,
          [r.id, answerId],
        );
        samples = rows.map((x) => ({ sample: Number(x.sample), status: x.status, result: storedResult(x.result) }));
      }
      const label = answerLabel(samples, r.samples);
      if (!label) continue;
      const provenance: TAnswerProvenance = {
        runId: r.id,
        model: r.model,
        templateSha256: r.templateSha256,
        samples: r.samples,
        sampleLabels: label.sampleLabels,
        injection: last.injection,
      };
      yield* runSql(
        `INSERT INTO "AnswerJudgeLabel" ("projectId", "judge", "answerId", "claimVersion", "claimLabels", "relevance", "rationale", "provenance", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("projectId", "judge", "answerId") DO NOTHING`,
        [
          r.projectId,
          r.judge,
          answerId,
          label.claimVersion,
          JSON.stringify(label.verdict.claims),
          label.verdict.relevance,
          labelRationale(r.samples, last.raw),
          JSON.stringify(provenance),
          at,
        ],
      );
    }
    return applied.length;
  });
}

export type TAnswerRunLabel = {
  answer: string;
  system: string;
  query: string;
  claimVersion: number | null;
  claims: string[] | null;
  relevance: number | null;
  samples: {
    sample: number;
    status: string;
    result: TAnswerResult | null;
    raw: string | null;
    error: string | null;
    cached: boolean;
  }[];
};

/** Each answer of an answer run with its label (as recorded: the aggregate of finished samples) and its samples, for export. */
export async function answerRunLabels(db: Db, run: Pick<JudgeRun, "id" | "samples">): Promise<TAnswerRunLabel[]> {
  const tasks = await db.answerJudgeTask.findMany({
    where: { runId: run.id },
    orderBy: [{ answerId: "asc" }, { sample: "asc" }],
  });
  const meta = new Map(
    (
      await db.answer.findMany({
        where: { id: { in: [...new Set(tasks.map((t) => t.answerId))] } },
        select: { id: true, system: true, query: { select: { externalId: true } } },
      })
    ).map((a) => [a.id, a]),
  );
  const byAnswer = new Map<string, TAnswerRunLabel>();
  for (const t of tasks) {
    let a = byAnswer.get(t.answerId);
    if (!a) {
      const m = meta.get(t.answerId);
      byAnswer.set(
        t.answerId,
        (a = {
          answer: t.answerId,
          system: m?.system ?? "",
          query: m?.query.externalId ?? "",
          claimVersion: null,
          claims: null,
          relevance: null,
          samples: [],
        }),
      );
    }
    a.samples.push({
      sample: t.sample,
      status: t.status,
      result: storedResult(t.result),
      raw: t.raw,
      error: t.error,
      cached: t.cached,
    });
  }
  const out = [...byAnswer.values()];
  for (const a of out) {
    const l = answerLabel(a.samples, run.samples);
    if (l) Object.assign(a, { claimVersion: l.claimVersion, claims: l.verdict.claims, relevance: l.verdict.relevance });
  }
  return out.sort((x, y) =>
    x.query < y.query ? -1 : x.query > y.query ? 1 : x.system < y.system ? -1 : x.system > y.system ? 1 : 0,
  );
}
