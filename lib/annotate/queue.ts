import "server-only";
import type { Db } from "../db/client.ts";
import { all, provider, sqlDate, sqlRead } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { GRADED, latestGrade, NOT_GRADED, OWN_GRADES } from "./own-grades.ts";

/**
 * The annotator's queue, a page at a time, per project (split from lib/annotate/view.ts, whose rule
 * holds here too: annotator data only, every WHERE names the user's own assignments, columns named
 * explicitly; nothing about runs, ranks, scores, judge or reference labels, or other users' grades).
 * Order: the project's questions in import order (query id), within a question the annotator's own
 * random `Assignment.orderKey`. Positions and counts come from the database, so the client never
 * needs the whole queue.
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
/** A question on a page: its place among the project's questions (1-based) and this annotator's counts in it. */
export type TQueueQuestion = { index: number; text: string; done: number; total: number };
/** An item on a page: `question` is the question's index, `index` the item's place in the question (1-based). */
export type TAnnotatorQueueItem = { id: string; done: boolean; question: number; index: number };
export type TQueuePage = {
  /** `questions`: how many questions of the project have items of this annotator (done/total: annotatorProjects, a heavier read kept off the first item's path). */
  project: { id: number; name: string; questions: number; gradingClosedAt: string | null } | null;
  items: TAnnotatorQueueItem[];
  questions: TQueueQuestion[];
  /** Whether the queue has items before the first and after the last item of this page. */
  hasBefore: boolean;
  hasAfter: boolean;
};

/** Items per queue page: `ASSESSOR_QUEUE_PAGE` (1–200), 50 by default. */
export function queuePageSize(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.ASSESSOR_QUEUE_PAGE);
  return Number.isInteger(n) && n >= 1 && n <= MAX_QUEUE_PAGE ? n : 50;
}
export const MAX_QUEUE_PAGE = 200;

const num = (v: unknown): number => Number(v);
const isoOrNull = (v: unknown): string | null => sqlDate(v)?.toISOString() ?? null;

/** Questions counted per step of `annotatorProjects`: adjusted so that a step reads for about `target` ms. */
const COUNT_STEPS = { first: 8, max: 4096, targetMs: 25 };
const COUNT_COLS = `COUNT(*) AS "total", COUNT(COALESCE(j."id", cj."id")) AS "done", COUNT(DISTINCT p."queryId") AS "questions", MAX(COALESCE(j."updatedAt", cj."updatedAt")) AS "last"`;
const COUNT_FROM = `FROM "PoolItem" p CROSS JOIN "Assignment" a ${OWN_GRADES}`;
type TCountRow = { total: unknown; done: unknown; questions: unknown; last: unknown };
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
        rows: yield* all<TCountRow & { id: unknown; name: string }>(
          `SELECT p."projectId" AS "id", pr."name" AS "name", ${COUNT_COLS} ${COUNT_FROM} JOIN "Project" pr ON pr."id" = p."projectId" WHERE a."poolItemId" = p."id" AND a."userId" = ? GROUP BY p."projectId", pr."name" ORDER BY p."projectId"`,
          [userId],
        ),
      };
    const mine = yield* all<{ id: unknown; name: string }>(
      `SELECT pr."id" AS "id", pr."name" AS "name" FROM "Project" pr WHERE EXISTS (SELECT 1 FROM "PoolItem" p CROSS JOIN "Assignment" a WHERE p."projectId" = pr."id" AND a."poolItemId" = p."id" AND a."userId" = ?) ORDER BY pr."id"`,
      [userId],
    );
    return { counted: false as const, rows: mine };
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
        const ids = yield* all<{ id: unknown }>(
          `SELECT q."id" AS "id" FROM "Query" q WHERE q."projectId" = ? AND q."id" > ? ORDER BY q."id" LIMIT ?`,
          [projectId, edge, batch],
        );
        if (ids.length === 0) return null;
        const upTo = num(ids[ids.length - 1].id);
        const row = (yield* all<TCountRow>(
          `SELECT ${COUNT_COLS} ${COUNT_FROM} WHERE p."projectId" = ? AND p."queryId" > ? AND p."queryId" <= ? AND a."poolItemId" = p."id" AND a."userId" = ?`,
          [projectId, edge, upTo, userId],
        ))[0];
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
    const latest = yield* latestGrade<{ projectId: unknown }>(
      (t) =>
        `SELECT p."projectId" AS "projectId", j."createdAt" AS "at" FROM "${t}" j CROSS JOIN "PoolItem" p WHERE j."userId" = ? AND p."id" = j."poolItemId" ORDER BY j."id" DESC LIMIT 1`,
      [userId],
    );
    const mine = yield* all<{ id: unknown; closed: unknown }>(
      `SELECT pr."id" AS "id", pr."gradingClosedAt" AS "closed" FROM "Project" pr WHERE EXISTS (SELECT 1 FROM "PoolItem" p CROSS JOIN "Assignment" a WHERE p."projectId" = pr."id" AND a."poolItemId" = p."id" AND a."userId" = ?) ORDER BY pr."id"`,
      [userId],
    );
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

