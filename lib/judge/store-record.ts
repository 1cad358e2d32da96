/**
 * Claiming the tasks of a chunk run and recording their results exactly once (store.ts): only
 * where the task is still claimed by this worker, in one transaction with the cache entries, the
 * run's token and cost totals, and the labels of pairs whose samples are all finished.
 */
import { sql, type RawBuilder } from "kysely";
import type { Db, JudgeRun } from "../db/client.ts";
import { exec, provider, rowsOf, sqlRead, sqlTransaction, type TSqlBody } from "../db/sql.ts";
import { skippingLocked } from "../db/dialect.ts";
import { timestampValue } from "../db/query.ts";
import { finalAnswer, samplesGrade } from "./parse.ts";

export type TClaimed = { id: number; queryId: number; chunkId: number; sample: number; attempts: number };

/**
 * What a worker learned about one task, whatever its kind (the grade or verdict aside). done: a
 * value; failed: definitive (unparseable after retries, or refused); retry: back to pending
 * (transient error).
 */
export type TTaskOutcome = {
  outcome: "done" | "failed" | "retry";
  raw: string | null;
  error: string | null;
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  cost: number;
  cached: boolean;
  cacheKey: string | null;
  /** The task's text reads like instructions to a model (lib/judge/injection.ts). */
  injection: boolean;
};

/** What a worker learned about one task of a chunk run: done, a grade. */
export type TTaskResult = TTaskOutcome & { id: number; queryId: number; chunkId: number; grade: number | null };

const now = () => new Date();

/** Claims up to `limit` pending tasks of the run for this worker. */
export async function claimTasks(db: Db, runId: number, workerId: string, limit: number): Promise<TClaimed[]> {
  return sqlTransaction(db, function* () {
    const p = yield* provider();
    const rows = yield* rowsOf((k) =>
      k
        .updateTable("JudgeTask")
        .set({ status: "running", workerId, claimedAt: now() })
        .where("id", "in", (eb) => {
          const pending = eb
            .selectFrom("JudgeTask")
            .select("id")
            .where("runId", "=", runId)
            .where("status", "=", "pending")
            .orderBy("id")
            .limit(limit);
          // Workers sharing a run skip each other's claims.
          return skippingLocked(p, pending);
        })
        .returning(["id", "queryId", "chunkId", "sample", "attempts"]),
    );
    return rows.map((r) => ({
      id: Number(r.id),
      queryId: Number(r.queryId),
      chunkId: Number(r.chunkId),
      sample: Number(r.sample),
      attempts: Number(r.attempts),
    }));
  });
}

/** Cached answers for these keys (a re-run of the same configuration costs nothing). */
export async function cachedAnswers(db: Db, keys: string[]): Promise<Map<string, { grade: number; raw: string }>> {
  const out = new Map<string, { grade: number; raw: string }>();
  for (let i = 0; i < keys.length; i += 500) {
    const slice = keys.slice(i, i + 500);
    if (!slice.length) continue;
    const rows = await sqlRead(db, function* () {
      return yield* rowsOf((k) => k.selectFrom("JudgeCache").select(["key", "grade", "raw"]).where("key", "in", slice));
    });
    for (const r of rows) out.set(r.key, { grade: Number(r.grade), raw: r.raw });
  }
  return out;
}

const RATIONALE_MAX = 4000;

/** A label's rationale: a single sample's final answer (its reasoning left out), cut at RATIONALE_MAX; none for several samples. */
export function labelRationale(samples: number, raw: string | null): string | null {
  return samples > 1 ? null : finalAnswer(raw ?? "").slice(0, RATIONALE_MAX);
}

/** Tokens and cost of a batch of results, added to the run's totals when the batch is written (chunk and answer runs). */
export function batchTotals(results: readonly { promptTokens: number; completionTokens: number; cost: number }[]): {
  tokensIn: number;
  tokensOut: number;
  cost: number;
} {
  let tokensIn = 0;
  let tokensOut = 0;
  let cost = 0;
  for (const x of results) {
    tokensIn += x.promptTokens;
    tokensOut += x.completionTokens;
    cost += x.cost;
  }
  return { tokensIn, tokensOut, cost };
}

