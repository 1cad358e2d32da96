import "server-only";
import type { Db } from "../db/client.ts";
import { cachedStatement } from "../db/query.ts";
import { rowsOf, sqlRead } from "../db/sql.ts";
import { OWN_CHECK_JUDGEMENT, OWN_JUDGEMENT } from "./own-grades.ts";
import { firstOpen, isoOrNull, KEY_COLS, mine, num, toKey, walkQueue, type TKey } from "./queue-walk.ts";

/**
 * The annotator's queue, a page at a time, per project (split from lib/annotate/view.ts, whose rule
 * holds here too: annotator data only, every WHERE names the user's own assignments, columns named
 * explicitly; nothing about runs, ranks, scores, judge or reference labels, or other users' grades).
 * Order: the project's questions in import order (query id), within a question the annotator's own
 * random `Assignment.orderKey`. Positions and counts come from the database, so the client never
 * needs the whole queue. This module is the queue's entry point: the page (annotatorQueuePage) is
 * here, the walk in queue order in queue-walk.ts, the project picker in queue-projects.ts.
 */

export { annotatorProjects, openingProject, type TAnnotatorProjects, type TQueueProject } from "./queue-projects.ts";

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

/**
 * Questions of the project with an item of this user, and how many of them come before question
 * `beforeQuery`: one pass, one probe per question, not one per item.
 */
const questionCountsOf = cachedStatement((k, v: { beforeQuery: number; projectId: number; userId: string }) =>
  k
    .selectFrom("Query as q")
    .select((eb) => [
      eb.fn.countAll().as("n"),
      eb.fn
        .coalesce(
          eb.fn.sum(eb.case().when("q.id", "<", v.beforeQuery).then(eb.lit(1)).else(eb.lit(0)).end()),
          eb.lit(0),
        )
        .as("before"),
    ])
    .where("q.projectId", "=", v.projectId)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("PoolItem as p")
          .crossJoin("Assignment as a")
          .select((s) => s.lit(1).as("one"))
          .whereRef("p.projectId", "=", "q.projectId")
          .whereRef("p.queryId", "=", "q.id")
          .whereRef("a.poolItemId", "=", "p.id")
          .where("a.userId", "=", v.userId),
      ),
    ),
);
function* questionCounts(userId: string, projectId: number, beforeQuery: number) {
  const rows = yield* rowsOf(questionCountsOf({ beforeQuery, projectId, userId }));
  return { questions: num(rows[0]?.n ?? 0), before: num(rows[0]?.before ?? 0) };
}

const projectHead = cachedStatement((k, v: { projectId: number }) =>
  k.selectFrom("Project").select(["id", "name", "gradingClosedAt as closed"]).where("id", "=", v.projectId),
);
/** The place of the user's item `cursor` in the project (none when it is not theirs). */
const cursorKey = cachedStatement((k, v: { userId: string; projectId: number; cursor: string }) =>
  mine(k, v.userId, v.projectId).select(KEY_COLS).where("p.id", "=", v.cursor),
);
/** How many of the user's items of question `queryId` come before the item at (`orderKey`, `aid`). */
const itemsBefore = cachedStatement(
  (k, v: { userId: string; projectId: number; queryId: number; orderKey: number; aid: number }) =>
    mine(k, v.userId, v.projectId)
      .select((eb) => eb.fn.countAll().as("n"))
      .where("p.queryId", "=", v.queryId)
      .where((eb) => eb(eb.refTuple("a.orderKey", "a.id"), "<", eb.tuple(v.orderKey, v.aid))),
);
/** The page's questions: text, and the user's items and grades in each (own-grades.ts). */
const questionsOfPage = cachedStatement((k, v: { userId: string; projectId: number; queryIds: readonly number[] }) =>
  k
    .selectFrom("PoolItem as p")
    .crossJoin("Assignment as a")
    .innerJoin("Query as q", "q.id", "p.queryId")
    .leftJoin("Judgement as j", (join) => join.on(OWN_JUDGEMENT))
    .leftJoin("CheckJudgement as cj", (join) => join.on(OWN_CHECK_JUDGEMENT))
    .select((eb) => [
      "p.queryId as queryId",
      "q.text as text",
      eb.fn.countAll().as("total"),
      eb.fn.count(eb.fn.coalesce("j.id", "cj.id")).as("done"),
    ])
    .whereRef("a.poolItemId", "=", "p.id")
    .where("a.userId", "=", v.userId)
    .where("p.projectId", "=", v.projectId)
    .where("p.queryId", "in", v.queryIds)
    .groupBy(["p.queryId", "q.text"]),
);

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
    const project = (yield* rowsOf(projectHead({ projectId })))[0];
    if (!project) return null;

    let anchor: TKey | undefined;
    const cursor = opts.after ?? opts.before;
    if (cursor !== undefined) {
      const row = (yield* rowsOf(cursorKey({ userId, projectId, cursor })))[0];
      if (!row) return null;
      anchor = toKey(row);
    } else {
      // All graded: the last page, which ends at the last item (the page shows its end card; u goes back to that item).
      const first =
        (yield* firstOpen(userId, projectId)) ??
        (yield* walkQueue(userId, projectId, { cmp: "<", done: false, open: false, limit })).at(-1);
      if (!first) return null;
      anchor = toKey(first);
    }

    // The page: limit + 1 rows, to know whether more follow in that direction.
    const backwards = opts.before !== undefined;
    const cmp = backwards ? "<" : cursor !== undefined ? ">" : ">=";
    const rows = yield* walkQueue(userId, projectId, { key: anchor, cmp, done: true, open: false, limit: limit + 1 });
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
    const { queryId, orderKey, aid } = first;
    const iBefore = num((yield* rowsOf(itemsBefore({ userId, projectId, queryId, orderKey, aid })))[0]?.n ?? 0);
    const queryIds = [...new Set(page.map((r) => num(r.queryId)))];
    const perQuestion = yield* rowsOf(questionsOfPage({ userId, projectId, queryIds }));
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