/** Assignments of the user in the project (params: user id, project id), pool items first. */
const MINE = `FROM "PoolItem" p CROSS JOIN "Assignment" a WHERE a."poolItemId" = p."id" AND a."userId" = ? AND p."projectId" = ?`;
const KEY_COLS = `a."id" AS "aid", p."queryId" AS "queryId", a."orderKey" AS "orderKey"`;
type TKeyRow = { aid: unknown; queryId: unknown; orderKey: unknown };
type TKey = { aid: number; queryId: number; orderKey: number };
const toKey = (r: TKeyRow): TKey => ({ aid: num(r.aid), queryId: num(r.queryId), orderKey: num(r.orderKey) });
const marks = (n: number) => Array.from({ length: n }, () => "?").join(", ");
/** Questions read per step of `walkQueue`: the first step reads few, each next step twice as many, up to the last. */
const QUESTION_STEPS = { first: 4, max: 256 };

/**
 * Up to `limit` rows of the user's queue in the project in queue order (`cmp` ">" / ">=": from
 * `key` on, "<": backwards from it; no key: from the start), matching `where` when given. The
 * queue is walked a batch of questions at a time (the key's own question, then the next questions
 * by id, in growing batches), each statement naming its questions (`p."queryId" = ?` / `IN (…)`),
 * so it reads the PoolItem (projectId, queryId) index and sorts only those questions' items: the
 * work is bounded by what the page needs, whatever plan the database would choose for one query
 * over the whole queue (SQLite without ANALYZE statistics scanned and sorted the whole pool).
 */
function* walkQueue<R>(
  userId: string,
  projectId: number,
  cols: string,
  opts: { key?: TKey; cmp: ">" | ">=" | "<"; where?: string; limit: number },
) {
  const back = opts.cmp === "<";
  const dir = back ? "DESC" : "ASC";
  const where = opts.where ? ` AND ${opts.where}` : "";
  const rows: R[] = [];
  if (opts.key) {
    rows.push(
      ...(yield* all<R>(
        `SELECT ${cols} ${MINE} AND p."queryId" = ?${where} AND (a."orderKey", a."id") ${opts.cmp} (?, ?) ORDER BY a."orderKey" ${dir}, a."id" ${dir} LIMIT ?`,
        [userId, projectId, opts.key.queryId, opts.key.orderKey, opts.key.aid, opts.limit],
      )),
    );
  }
  let edge = opts.key?.queryId;
  for (let batch = QUESTION_STEPS.first; rows.length < opts.limit; batch = Math.min(batch * 2, QUESTION_STEPS.max)) {
    const past = edge === undefined ? "" : ` AND q."id" ${back ? "<" : ">"} ?`;
    const ids = (yield* all<{ id: unknown }>(
      `SELECT q."id" AS "id" FROM "Query" q WHERE q."projectId" = ?${past} ORDER BY q."id" ${dir} LIMIT ?`,
      edge === undefined ? [projectId, batch] : [projectId, edge, batch],
    )).map((r) => num(r.id));
    if (ids.length === 0) break;
    rows.push(
      ...(yield* all<R>(
        `SELECT ${cols} ${MINE} AND p."queryId" IN (${marks(ids.length)})${where} ORDER BY p."queryId" ${dir}, a."orderKey" ${dir}, a."id" ${dir} LIMIT ?`,
        [userId, projectId, ...ids, opts.limit - rows.length],
      )),
    );
    if (ids.length < batch) break;
    edge = ids[ids.length - 1];
  }
  return rows;
}