/** Adds a batch's totals (batchTotals) to the run's (chunk and answer runs). */
export function* addRunTotals(runId: number, totals: ReturnType<typeof batchTotals>): TSqlBody<number> {
  return yield* exec((k) =>
    k
      .updateTable("JudgeRun")
      .set((eb) => ({
        promptTokens: eb("promptTokens", "+", totals.tokensIn),
        completionTokens: eb("completionTokens", "+", totals.tokensOut),
        cost: eb("cost", "+", totals.cost),
      }))
      .where("id", "=", runId),
  );
}

/** A row of the VALUES list of recordResults: one task's outcome. */
type TResultRow = {
  vId: number;
  vStatus: string;
  vGrade: number | null;
  vRaw: string | null;
  vError: string | null;
  vAttempts: number;
  vIn: number;
  vOut: number;
  vCached: number;
  vFinished: number;
  vInjection: number;
};

/**
 * `(VALUES (…), (…))` of a batch of results, the body of recordResults' `WITH v(…)`: Kysely builds
 * no bare VALUES list, so this one fragment is `sql`, typed by its row (TResultRow). Every value is
 * cast: a bare parameter in a PostgreSQL VALUES list has no type (the casts are the same on SQLite).
 */
function resultRows(part: readonly TTaskResult[]): RawBuilder<TResultRow> {
  const integer = (v: number | null) => sql`CAST(${v} AS INTEGER)`;
  const text = (v: string | null) => sql`CAST(${v} AS TEXT)`;
  const rows = part.map(
    (x) =>
      sql`(${sql.join([
        integer(x.id),
        text(x.outcome === "retry" ? "pending" : x.outcome),
        integer(x.grade),
        text(x.raw),
        text(x.error),
        integer(x.attempts),
        integer(x.promptTokens),
        integer(x.completionTokens),
        integer(x.cached ? 1 : 0),
        integer(x.outcome === "retry" ? 0 : 1),
        integer(x.injection ? 1 : 0),
      ])})`,
  );
  // In parentheses: Kysely writes a raw CTE body as is (`AS (…)` is the statement's own).
  return sql<TResultRow>`(VALUES ${sql.join(rows)})`;
}

/**
 * Writes a batch of results in one transaction: each task's outcome (only where this worker
 * still holds it), new cache entries, the run's token and cost totals, and the judge label of
 * every pair whose samples are all finished (the median of its graded samples; a pair with no
 * graded sample gets no label).
 */
