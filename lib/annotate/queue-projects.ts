import "server-only";
import type { Db } from "../db/client.ts";
import { cachedShapes, cachedStatement, type TBuilder } from "../db/query.ts";
import { provider, rowsOf, sqlRead } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { gradeTable, latestGrade, OWN_CHECK_JUDGEMENT, OWN_JUDGEMENT } from "./own-grades.ts";
import { firstOpen, isoOrNull, nextQuestions, num } from "./queue-walk.ts";

/**
 * The projects the annotator has items in, for the picker, and the one to open (split from
 * lib/annotate/queue.ts, whose rule holds here too: annotator data only, every WHERE names the
 * user's own assignments, columns named explicitly).
 */

/** A project the annotator has items in: counts for the picker, and when they last graded in it (ISO time). */
export type TQueueProject = {
  id: number;
  name: string;
  done: number;
  total: number;
  questions: number;
  lastGradedAt: string | null;
};
export type TAnnotatorProjects = {
  projects: TQueueProject[];
  /** the project to open: most recent grading among those with work left, else the first with work, else the first */ current:
    number | null;
};

/** Questions counted per step of `annotatorProjects`: adjusted so that a step reads for about `target` ms. */
const COUNT_STEPS = { first: 8, max: 4096, targetMs: 25 };
/** The user's items of the pool with their own grades (own-grades.ts), and the counts over them. */
const countFrom = (k: TBuilder) =>
  k
    .selectFrom("PoolItem as p")
    .crossJoin("Assignment as a")
    .leftJoin("Judgement as j", (join) => join.on(OWN_JUDGEMENT))
    .leftJoin("CheckJudgement as cj", (join) => join.on(OWN_CHECK_JUDGEMENT))
    .select((eb) => [
      eb.fn.countAll().as("total"),
      eb.fn.count(eb.fn.coalesce("j.id", "cj.id")).as("done"),
      eb.fn.count("p.queryId").distinct().as("questions"),
      eb.fn.max(eb.fn.coalesce("j.updatedAt", "cj.updatedAt")).as("last"),
    ]);