/**
 * Where the annotator left off: the first ungraded item after the item they last graded (their
 * latest judgement in the project, by creation), else the first ungraded item from the start. An
 * annotator works in queue order, so this reads a few rows instead of every graded item.
 */
function* firstOpen(userId: string, projectId: number) {
  // The user's judgements newest first (Judgement userId index, whose entries are in id order; CROSS JOIN keeps SQLite on it), the first one in this project.
  const last = yield* latestGrade<TKeyRow>(
    (t) =>
      `SELECT ${KEY_COLS}, j."createdAt" AS "at" FROM "${t}" j CROSS JOIN "PoolItem" p CROSS JOIN "Assignment" a WHERE j."userId" = ? AND p."id" = j."poolItemId" AND p."projectId" = ? AND a."poolItemId" = j."poolItemId" AND a."userId" = j."userId" ORDER BY j."id" DESC LIMIT 1`,
    [userId, projectId],
  );
  if (last) {
    const after = (yield* walkQueue<TKeyRow>(userId, projectId, KEY_COLS, {
      key: toKey(last),
      cmp: ">",
      where: NOT_GRADED,
      limit: 1,
    }))[0];
    if (after) return after;
  }
  return (yield* walkQueue<TKeyRow>(userId, projectId, KEY_COLS, { cmp: ">", where: NOT_GRADED, limit: 1 }))[0];
}

/**
 * Questions of the project with an item of this user, and how many of them come before question
 * `beforeQuery`: one pass, one probe per question, not one per item.
 */
function* questionCounts(userId: string, projectId: number, beforeQuery: number) {
  const rows = yield* all<{ n: unknown; before: unknown }>(
    `SELECT COUNT(*) AS "n", COALESCE(SUM(CASE WHEN q."id" < ? THEN 1 ELSE 0 END), 0) AS "before" FROM "Query" q WHERE q."projectId" = ? AND EXISTS (SELECT 1 FROM "PoolItem" p CROSS JOIN "Assignment" a WHERE p."projectId" = q."projectId" AND p."queryId" = q."id" AND a."poolItemId" = p."id" AND a."userId" = ?)`,
    [beforeQuery, projectId, userId],
  );
  return { questions: num(rows[0]?.n ?? 0), before: num(rows[0]?.before ?? 0) };
}

/**
 * One page of the annotator's queue in one project. Order (fixed per annotator): the project's
 * questions in import order (query id), within a question the annotator's own random
 * `Assignment.orderKey` (then the assignment id, so the order is total). Cursors are item ids:
 * `after` gives the `limit` items after that item, `before` the `limit` items before it, neither
 * the page that starts where the annotator left off (firstOpen; the last page when all are graded). Positions
 * (question i of n, item j of m) and counts come from the database, so the client never needs the
 * whole queue. Returns null when the project has no item of this user, or the cursor is not theirs.
 */
