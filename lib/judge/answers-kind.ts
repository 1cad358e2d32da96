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
import { exec, provider, rowsOf, sqlRead, sqlTransaction, type TSqlBody } from "../db/sql.ts";
import { skippingLocked } from "../db/dialect.ts";
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
import { addRunTotals, batchTotals, labelRationale } from "./store-record.ts";

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
        const p = yield* provider();
        const rows = yield* rowsOf((k) =>
          k
            .updateTable("AnswerJudgeTask")
            .set({ status: "running", workerId, claimedAt: now() })
            .where("id", "in", (eb) => {
              const pending = eb
                .selectFrom("AnswerJudgeTask")
                .select("id")
                .where("runId", "=", r.id)
                .where("status", "=", "pending")
                .orderBy("id")
                .limit(limit);
              // Workers sharing a run skip each other's claims.
              return skippingLocked(p, pending);
            })
            .returning(["id", "answerId", "sample", "attempts"]),
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
          return yield* rowsOf((k) =>
            k.selectFrom("JudgeCache").select(["key", "raw"]).where("result", "is not", null).where("key", "in", slice),
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
  const totals = batchTotals(results);
  return sqlTransaction(db, function* (): TSqlBody<number> {
    const applied: TKindResult<TAnswerClaimed, TAnswerResult>[] = [];
    for (const x of results) {
      const finished = x.outcome !== "retry";
      const n = yield* exec((k) =>
        k
          .updateTable("AnswerJudgeTask")
          .set((eb) => ({
            status: finished ? x.outcome : "pending",
            result: x.value === null ? null : JSON.stringify(x.value),
            raw: x.raw,
            error: x.error,
            attempts: x.attempts,
            promptTokens: eb("promptTokens", "+", x.promptTokens),
            completionTokens: eb("completionTokens", "+", x.completionTokens),
            cached: x.cached,
            finishedAt: finished ? at : null,
            workerId: null,
            claimedAt: null,
          }))
          .where("id", "=", x.t.id)
          .where("workerId", "=", workerId)
          .where("status", "=", "running"),
      );
      if (n === 1) applied.push(x);
    }
    for (const x of applied) {
      const { cacheKey, value } = x;
      if (x.outcome !== "done" || !cacheKey || x.cached || value === null) continue;
      yield* exec((k) =>
        k
          .insertInto("JudgeCache")
          .values({
            key: cacheKey,
            grade: value.relevance,
            result: JSON.stringify({ claims: value.claims, relevance: value.relevance }),
            raw: x.raw ?? "",
            promptTokens: x.promptTokens,
            completionTokens: x.completionTokens,
            createdAt: at,
          })
          .onConflict((oc) => oc.column("key").doNothing()),
      );
    }
    yield* addRunTotals(r.id, totals);
    // Answers with a sample finished in this batch: labelled once all their samples are finished.
    const finishedAnswers = new Map<string, TKindResult<TAnswerClaimed, TAnswerResult>>();
    for (const x of applied) if (x.outcome !== "retry") finishedAnswers.set(x.t.answerId, x);
    for (const [answerId, last] of finishedAnswers) {
      let samples: { sample: number; status: string; result: TAnswerResult | null }[];
      if (r.samples === 1) samples = [{ sample: last.t.sample, status: last.outcome, result: last.value }];
      else {
        const rows = yield* rowsOf((k) =>
          k
            .selectFrom("AnswerJudgeTask")
            .select(["sample", "status", "result"])
            .where("runId", "=", r.id)
            .where("answerId", "=", answerId),
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
      yield* exec((k) =>
        k
          .insertInto("AnswerJudgeLabel")
          .values({
            projectId: r.projectId,
            judge: r.judge,
            answerId,
            claimVersion: label.claimVersion,
            claimLabels: JSON.stringify(label.verdict.claims),
            relevance: label.verdict.relevance,
            rationale: labelRationale(r.samples, last.raw),
            provenance: JSON.stringify(provenance),
            createdAt: at,
          })
          .onConflict((oc) => oc.columns(["projectId", "judge", "answerId"]).doNothing()),
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
