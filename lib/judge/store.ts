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
 */
import { hostname } from "node:os";
import type { Db, JudgeRun } from "../db/client.ts";
import { timestampParam } from "../db/dialect.ts";
import { all, provider, run, sqlRead, sqlTransaction, type TSqlBody } from "../db/sql.ts";
import { intId } from "../bounds.ts";
import { AppError } from "../errors.ts";
import { finalAnswer, samplesGrade } from "./parse.ts";
import { action, say } from "../terms.ts";

export const HEARTBEAT_MS = 2_000;
export const STALE_MS = 15_000;

/** The task table of a run's kind (JudgeRun.target: "chunks" or "answers", lib/judge/kinds.ts). */
export type TTaskTable = "JudgeTask" | "AnswerJudgeTask";
export const taskTable = (target: string): TTaskTable => (target === "answers" ? "AnswerJudgeTask" : "JudgeTask");

export type TRunStatus = "queued" | "running" | "stopped" | "cancelled" | "completed";
export type TClaimed = { id: number; queryId: number; chunkId: number; sample: number; attempts: number };

/** What a worker learned about one task. */
export type TTaskResult = {
  id: number;
  queryId: number;
  chunkId: number;
  /** done: a grade; failed: definitive (unparseable after retries, or refused); retry: back to pending (transient error). */
  outcome: "done" | "failed" | "retry";
  grade: number | null;
  raw: string | null;
  error: string | null;
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  cost: number;
  cached: boolean;
  cacheKey: string | null;
  /** The chunk reads like instructions to a model (lib/judge/injection.ts). */
  injection: boolean;
};

const now = () => new Date();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes workers that are gone (stale heartbeat, or a dead process on this host) and puts their
 * running tasks back to pending. Returns how many tasks were put back.
 */
export async function reclaimDead(db: Db, runId: number, table: TTaskTable = "JudgeTask"): Promise<number> {
  const workers = await db.judgeWorker.findMany({ where: { runId } });
  const host = hostname();
  const staleBefore = Date.now() - STALE_MS;
  const dead = workers
    .filter(
      (w) => w.heartbeatAt.getTime() < staleBefore || (w.host === host && w.pid !== process.pid && !pidAlive(w.pid)),
    )
    .map((w) => w.id);
  return sqlTransaction(db, function* () {
    for (const id of dead) yield* run(`DELETE FROM "JudgeWorker" WHERE "id" = ?`, [id]);
    // Running tasks whose worker is no longer registered (dead above, or removed earlier).
    return yield* run(
      `UPDATE "${table}" SET "status" = 'pending', "workerId" = NULL, "claimedAt" = NULL WHERE "runId" = ? AND "status" = 'running' AND ("workerId" IS NULL OR "workerId" NOT IN (SELECT "id" FROM "JudgeWorker" WHERE "runId" = ?))`,
      [runId, runId],
    );
  });
}

/**
 * Registers this process as a worker of the run. On SQLite it refuses when another live worker
 * holds the run (one statement: insert only if no fresh heartbeat exists).
 */
export async function registerWorker(
  db: Db,
  runId: number,
  workerId: string,
  table: TTaskTable = "JudgeTask",
): Promise<void> {
  await reclaimDead(db, runId, table);
  const fresh = new Date(Date.now() - STALE_MS);
  const inserted = await sqlTransaction(db, function* () {
    const p = yield* provider();
    if (p === "postgres") {
      return yield* run(
        `INSERT INTO "JudgeWorker" ("id", "runId", "host", "pid", "startedAt", "heartbeatAt") VALUES (?, ?, ?, ?, ?, ?)`,
        [workerId, runId, hostname(), process.pid, now(), now()],
      );
    }
    return yield* run(
      `INSERT INTO "JudgeWorker" ("id", "runId", "host", "pid", "startedAt", "heartbeatAt") SELECT ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM "JudgeWorker" WHERE "runId" = ? AND "heartbeatAt" > ?)`,
      [workerId, runId, hostname(), process.pid, now(), now(), runId, fresh],
    );
  });
  if (inserted === 0) {
    const other = await db.judgeWorker.findFirst({ where: { runId }, orderBy: { heartbeatAt: "desc" } });
    const age = other ? Math.round((Date.now() - other.heartbeatAt.getTime()) / 1000) : 0;
    throw new AppError(
      "conflict",
      say`run ${runId} is being judged by another worker (pid ${other?.pid ?? "?"} on ${other?.host ?? "?"}, last heartbeat ${age} s ago). On SQLite one worker runs a run at a time: wait for it, stop it (${action("cancelJudge")}), or use PostgreSQL to share a run between workers.`,
    );
  }
}