export async function annotatorQueuePage(
  db: Db,
  userId: string,
  projectId: number,
  opts: { after?: string; before?: string; limit: number },
): Promise<TQueuePage | null> {
  const limit = Math.max(1, Math.min(MAX_QUEUE_PAGE, Math.floor(opts.limit)));
  return sqlRead(db, function* () {
    const project = (yield* all<{ id: unknown; name: string; closed: unknown }>(
      `SELECT "id", "name", "gradingClosedAt" AS "closed" FROM "Project" WHERE "id" = ?`,
      [projectId],
    ))[0];
    if (!project) return null;

    let anchor: TKey | undefined;
    const cursor = opts.after ?? opts.before;
    if (cursor !== undefined) {
      const row = (yield* all<TKeyRow>(`SELECT ${KEY_COLS} ${MINE} AND p."id" = ?`, [userId, projectId, cursor]))[0];
      if (!row) return null;
      anchor = toKey(row);
    } else {
      // All graded: the last page, which ends at the last item (the page shows its end card; u goes back to that item).
      const first =
        (yield* firstOpen(userId, projectId)) ??
        (yield* walkQueue<TKeyRow>(userId, projectId, KEY_COLS, { cmp: "<", limit })).at(-1);
      if (!first) return null;
      anchor = toKey(first);
    }

    // The page: limit + 1 rows, to know whether more follow in that direction.
    const backwards = opts.before !== undefined;
    const cmp = backwards ? "<" : cursor !== undefined ? ">" : ">=";
    const itemCols = `a."poolItemId" AS "id", ${KEY_COLS}, CASE WHEN ${GRADED} THEN 1 ELSE 0 END AS "done"`;
    const rows = yield* walkQueue<{ id: string; aid: unknown; queryId: unknown; orderKey: unknown; done: unknown }>(
      userId,
      projectId,
      itemCols,
      { key: anchor, cmp, limit: limit + 1 },
    );
    const more = rows.length > limit;
    const page = rows.slice(0, limit);
    if (backwards) page.reverse();

    // Positions: the first item's place, then counted along the page.
    const first = page.length > 0 ? toKey(page[0]) : anchor;
    const counts = yield* questionCounts(userId, projectId, first.queryId);
    const head = {
      id: num(project.id),
      name: project.name,
      questions: counts.questions,
      gradingClosedAt: isoOrNull(project.closed),
    };
    if (page.length === 0)
      return { project: head, items: [], questions: [], hasBefore: !backwards, hasAfter: backwards };
    const qBefore = counts.before;
    const iBefore = num(
      (yield* all<{ n: unknown }>(
        `SELECT COUNT(*) AS "n" ${MINE} AND p."queryId" = ? AND (a."orderKey", a."id") < (?, ?)`,
        [userId, projectId, first.queryId, first.orderKey, first.aid],
      ))[0]?.n ?? 0,
    );
    const queryIds = [...new Set(page.map((r) => num(r.queryId)))];
    const perQuestion = yield* all<{ queryId: unknown; text: string; total: unknown; done: unknown }>(
      `SELECT p."queryId" AS "queryId", q."text" AS "text", COUNT(*) AS "total", COUNT(COALESCE(j."id", cj."id")) AS "done"
       FROM "PoolItem" p CROSS JOIN "Assignment" a JOIN "Query" q ON q."id" = p."queryId"
       ${OWN_GRADES}
       WHERE a."poolItemId" = p."id" AND a."userId" = ? AND p."projectId" = ? AND p."queryId" IN (${marks(queryIds.length)}) GROUP BY p."queryId", q."text"`,
      [userId, projectId, ...queryIds],
    );
    const byQuery = new Map(perQuestion.map((r) => [num(r.queryId), r]));
    const questions: TQueueQuestion[] = [];
    const items: TAnnotatorQueueItem[] = [];
    let qIndex = qBefore;
    let iIndex = iBefore;
    let prevQuery: number | null = null;
    for (const r of page) {
      const queryId = num(r.queryId);
      if (queryId !== prevQuery) {
        if (prevQuery !== null) iIndex = 0;
        qIndex += 1;
        prevQuery = queryId;
        const info = byQuery.get(queryId);
        questions.push({
          index: qIndex,
          text: info?.text ?? "",
          done: num(info?.done ?? 0),
          total: num(info?.total ?? 0),
        });
      }
      iIndex += 1;
      items.push({ id: r.id, done: Boolean(num(r.done)), question: qIndex, index: iIndex });
    }
    const atStart = qBefore === 0 && iBefore === 0;
    return {
      project: head,
      items,
      questions,
      hasBefore: backwards ? more : !atStart,
      hasAfter: backwards ? true : more,
    };
  });
}
