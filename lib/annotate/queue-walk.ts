import "server-only";
import { cachedShapes, type TBuilder } from "../db/query.ts";
import { rowsOf, sqlDate } from "../db/sql.ts";
import { GRADED, gradeTable, latestGrade, NOT_GRADED } from "./own-grades.ts";

/**
 * Walking the annotator's queue in order (split from lib/annotate/queue.ts, whose rule holds here
 * too: annotator data only, every WHERE names the user's own assignments): an item's place (its
 * key), the queue read a batch of questions at a time from a key on (walkQueue), and where the
 * annotator left off (firstOpen). Read by the page (queue.ts) and the project picker (queue-projects.ts).
 */

export const num = (v: unknown): number => Number(v);
export const isoOrNull = (v: unknown): string | null => sqlDate(v)?.toISOString() ?? null;

/** Up to `limit` of the project's questions by id from the start (`back`: from the end). */
const firstQuestions = cachedShapes((k, v: { projectId: number; limit: number }, s: { back: boolean }) =>
  k
    .selectFrom("Query as q")
    .select("q.id as id")
    .where("q.projectId", "=", v.projectId)
    .orderBy("q.id", s.back ? "desc" : "asc")
    .limit(v.limit),
);
/** Up to `limit` of the project's questions by id after question `edge` (`back`: before it). */
export const nextQuestions = cachedShapes(
  (k, v: { projectId: number; edge: number; limit: number }, s: { back: boolean }) =>
    k
      .selectFrom("Query as q")
      .select("q.id as id")
      .where("q.projectId", "=", v.projectId)
      .where("q.id", s.back ? "<" : ">", v.edge)
      .orderBy("q.id", s.back ? "desc" : "asc")
      .limit(v.limit),
);

/** Assignments of the user in the project, pool items first. */
export const mine = (k: TBuilder, userId: string, projectId: number) =>
  k
    .selectFrom("PoolItem as p")
    .crossJoin("Assignment as a")
    .whereRef("a.poolItemId", "=", "p.id")
    .where("a.userId", "=", userId)
    .where("p.projectId", "=", projectId);
/** An item's place in the queue: its question, then the user's order key and the assignment id. */
export const KEY_COLS = ["a.id as aid", "p.queryId as queryId", "a.orderKey as orderKey"] as const;
type TKeyRow = { aid: number; queryId: number; orderKey: number };
export type TKey = TKeyRow;
export const toKey = (r: TKeyRow): TKey => ({ aid: num(r.aid), queryId: num(r.queryId), orderKey: num(r.orderKey) });
/** A row of walkQueue: the item, its place, and (`done` shape) whether the user graded it. */
type TQueueRow = TKeyRow & { id: string; done?: number };
/** walkQueue's statements differ by: `done` (select whether graded), `open` (ungraded items only), the direction. */
type TWalkShape = { done: boolean; open: boolean; back: boolean };
/** The items of `mine` in queue order, with walkQueue's columns and conditions. */
const walkSelect = (k: TBuilder, userId: string, projectId: number, s: TWalkShape) =>
  mine(k, userId, projectId)
    .select(["a.poolItemId as id", ...KEY_COLS])
    .$if(s.done, (qb) => qb.select((eb) => eb.case().when(GRADED).then(eb.lit(1)).else(eb.lit(0)).end().as("done")));
/** The items of the key's question from the key on (`cmp`). */
const walkFromKey = cachedShapes(
  (
    k,
    v: { userId: string; projectId: number; queryId: number; orderKey: number; aid: number; limit: number },
    s: TWalkShape & { cmp: ">" | ">=" | "<" },
  ) =>
    walkSelect(k, v.userId, v.projectId, s)
      .where("p.queryId", "=", v.queryId)
      .$if(s.open, (qb) => qb.where(NOT_GRADED))
      .where((eb) => eb(eb.refTuple("a.orderKey", "a.id"), s.cmp, eb.tuple(v.orderKey, v.aid)))
      .orderBy("a.orderKey", s.back ? "desc" : "asc")
      .orderBy("a.id", s.back ? "desc" : "asc")
      .limit(v.limit),
);
/** The items of a batch of questions. */
const walkQuestions = cachedShapes(
  (k, v: { userId: string; projectId: number; ids: readonly number[]; limit: number }, s: TWalkShape) =>
    walkSelect(k, v.userId, v.projectId, s)
      .where("p.queryId", "in", v.ids)
      .$if(s.open, (qb) => qb.where(NOT_GRADED))
      .orderBy("p.queryId", s.back ? "desc" : "asc")
      .orderBy("a.orderKey", s.back ? "desc" : "asc")
      .orderBy("a.id", s.back ? "desc" : "asc")
      .limit(v.limit),
);
/** Questions read per step of `walkQueue`: the first step reads few, each next step twice as many, up to the last. */
const QUESTION_STEPS = { first: 4, max: 256 };