export async function recordResults(
  db: Db,
  r: Pick<JudgeRun, "id" | "projectId" | "judge" | "samples">,
  workerId: string,
  results: TTaskResult[],
): Promise<number> {
  if (!results.length) return 0;
  const at = now();
  const totals = batchTotals(results);
  return sqlTransaction(db, function* (): TSqlBody<number> {
    // Multi-row statements (RECORD_BATCH rows each): on PostgreSQL every statement is a round
    // trip, and the shorter a flush, the fewer answers a crash can lose between answer and write.
    const appliedIds = new Set<number>();
    const p = yield* provider();
    for (const part of batches(results)) {
      const updated = yield* rowsOf((k) =>
        k
          .with("v(vId, vStatus, vGrade, vRaw, vError, vAttempts, vIn, vOut, vCached, vFinished, vInjection)", () =>
            resultRows(part),
          )
          .updateTable("JudgeTask")
          .from("v")
          .set((eb) => ({
            status: eb.ref("v.vStatus"),
            grade: eb.ref("v.vGrade"),
            raw: eb.ref("v.vRaw"),
            error: eb.ref("v.vError"),
            attempts: eb.ref("v.vAttempts"),
            promptTokens: eb("promptTokens", "+", eb.ref("v.vIn")),
            completionTokens: eb("completionTokens", "+", eb.ref("v.vOut")),
            cached: eb.parens(eb("v.vCached", "=", eb.lit(1))).$castTo<boolean>(),
            injection: eb.parens(eb("v.vInjection", "=", eb.lit(1))).$castTo<boolean>(),
            finishedAt: eb
              .case()
              .when("v.vFinished", "=", eb.lit(1))
              .then(timestampValue(p, at))
              .else(eb.lit(null))
              .end(),
            workerId: null,
            claimedAt: null,
          }))
          .whereRef("JudgeTask.id", "=", "v.vId")
          .where("JudgeTask.workerId", "=", workerId)
          .where("JudgeTask.status", "=", "running")
          .returning("JudgeTask.id"),
      );
      for (const u of updated) appliedIds.add(Number(u.id));
    }
    const applied = results.filter((x) => appliedIds.has(x.id));
    const toCache = applied.filter(
      (x): x is TTaskResult & { grade: number; cacheKey: string } =>
        x.outcome === "done" && !!x.cacheKey && !x.cached && x.grade !== null,
    );
    for (const part of batches(toCache)) {
      yield* exec((k) =>
        k
          .insertInto("JudgeCache")
          .values(
            part.map((x) => ({
              key: x.cacheKey,
              grade: x.grade,
              raw: x.raw ?? "",
              promptTokens: x.promptTokens,
              completionTokens: x.completionTokens,
              createdAt: at,
            })),
          )
          .onConflict((oc) => oc.column("key").doNothing()),
      );
    }
    yield* addRunTotals(r.id, totals);
    const finishedPairs = new Map<
      string,
      { queryId: number; chunkId: number; grade: number | null; raw: string | null; injection: boolean }
    >();
    for (const x of applied)
      if (x.outcome !== "retry")
        finishedPairs.set(`${x.queryId}:${x.chunkId}`, {
          queryId: x.queryId,
          chunkId: x.chunkId,
          grade: x.grade,
          raw: x.raw,
          injection: x.injection,
        });
    if (r.samples > 1 && finishedPairs.size) {
      // A pair is labelled once all its samples are finished: the median of the graded ones.
      const queryIds = [...new Set([...finishedPairs.values()].map((p) => p.queryId))];
      const bySample = new Map<string, { status: string; grade: number | null }[]>();
      for (const part of batches(queryIds)) {
        const rows = yield* rowsOf((k) =>
          k
            .selectFrom("JudgeTask")
            .select(["queryId", "chunkId", "status", "grade"])
            .where("runId", "=", r.id)
            .where("queryId", "in", part),
        );
        for (const row of rows) {
          const key = `${Number(row.queryId)}:${Number(row.chunkId)}`;
          if (!finishedPairs.has(key)) continue;
          const list = bySample.get(key) ?? [];
          list.push({ status: row.status, grade: row.grade === null ? null : Number(row.grade) });
          bySample.set(key, list);
        }
      }
      for (const [key, pair] of finishedPairs) {
        const samples = bySample.get(key) ?? [];
        pair.grade = samples.some((x) => x.status !== "done" && x.status !== "failed")
          ? null
          : samplesGrade(samples.filter((x) => x.status === "done" && x.grade !== null).map((x) => Number(x.grade)));
      }
    }
    const labels = [...finishedPairs.values()].filter((p): p is typeof p & { grade: number } => p.grade !== null);
    for (const part of batches(labels)) {
      yield* exec((k) =>
        k
          .insertInto("JudgeLabel")
          .values(
            part.map((p) => ({
              projectId: r.projectId,
              judge: r.judge,
              queryId: p.queryId,
              chunkId: p.chunkId,
              grade: p.grade,
              rationale: labelRationale(r.samples, p.raw),
              injection: p.injection,
              createdAt: at,
            })),
          )
          .onConflict((oc) => oc.columns(["projectId", "judge", "queryId", "chunkId"]).doNothing()),
      );
    }
    return applied.length;
  });
}

/** Rows per multi-row statement: well under SQLite's 32,766 host parameters and PostgreSQL's 65,535. */
const RECORD_BATCH = 200;

function* batches<T>(rows: readonly T[]): Generator<T[]> {
  for (let i = 0; i < rows.length; i += RECORD_BATCH) yield rows.slice(i, i + RECORD_BATCH);
}