export async function heartbeat(db: Db, workerId: string): Promise<boolean> {
  const n = await sqlTransaction(db, function* () {
    return yield* run(`UPDATE "JudgeWorker" SET "heartbeatAt" = ? WHERE "id" = ?`, [now(), workerId]);
  });
  return n === 1;
}

export async function removeWorker(
  db: Db,
  runId: number,
  workerId: string,
  table: TTaskTable = "JudgeTask",
): Promise<void> {
  await sqlTransaction(db, function* () {
    yield* run(
      `UPDATE "${table}" SET "status" = 'pending', "workerId" = NULL, "claimedAt" = NULL WHERE "runId" = ? AND "workerId" = ? AND "status" = 'running'`,
      [runId, workerId],
    );
    yield* run(`DELETE FROM "JudgeWorker" WHERE "id" = ?`, [workerId]);
  });
}

/** Claims up to `limit` pending tasks of the run for this worker. */
export async function claimTasks(db: Db, runId: number, workerId: string, limit: number): Promise<TClaimed[]> {
  return sqlTransaction(db, function* () {
    const p = yield* provider();
    const lock = p === "postgres" ? " FOR UPDATE SKIP LOCKED" : "";
    const rows = yield* all<{ id: number; queryId: number; chunkId: number; sample: number; attempts: number }>(
      `UPDATE "JudgeTask" SET "status" = 'running', "workerId" = ?, "claimedAt" = ? WHERE "id" IN (SELECT "id" FROM "JudgeTask" WHERE "runId" = ? AND "status" = 'pending' ORDER BY "id" LIMIT ?${lock}) RETURNING "id", "queryId", "chunkId", "sample", "attempts"`,
      [workerId, now(), runId, limit],
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
      return yield* all<{ key: string; grade: number; raw: string }>(
        `SELECT "key", "grade", "raw" FROM "JudgeCache" WHERE "key" IN (${slice.map(() => "?").join(",")})`,
        slice,
      );
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
  const { tokensIn, tokensOut, cost } = batchTotals(results);
  return sqlTransaction(db, function* (): TSqlBody<number> {
    // Multi-row statements (RECORD_BATCH rows each): on PostgreSQL every statement is a round
    // trip, and the shorter a flush, the fewer answers a crash can lose between answer and write.
    const appliedIds = new Set<number>();
    // A bare parameter in CASE is text to PostgreSQL; SQLite must not cast (TIMESTAMP would be numeric there).
    const finishedAt = timestampParam(yield* provider());
    for (const part of batches(results)) {
      const values = part.map(
        () =>
          "(CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS INTEGER))",
      );
      const params = part.flatMap((x) => [
        x.id,
        x.outcome === "retry" ? "pending" : x.outcome,
        x.grade,
        x.raw,
        x.error,
        x.attempts,
        x.promptTokens,
        x.completionTokens,
        x.cached ? 1 : 0,
        x.outcome === "retry" ? 0 : 1,
        x.injection ? 1 : 0,
      ]);
      const updated = yield* all<{ id: number | bigint }>(
        `WITH v("vId", "vStatus", "vGrade", "vRaw", "vError", "vAttempts", "vIn", "vOut", "vCached", "vFinished", "vInjection") AS (VALUES ${values.join(", ")})
         UPDATE "JudgeTask" SET "status" = v."vStatus", "grade" = v."vGrade", "raw" = v."vRaw", "error" = v."vError", "attempts" = v."vAttempts",
           "promptTokens" = "promptTokens" + v."vIn", "completionTokens" = "completionTokens" + v."vOut", "cached" = (v."vCached" = 1), "injection" = (v."vInjection" = 1),
           "finishedAt" = CASE WHEN v."vFinished" = 1 THEN ${finishedAt} ELSE NULL END, "workerId" = NULL, "claimedAt" = NULL
         FROM v WHERE "JudgeTask"."id" = v."vId" AND "JudgeTask"."workerId" = ? AND "JudgeTask"."status" = 'running'
         RETURNING "JudgeTask"."id"`,
        [...params, at, workerId],
      );
      for (const u of updated) appliedIds.add(Number(u.id));
    }
    const applied = results.filter((x) => appliedIds.has(x.id));
    const toCache = applied.filter((x) => x.outcome === "done" && x.cacheKey && !x.cached && x.grade !== null);
    for (const part of batches(toCache)) {
      yield* run(
        `INSERT INTO "JudgeCache" ("key", "grade", "raw", "promptTokens", "completionTokens", "createdAt") VALUES ${part.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")} ON CONFLICT ("key") DO NOTHING`,
        part.flatMap((x) => [x.cacheKey ?? "", x.grade, x.raw ?? "", x.promptTokens, x.completionTokens, at]),
      );
    }
    yield* run(
      `UPDATE "JudgeRun" SET "promptTokens" = "promptTokens" + ?, "completionTokens" = "completionTokens" + ?, "cost" = "cost" + ? WHERE "id" = ?`,
      [tokensIn, tokensOut, cost, r.id],
    );
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
        const rows = yield* all<{
          queryId: number | bigint;
          chunkId: number | bigint;
          status: string;
          grade: number | bigint | null;
        }>(
          `SELECT "queryId", "chunkId", "status", "grade" FROM "JudgeTask" WHERE "runId" = ? AND "queryId" IN (${part.map(() => "?").join(", ")})`,
          [r.id, ...part],
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
    const labels = [...finishedPairs.values()].filter((p) => p.grade !== null);
    for (const part of batches(labels)) {
      yield* run(
        `INSERT INTO "JudgeLabel" ("projectId", "judge", "queryId", "chunkId", "grade", "rationale", "injection", "createdAt") VALUES ${part.map(() => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")} ON CONFLICT ("projectId", "judge", "queryId", "chunkId") DO NOTHING`,
        part.flatMap((p) => [
          r.projectId,
          r.judge,
          p.queryId,
          p.chunkId,
          p.grade,
          labelRationale(r.samples, p.raw),
          p.injection,
          at,
        ]),
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

/** `flagged`: pairs whose chunk reads like instructions to a model (JudgeTask.injection, lib/judge/injection.ts). */
export type TRunCounts = {
  total: number;
  pending: number;
  running: number;
  done: number;
  failed: number;
  cached: number;
  pairs: number;
  labelled: number;
  flagged: number;
};

/** Tasks of the run still waiting to be sent. */
export async function pendingTasks(db: Db, runId: number, table: TTaskTable): Promise<number> {
  return table === "AnswerJudgeTask"
    ? db.answerJudgeTask.count({ where: { runId, status: "pending" } })
    : db.judgeTask.count({ where: { runId, status: "pending" } });
}

/** A run's counts; for an answer run `pairs` counts answers, `labelled` AnswerJudgeLabel rows, `flagged` labelled answers whose text or context reads like instructions. */
export async function runCounts(db: Db, runId: number, target = "chunks"): Promise<TRunCounts> {
  if (taskTable(target) === "AnswerJudgeTask") return answerRunCounts(db, runId);
  const [byStatus, cached, labelled, pairs, flagged] = await Promise.all([
    db.judgeTask.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
    db.judgeTask.count({ where: { runId, cached: true, status: "done" } }),
    db.judgeRun
      .findUnique({ where: { id: runId }, select: { projectId: true, judge: true } })
      .then((r) => (r ? db.judgeLabel.count({ where: { projectId: r.projectId, judge: r.judge } }) : 0)),
    db.judgeTask.count({ where: { runId, sample: 0 } }),
    db.judgeTask.count({ where: { runId, sample: 0, injection: true } }),
  ]);
  const c = { total: 0, pending: 0, running: 0, done: 0, failed: 0, cached, pairs, labelled, flagged };
  for (const s of byStatus) {
    const n = s._count._all;
    c.total += n;
    if (s.status === "pending" || s.status === "running" || s.status === "done" || s.status === "failed")
      c[s.status] += n;
  }
  return c;
}

async function answerRunCounts(db: Db, runId: number): Promise<TRunCounts> {
  const run = await db.judgeRun.findUnique({ where: { id: runId }, select: { projectId: true, judge: true } });
  const labels = { projectId: run?.projectId ?? -1, judge: run?.judge ?? "" };
  const [byStatus, cached, labelled, pairs, flagged] = await Promise.all([
    db.answerJudgeTask.groupBy({ by: ["status"], where: { runId }, _count: { _all: true } }),
    db.answerJudgeTask.count({ where: { runId, cached: true, status: "done" } }),
    db.answerJudgeLabel.count({ where: labels }),
    db.answerJudgeTask.count({ where: { runId, sample: 0 } }),
    // The flag is in the label's provenance (lib/judge/answers-kind.ts: the label table has no column for it).
    db.answerJudgeLabel.count({ where: { ...labels, provenance: { contains: '"injection":true' } } }),
  ]);
  const c = { total: 0, pending: 0, running: 0, done: 0, failed: 0, cached, pairs, labelled, flagged };
  for (const s of byStatus) {
    const n = s._count._all;
    c.total += n;
    if (s.status === "pending" || s.status === "running" || s.status === "done" || s.status === "failed")
      c[s.status] += n;
  }
  return c;
}

export async function liveWorkers(db: Db, runId: number): Promise<number> {
  return db.judgeWorker.count({ where: { runId, heartbeatAt: { gt: new Date(Date.now() - STALE_MS) } } });
}

/** Finds a run by id or by judge name within a project. */
export async function findRun(db: Db, projectId: number, ref: string): Promise<JudgeRun> {
  // An id beyond the column's 32 bits is no run (PostgreSQL would refuse the query): a name, or not found.
  const id = intId(ref);
  const byId = id !== null ? await db.judgeRun.findFirst({ where: { id, projectId } }) : null;
  const found = byId ?? (await db.judgeRun.findFirst({ where: { projectId, judge: ref } }));
  if (!found) {
    const runs = await db.judgeRun.findMany({
      where: { projectId },
      select: { id: true, judge: true },
      orderBy: { id: "asc" },
    });
    // Judges with labels and no run (imported from a file, or transferred: lib/judge/label-sets.ts): only `judge export` and `judge list` read them.
    const withRun = new Set(runs.map((x) => x.judge));
    const noRun = (
      await db.judgeLabel.findMany({
        where: { projectId },
        distinct: ["judge"],
        select: { judge: true },
        orderBy: { judge: "asc" },
      })
    )
      .map((l) => l.judge)
      .filter((j) => !withRun.has(j));
    if (noRun.includes(ref))
      throw new AppError(
        "not_found",
        `judge "${ref}" has no run: its labels were ${ref.startsWith("transfer:") ? "derived by label transfer" : "imported from a file"}; write them with: npx assessor judge export ${ref}`,
      );
    const others = noRun.length
      ? `; judges without a run (judge export NAME writes their labels): ${noRun.join(", ")}`
      : "";
    throw new AppError(
      "not_found",
      runs.length
        ? `no judge run "${ref}" in this project; runs: ${runs.map((x) => `${x.id} (${x.judge})`).join(", ")}${others}`
        : say`no judge run "${ref}" in this project; ${action("startJudge")}${others}`,
    );
  }
  return found;
}

/**
 * Cancelled is final: no later status overwrites it. A worker stopped by the
 * cancel (the page aborts the server's own worker at once, before its heartbeat sees the cancel)
 * would otherwise record "stopped by the user" over it, and the page would offer Resume.
 */
export async function setStatus(
  db: Db,
  runId: number,
  status: TRunStatus,
  stopReason: string | null = null,
): Promise<void> {
  const finished = status === "completed" || status === "cancelled" || status === "stopped";
  await db.judgeRun.updateMany({
    where: { id: runId, status: { not: "cancelled" } },
    data: {
      status,
      stopReason,
      ...(finished ? { finishedAt: now() } : {}),
      ...(status === "running" ? { finishedAt: null } : {}),
    },
  });
}

/** Cancels a run: workers stop at their next beat (finishing what is in flight); pending tasks stay unsent. */
export async function cancelRun(db: Db, runId: number): Promise<void> {
  const r = await db.judgeRun.findUniqueOrThrow({ where: { id: runId } });
  if (r.status === "completed" || r.status === "cancelled")
    throw new AppError("conflict", `run ${runId} (${r.judge}) is already ${r.status}`);
  await setStatus(db, runId, "cancelled", "cancelled by the lead");
}

/** The judge label of each pair and its samples, for export. */
export async function runLabels(
  db: Db,
  runId: number,
): Promise<
  {
    qid: string;
    docid: string;
    grade: number | null;
    injection: boolean;
    samples: {
      sample: number;
      status: string;
      grade: number | null;
      raw: string | null;
      error: string | null;
      cached: boolean;
    }[];
  }[]
> {
  const tasks = await db.judgeTask.findMany({
    where: { runId },
    orderBy: [{ queryId: "asc" }, { chunkId: "asc" }, { sample: "asc" }],
  });
  const qids = new Map(
    (
      await db.query.findMany({
        where: { id: { in: [...new Set(tasks.map((t) => t.queryId))] } },
        select: { id: true, externalId: true },
      })
    ).map((q) => [q.id, q.externalId]),
  );
  const docids = new Map(
    (
      await db.chunk.findMany({
        where: { id: { in: [...new Set(tasks.map((t) => t.chunkId))] } },
        select: { id: true, externalId: true },
      })
    ).map((c) => [c.id, c.externalId]),
  );
  const pairs = new Map<
    string,
    {
      qid: string;
      docid: string;
      grade: number | null;
      injection: boolean;
      samples: {
        sample: number;
        status: string;
        grade: number | null;
        raw: string | null;
        error: string | null;
        cached: boolean;
      }[];
    }
  >();
  for (const t of tasks) {
    const key = `${t.queryId}:${t.chunkId}`;
    let p = pairs.get(key);
    if (!p) {
      p = {
        qid: qids.get(t.queryId) ?? String(t.queryId),
        docid: docids.get(t.chunkId) ?? String(t.chunkId),
        grade: null,
        injection: false,
        samples: [],
      };
      pairs.set(key, p);
    }
    if (t.injection) p.injection = true;
    p.samples.push({
      sample: t.sample,
      status: t.status,
      grade: t.grade,
      raw: t.raw,
      error: t.error,
      cached: t.cached,
    });
  }
  const out = [...pairs.values()];
  for (const p of out) {
    const finished = p.samples.every((s) => s.status === "done" || s.status === "failed");
    p.grade = finished
      ? samplesGrade(p.samples.filter((s) => s.status === "done" && s.grade !== null).map((s) => s.grade as number))
      : null;
  }
  return out.sort((a, b) =>
    a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : a.docid < b.docid ? -1 : a.docid > b.docid ? 1 : 0,
  );
}

/** Puts failed tasks back to pending (resume --retry-failed); `table`: the run's kind's (kinds.ts `taskTable`). */
export async function requeueFailed(db: Db, runId: number, table: TTaskTable = "JudgeTask"): Promise<number> {
  return sqlTransaction(db, function* () {
    return yield* run(
      `UPDATE "${table}" SET "status" = 'pending', "error" = NULL WHERE "runId" = ? AND "status" = 'failed'`,
      [runId],
    );
  });
}

export async function runOrThrow(db: Db, runId: number): Promise<JudgeRun> {
  const r = await db.judgeRun.findUnique({ where: { id: runId } });
  if (!r) throw new AppError("not_found", `no judge run ${runId}`);
  return r;
}

/** Each pair's sample grades (null where a sample is not graded), for test–retest agreement. */
export async function sampleGrades(
  db: Db,
  runId: number,
  samples: number,
): Promise<{ queryId: number; chunkId: number; grades: (number | null)[] }[]> {
  const tasks = await db.judgeTask.findMany({
    where: { runId },
    select: { queryId: true, chunkId: true, sample: true, status: true, grade: true },
  });
  const pairs = new Map<string, { queryId: number; chunkId: number; grades: (number | null)[] }>();
  for (const t of tasks) {
    const key = `${t.queryId}:${t.chunkId}`;
    let p = pairs.get(key);
    if (!p)
      pairs.set(
        key,
        (p = { queryId: t.queryId, chunkId: t.chunkId, grades: Array.from({ length: samples }, () => null) }),
      );
    if (t.status === "done" && t.grade !== null && t.sample < samples) p.grades[t.sample] = t.grade;
  }
  return [...pairs.values()];
}
