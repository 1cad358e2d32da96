/**
 * `assessor judge reparse RUN [--apply]`: reads a run's stored answers again with the current
 * parser (lib/judge/parse.ts), so a run made before a parser fix is corrected without sending
 * anything to the model again.
 *
 * Every finished task with a stored answer (JudgeTask.raw) is parsed as the runner would have
 * parsed it (`storedAnswer` recovers the finish reason and the refusal field from the stored
 * error). The report lists each task whose outcome changes: a grade that changes, a done task that
 * becomes failed, a failed one that becomes done. Failed tasks without a stored answer (the
 * endpoint refused the request) and pending or running tasks are left alone. The injection flag is
 * computed again from the chunk's text too (runs made before the flag existed get it). Runs made
 * before the fix did not store the finish reason: there an answer cut inside its reasoning becomes
 * failed as "no final answer" rather than "truncated" (the outcome is the same: failed, raw kept).
 *
 * With `apply`, in one transaction: the changed tasks' status, grade and error, every task's
 * injection flag, and the run's label of each touched pair, exactly as `recordResults` computes it
 * (store.ts): once all the pair's samples are finished, the median of its graded samples rounded
 * down (`samplesGrade`), the single sample's final answer as the rationale; a pair left with no
 * graded sample loses its label. An ImportRecord marks the change, so the dashboard reloads the
 * judge's labels. Refused while a worker holds the run (stop it first), since a worker writes
 * labels too. Cached answers are not rewritten: the runner parses a cached answer again on use.
 */
import type { Db, JudgeRun } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { looksLikeInjection } from "./injection.ts";
import { samplesGrade, parseAnswer, storedAnswer, storedError } from "./parse.ts";
import { labelRationale, liveWorkers } from "./store.ts";
import { action, field, say } from "../terms.ts";

export type TReparseChange = {
  taskId: number;
  qid: string;
  docid: string;
  sample: number;
  before: { status: string; grade: number | null };
  after: { status: "done" | "failed"; grade: number | null; error: string | null };
};
export type TLabelChange = { qid: string; docid: string; before: number | null; after: number | null };
export type TReparseReport = {
  runId: number;
  judge: string;
  /** Finished tasks with a stored answer, read again. */
  read: number;
  changes: TReparseChange[];
  /** Counts by kind of change. */
  regraded: number;
  becameFailed: number;
  becameDone: number;
  /** The run's labels (one per pair) that change. */
  labels: TLabelChange[];
  /** Pairs whose injection flag changes. */
  injection: { flagged: number; changed: number };
  applied: boolean;
};

type TTask = {
  id: number;
  queryId: number;
  chunkId: number;
  sample: number;
  status: string;
  grade: number | null;
  raw: string | null;
  error: string | null;
  injection: boolean;
};

