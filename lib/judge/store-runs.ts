/**
 * Judge runs as a whole (store.ts): their status, counts and labels, finding a run, cancelling
 * it, and requeueing its failed tasks.
 */
import type { Db, JudgeRun } from "../db/client.ts";
import { exec, provider, sqlTransaction } from "../db/sql.ts";
import { intId } from "../bounds.ts";
import { AppError } from "../errors.ts";
import { samplesGrade } from "./parse.ts";
import { action, say } from "../terms.ts";
import { taskBuilder, taskTable, type TTaskTable } from "./task-table.ts";

export type TRunStatus = "queued" | "running" | "stopped" | "cancelled" | "completed";

const now = () => new Date();

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
  return withStatusCounts(byStatus, { cached, pairs, labelled, flagged });
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
  return withStatusCounts(byStatus, { cached, pairs, labelled, flagged });
}

/** The counts with the tasks tallied by status (`byStatus`: a groupBy on status), `total` all of them. */
function withStatusCounts(
  byStatus: { status: string; _count: { _all: number } }[],
  rest: Pick<TRunCounts, "cached" | "pairs" | "labelled" | "flagged">,
): TRunCounts {
  const c = { total: 0, pending: 0, running: 0, done: 0, failed: 0, ...rest };
  for (const s of byStatus) {
    const n = s._count._all;
    c.total += n;
    if (s.status === "pending" || s.status === "running" || s.status === "done" || s.status === "failed")
      c[s.status] += n;
  }
  return c;
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

/** A pair of a run: its label (the median of its graded samples once all are finished) and its samples. */
export type TRunLabel = {
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
};

/** The judge label of each pair and its samples, for export. */
export async function runLabels(db: Db, runId: number): Promise<TRunLabel[]> {
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
  const pairs = new Map<string, TRunLabel>();
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
    const p = yield* provider();
    return yield* exec(() =>
      taskBuilder(p)
        .updateTable(table)
        .set({ status: "pending", error: null })
        .where("runId", "=", runId)
        .where("status", "=", "failed"),
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