/** PostgreSQL: the counts of every project of the user in one aggregate. */
const projectCounts = cachedStatement((k, v: { userId: string }) =>
  countFrom(k)
    .innerJoin("Project as pr", "pr.id", "p.projectId")
    .select(["p.projectId as id", "pr.name as name"])
    .whereRef("a.poolItemId", "=", "p.id")
    .where("a.userId", "=", v.userId)
    .groupBy(["p.projectId", "pr.name"])
    .orderBy("p.projectId"),
);
/** SQLite: the counts of a range of the project's questions (`edge` < query id ≤ `upTo`). */
const rangeCounts = cachedStatement((k, v: { projectId: number; edge: number; upTo: number; userId: string }) =>
  countFrom(k)
    .where("p.projectId", "=", v.projectId)
    .where("p.queryId", ">", v.edge)
    .where("p.queryId", "<=", v.upTo)
    .whereRef("a.poolItemId", "=", "p.id")
    .where("a.userId", "=", v.userId),
);
/** The projects the user has an item in, by id. */
const projectsOf = cachedStatement((k, v: { userId: string }) =>
  k
    .selectFrom("Project as pr")
    .select(["pr.id as id", "pr.name as name", "pr.gradingClosedAt as closed"])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("PoolItem as p")
          .crossJoin("Assignment as a")
          .select((s) => s.lit(1).as("one"))
          .whereRef("p.projectId", "=", "pr.id")
          .whereRef("a.poolItemId", "=", "p.id")
          .where("a.userId", "=", v.userId),
      ),
    )
    .orderBy("pr.id"),
);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The projects the annotator has items in, with done/total and question counts over their own
 * assignments and judgements, and the one to open. Counting touches every item of theirs (no index
 * leads from a user to a project's items without the pool), so it is done a range of questions at
 * a time on SQLite, each range a read of its own (about 25 ms), giving the event loop back in
 * between: better-sqlite3 reads are synchronous, and one count of a 100,000-item queue held every
 * other request of the server for seconds. PostgreSQL counts in one aggregate (its reads are
 * asynchronous; ranges there cost a scan of the user's assignments each). The ranges are separate reads, so a grade written meanwhile may be
 * counted or not (the counts are progress shown in the picker). `signal`: the request's, which
 * stops the count between ranges once the client has gone.
 */
export async function annotatorProjects(db: Db, userId: string, signal?: AbortSignal): Promise<TAnnotatorProjects> {
  const first = await sqlRead(db, function* () {
    // PostgreSQL: one aggregate (hash joins, and its reads do not hold the event loop).
    if ((yield* provider()) === "postgres")
      return {
        counted: true as const,
        rows: yield* rowsOf(projectCounts({ userId })),
      };
    return { counted: false as const, rows: yield* rowsOf(projectsOf({ userId })) };
  });
  if (first.counted) {
    const projects = first.rows.map((r) => ({
      id: num(r.id),
      name: r.name,
      total: num(r.total),
      done: num(r.done),
      questions: num(r.questions),
      lastGradedAt: isoOrNull(r.last),
    }));
    return { projects, current: await openingProject(db, userId) };
  }
  const projects: TQueueProject[] = [];
  for (const pr of first.rows) {
    const projectId = num(pr.id);
    const sum = { total: 0, done: 0, questions: 0, last: null as string | null };
    let edge = 0;
    for (let batch = COUNT_STEPS.first; ;) {
      const t0 = performance.now();
      const step = await sqlRead(db, function* () {
        const ids = yield* rowsOf(nextQuestions({ projectId, edge, limit: batch }, { back: false }));
        if (ids.length === 0) return null;
        const upTo = num(ids[ids.length - 1].id);
        const row = (yield* rowsOf(rangeCounts({ projectId, edge, upTo, userId })))[0];
        return { upTo, more: ids.length === batch, row };
      });
      if (!step) break;
      sum.total += num(step.row?.total ?? 0);
      sum.done += num(step.row?.done ?? 0);
      sum.questions += num(step.row?.questions ?? 0);
      const last = isoOrNull(step.row?.last);
      if (last && (!sum.last || last > sum.last)) sum.last = last;
      if (!step.more) break;
      edge = step.upTo;
      const ms = performance.now() - t0;
      batch =
        ms < COUNT_STEPS.targetMs / 2
          ? Math.min(batch * 2, COUNT_STEPS.max)
          : ms > COUNT_STEPS.targetMs * 2
            ? Math.max(1, Math.floor(batch / 2))
            : batch;
      await nextTurn();
      // The asker is gone (a reload, another page): the rest of the count would only hold up the requests that follow.
      if (signal?.aborted) throw new AppError("unavailable", "the request was cancelled");
    }
    projects.push({
      id: projectId,
      name: pr.name,
      total: sum.total,
      done: sum.done,
      questions: sum.questions,
      lastGradedAt: sum.last,
    });
  }
  return { projects, current: await openingProject(db, userId) };
}

/**
 * The project to open, without counting the whole queue: the project of the annotator's latest
 * grade when it has an ungraded item of theirs left, else the first project (by id) with one, else
 * the first with any item of theirs; null when nothing is assigned to them. Projects whose grading
 * is closed are only opened when no other has an ungraded item.
 */
export async function openingProject(db: Db, userId: string): Promise<number | null> {
  return sqlRead(db, function* () {
    const latest = yield* latestGrade((table) => latestGradeProject({ userId }, { table }));
    const mine = yield* rowsOf(projectsOf({ userId }));
    const mineIn = mine.map((r) => num(r.id));
    // Projects whose grading was closed have nothing to grade (lib/projects/grading.ts).
    const open = new Set(mine.filter((r) => r.closed === null).map((r) => num(r.id)));
    const candidates = (
      latest ? [num(latest.projectId), ...mineIn.filter((id) => id !== num(latest.projectId))] : mineIn
    ).filter((id) => open.has(id));
    for (const projectId of candidates) if (yield* firstOpen(userId, projectId)) return projectId;
    return mineIn[0] ?? null;
  });
}

/** The user's latest grade (in `table`, own-grades.ts latestGrade) with its project. */
const latestGradeProject = cachedShapes((k, v: { userId: string }, s: { table: "Judgement" | "CheckJudgement" }) =>
  k
    .selectFrom(gradeTable(s.table, "j"))
    .crossJoin("PoolItem as p")
    .select(["p.projectId as projectId", "j.createdAt as at"])
    .where("j.userId", "=", v.userId)
    .whereRef("p.id", "=", "j.poolItemId")
    .orderBy("j.id", "desc")
    .limit(1),
);