export async function reparseRun(db: Db, run: JudgeRun, opts: { apply?: boolean } = {}): Promise<TReparseReport> {
  if (run.target === "answers")
    throw new AppError(
      "bad_input",
      `run ${run.id} (${run.judge}) judged answers: reparse reads chunk runs only (an answer run's stored answers are in judge export --format jsonl)`,
    );
  if (opts.apply && (await liveWorkers(db, run.id)) > 0)
    throw new AppError(
      "conflict",
      say`run ${run.id} (${run.judge}) is being judged by a worker right now: stop it (${action("cancelJudge")}), then reparse with ${field("apply")}`,
    );
  const tasks: TTask[] = await db.judgeTask.findMany({
    where: { runId: run.id },
    select: {
      id: true,
      queryId: true,
      chunkId: true,
      sample: true,
      status: true,
      grade: true,
      raw: true,
      error: true,
      injection: true,
    },
    orderBy: [{ queryId: "asc" }, { chunkId: "asc" }, { sample: "asc" }],
  });
  const [queries, chunks] = await Promise.all([
    db.query.findMany({
      where: { id: { in: [...new Set(tasks.map((t) => t.queryId))] } },
      select: { id: true, externalId: true },
    }),
    db.chunk.findMany({
      where: { id: { in: [...new Set(tasks.map((t) => t.chunkId))] } },
      select: { id: true, externalId: true, text: true },
    }),
  ]);
  const qid = new Map(queries.map((q) => [q.id, q.externalId]));
  const chunk = new Map(chunks.map((c) => [c.id, c]));

  let read = 0;
  const changes: TReparseChange[] = [];
  const after = new Map<number, TTask>();
  for (const t of tasks) {
    const flagged = looksLikeInjection(chunk.get(t.chunkId)?.text ?? "");
    let next: TTask = { ...t, injection: flagged };
    if ((t.status === "done" || t.status === "failed") && t.raw !== null) {
      read++;
      const parsed = parseAnswer(storedAnswer(t.raw, t.status === "failed" ? t.error : null));
      const status = parsed.grade !== null ? "done" : "failed";
      if (status !== t.status || parsed.grade !== t.grade) {
        const error = parsed.grade !== null ? null : storedError(parsed);
        next = { ...next, status, grade: parsed.grade, error };
        changes.push({
          taskId: t.id,
          qid: qid.get(t.queryId) ?? String(t.queryId),
          docid: chunk.get(t.chunkId)?.externalId ?? String(t.chunkId),
          sample: t.sample,
          before: { status: t.status, grade: t.grade },
          after: { status, grade: parsed.grade, error },
        });
      }
    }
    after.set(t.id, next);
  }

  // The run's label per pair, before and after, as recordResults computes it.
  const pairs = new Map<string, { queryId: number; chunkId: number; before: TTask[]; after: TTask[] }>();
  for (const t of tasks) {
    const key = `${t.queryId}:${t.chunkId}`;
    const p = pairs.get(key) ?? { queryId: t.queryId, chunkId: t.chunkId, before: [], after: [] };
    p.before.push(t);
    p.after.push(after.get(t.id) as TTask);
    pairs.set(key, p);
  }
  const labelOf = (samples: TTask[]) =>
    samples.every((s) => s.status === "done" || s.status === "failed")
      ? samplesGrade(samples.filter((s) => s.status === "done" && s.grade !== null).map((s) => s.grade as number))
      : null;
  const stored = new Map(
    (
      await db.judgeLabel.findMany({
        where: { projectId: run.projectId, judge: run.judge },
        select: { queryId: true, chunkId: true, grade: true, injection: true },
      })
    ).map((l) => [`${l.queryId}:${l.chunkId}`, l]),
  );
  const changedPairs = new Set(changes.map((c) => after.get(c.taskId)).map((t) => `${t?.queryId}:${t?.chunkId}`));
  const labels: (TLabelChange & { queryId: number; chunkId: number; rationale: string | null; injection: boolean })[] =
    [];
  let flagged = 0;
  let flagChanged = 0;
  for (const [key, p] of pairs) {
    const injection = p.after.some((t) => t.injection);
    if (injection) flagged++;
    if (injection !== p.before.some((t) => t.injection)) flagChanged++;
    if (!changedPairs.has(key)) continue;
    const before = stored.get(key)?.grade ?? null;
    const grade = labelOf(p.after);
    if (grade === before) continue;
    const single = p.after.find((t) => t.status === "done") ?? null;
    labels.push({
      qid: qid.get(p.queryId) ?? String(p.queryId),
      docid: chunk.get(p.chunkId)?.externalId ?? String(p.chunkId),
      before,
      after: grade,
      queryId: p.queryId,
      chunkId: p.chunkId,
      rationale: labelRationale(run.samples, single?.raw ?? null),
      injection,
    });
  }

  const report: TReparseReport = {
    runId: run.id,
    judge: run.judge,
    read,
    changes,
    regraded: changes.filter((c) => c.before.status === "done" && c.after.status === "done").length,
    becameFailed: changes.filter((c) => c.before.status !== "failed" && c.after.status === "failed").length,
    becameDone: changes.filter((c) => c.before.status === "failed" && c.after.status === "done").length,
    labels: labels.map(({ qid: q, docid, before, after: a }) => ({ qid: q, docid, before, after: a })),
    injection: { flagged, changed: flagChanged },
    applied: false,
  };
  if (!opts.apply || (changes.length === 0 && flagChanged === 0)) return report;

  await db.$transaction(
    async (tx) => {
      for (const c of changes) {
        const t = after.get(c.taskId) as TTask;
        await tx.judgeTask.update({ where: { id: t.id }, data: { status: t.status, grade: t.grade, error: t.error } });
      }
      const flaggedIds = tasks.filter((t) => after.get(t.id)?.injection).map((t) => t.id);
      await tx.judgeTask.updateMany({ where: { runId: run.id }, data: { injection: false } });
      for (let i = 0; i < flaggedIds.length; i += 5000)
        await tx.judgeTask.updateMany({
          where: { id: { in: flaggedIds.slice(i, i + 5000) } },
          data: { injection: true },
        });
      for (const l of labels) {
        const where = {
          projectId_judge_queryId_chunkId: {
            projectId: run.projectId,
            judge: run.judge,
            queryId: l.queryId,
            chunkId: l.chunkId,
          },
        };
        if (l.after === null)
          await tx.judgeLabel.deleteMany({
            where: { projectId: run.projectId, judge: run.judge, queryId: l.queryId, chunkId: l.chunkId },
          });
        else
          await tx.judgeLabel.upsert({
            where,
            create: {
              projectId: run.projectId,
              judge: run.judge,
              queryId: l.queryId,
              chunkId: l.chunkId,
              grade: l.after,
              rationale: l.rationale,
              injection: l.injection,
            },
            update: { grade: l.after, rationale: l.rationale, injection: l.injection },
          });
      }
      // The label's flag follows its pair's tasks, also where the grade stays.
      for (const [key, p] of pairs) {
        const injection = p.after.some((t) => t.injection);
        const s = stored.get(key);
        if (s && s.injection !== injection && !labels.some((l) => l.queryId === p.queryId && l.chunkId === p.chunkId)) {
          await tx.judgeLabel.updateMany({
            where: { projectId: run.projectId, judge: run.judge, queryId: p.queryId, chunkId: p.chunkId },
            data: { injection },
          });
        }
      }
      await tx.importRecord.create({
        data: {
          projectId: run.projectId,
          kind: "judge-reparse",
          fileName: `judge run ${run.id} (${run.judge}) reparsed`,
          sha256: run.templateSha256,
          rows: changes.length,
        },
      });
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  return { ...report, applied: true };
}