/**
 * Up to `limit` rows of the user's queue in the project in queue order (`cmp` ">" / ">=": from
 * `key` on, "<": backwards from it; no key: from the start); `open`: ungraded items only; `done`:
 * each row says whether it is graded. The statements are cached per shape (lib/db/query.ts
 * cachedShapes: these flags, the direction, the number of questions named). The queue is walked
 * a batch of questions at a time (the key's own question, then the next questions by id, in
 * growing batches), each statement naming its questions (`p."queryId" = ?` / `IN (…)`), so it reads the PoolItem (projectId, queryId) index and sorts only those questions' items: the
 * work is bounded by what the page needs, whatever plan the database would choose for one query
 * over the whole queue (SQLite without ANALYZE statistics scanned and sorted the whole pool).
 */
export function* walkQueue(
  userId: string,
  projectId: number,
  opts: { key?: TKey; cmp: ">" | ">=" | "<"; done: boolean; open: boolean; limit: number },
) {
  const back = opts.cmp === "<";
  const shape: TWalkShape = { done: opts.done, open: opts.open, back };
  const rows: TQueueRow[] = [];
  if (opts.key) {
    const { queryId, orderKey, aid } = opts.key;
    rows.push(
      ...(yield* rowsOf(
        walkFromKey({ userId, projectId, queryId, orderKey, aid, limit: opts.limit }, { ...shape, cmp: opts.cmp }),
      )),
    );
  }
  let edge = opts.key?.queryId;
  for (let batch = QUESTION_STEPS.first; rows.length < opts.limit; batch = Math.min(batch * 2, QUESTION_STEPS.max)) {
    const ids = (yield* rowsOf(
      edge === undefined
        ? firstQuestions({ projectId, limit: batch }, { back })
        : nextQuestions({ projectId, edge, limit: batch }, { back }),
    )).map((r) => num(r.id));
    if (ids.length === 0) break;
    rows.push(...(yield* rowsOf(walkQuestions({ userId, projectId, ids, limit: opts.limit - rows.length }, shape))));
    if (ids.length < batch) break;
    edge = ids[ids.length - 1];
  }
  return rows;
}

/** The user's latest grade in the project (in `table`, own-grades.ts latestGrade) with its item's place. */
const latestGradeKey = cachedShapes(
  (k, v: { userId: string; projectId: number }, s: { table: "Judgement" | "CheckJudgement" }) =>
    k
      .selectFrom(gradeTable(s.table, "j"))
      .crossJoin("PoolItem as p")
      .crossJoin("Assignment as a")
      .select([...KEY_COLS, "j.createdAt as at"])
      .where("j.userId", "=", v.userId)
      .whereRef("p.id", "=", "j.poolItemId")
      .where("p.projectId", "=", v.projectId)
      .whereRef("a.poolItemId", "=", "j.poolItemId")
      .whereRef("a.userId", "=", "j.userId")
      .orderBy("j.id", "desc")
      .limit(1),
);

/**
 * Where the annotator left off: the first ungraded item after the item they last graded (their
 * latest judgement in the project, by creation), else the first ungraded item from the start. An
 * annotator works in queue order, so this reads a few rows instead of every graded item.
 */
export function* firstOpen(userId: string, projectId: number) {
  // The user's judgements newest first (Judgement userId index, whose entries are in id order; CROSS JOIN keeps SQLite on it), the first one in this project.
  const last = yield* latestGrade((table) => latestGradeKey({ userId, projectId }, { table }));
  if (last) {
    const after = (yield* walkQueue(userId, projectId, {
      key: toKey(last),
      cmp: ">",
      done: false,
      open: true,
      limit: 1,
    }))[0];
    if (after) return after;
  }
  return (yield* walkQueue(userId, projectId, { cmp: ">", done: false, open: true, limit: 1 }))[0];
}
