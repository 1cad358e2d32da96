import { sql } from "kysely";
import { cachedShapes, cachedStatement } from "../db/query.ts";
import { exec, firstOf, insertedId, type TSqlBody } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import type { TJudgement } from "./schemas.ts";

/**
 * The pieces of a grade submission shared by ordinary items (lib/labels/submit.ts) and hidden
 * check items, and the check items' own write.
 *
 * Why a table of its own: a check item's reference is settled, and the grade an annotator gives it
 * must never reach the reference, the agreement figures, the adjudication queue (nor its grade
 * history, which reads LabelEvent), the exports or the judge comparison. Every one of those reads
 * Judgement (and LabelEvent); writing a check grade to CheckJudgement (and its history to
 * CheckEvent) makes a leak impossible by construction instead of asking each present and future
 * reader to filter a flag. Only the annotator's own views (lib/annotate/) and the check accuracy
 * figures (lib/annotators/checks.ts) read it.
 *
 * Why the annotator cannot tell: the route answers with the same fields (the own label, never a
 * row id); the idempotency keys of both tables are looked up together, so a key reused across an
 * ordinary and a check item is the same conflict; and the check write runs the same number of
 * statements in the same order as the ordinary one (the disputed-item update included, a no-op).
 */

/** The caller's stored judgement, as a submission returns it. */
export type TSubmittedJudgement = {
  id: number;
  poolItemId: string;
  userId: string;
  grade: number;
  startSeconds: number | null;
  endSeconds: number | null;
  notes: string;
  flags: string;
  timeSpentMs: number | null;
  idempotencyKey: string;
};
export type TSubmitResult = { applied: boolean; judgement: TSubmittedJudgement };

export const JUDGEMENT_COLUMNS = [
  "id",
  "poolItemId",
  "userId",
  "grade",
  "startSeconds",
  "endSeconds",
  "notes",
  "flags",
  "timeSpentMs",
  "idempotencyKey",
] as const satisfies readonly (keyof TSubmittedJudgement)[];

/** What a LabelEvent (or CheckEvent) records of a judgement (before / after). */
export function judgementSnapshot(
  j: Pick<TSubmittedJudgement, "grade" | "startSeconds" | "endSeconds" | "notes" | "flags" | "timeSpentMs">,
): string {
  return JSON.stringify({
    grade: j.grade,
    startSeconds: j.startSeconds,
    endSeconds: j.endSeconds,
    notes: j.notes,
    flags: JSON.parse(j.flags) as unknown,
    timeSpentMs: j.timeSpentMs,
  });
}

/** Whether a stored flags column (a JSON array) holds the same flags as `flags`, in any order. */
function sameFlags(stored: string, flags: readonly string[]): boolean {
  const had = JSON.parse(stored) as unknown;
  return Array.isArray(had) && had.length === flags.length && flags.every((f) => had.includes(f));
}

/**
 * The columns a submission writes. Viewing is not grading: a re-submission that changes nothing
 * keeps the time spent the first time instead of overwriting it with the seconds of a second look.
 */
export function submittedFields(before: TSubmittedJudgement | null, data: TJudgement) {
  const unchanged =
    before !== null &&
    before.grade === data.grade &&
    before.startSeconds === data.startSeconds &&
    before.endSeconds === data.endSeconds &&
    before.notes === data.notes &&
    sameFlags(before.flags, data.flags);
  return {
    grade: data.grade,
    startSeconds: data.startSeconds,
    endSeconds: data.endSeconds,
    notes: data.notes,
    flags: JSON.stringify(data.flags),
    timeSpentMs: unchanged ? before.timeSpentMs : data.timeSpentMs,
    idempotencyKey: data.idempotencyKey,
  };
}

/** The values of the columns a submission writes (`submittedFields`), as a cached statement takes them. */
export type TFieldValues = ReturnType<typeof submittedFields>;

/** Just the written columns of `v` (which may carry a statement's other values). */
export const fieldValues = (v: TFieldValues): TFieldValues => ({
  grade: v.grade,
  startSeconds: v.startSeconds,
  endSeconds: v.endSeconds,
  notes: v.notes,
  flags: v.flags,
  timeSpentMs: v.timeSpentMs,
  idempotencyKey: v.idempotencyKey,
});

/**
 * A submission already applied under this key (ordinary or check): the stored judgement with
 * `applied: false`; a key used for something else is a conflict; null for a new key.
 */
export function* storedByKey(userId: string, data: TJudgement): TSqlBody<TSubmitResult | null> {
  const { poolItemId, idempotencyKey } = data;
  const label = yield* firstOf(labelEventByKey({ idempotencyKey }));
  const check = yield* firstOf(checkEventByKey({ idempotencyKey }));
  const event = label ?? (check ? { ...check, kind: "judgement" } : null);
  if (!event) return null;
  if (event.actorId !== userId || event.poolItemId !== poolItemId || event.kind !== "judgement")
    throw new AppError("conflict", "this idempotency key was already used for a different submission");
  const stored = yield* firstOf(
    ownJudgement({ poolItemId, userId }, { table: label ? "Judgement" : "CheckJudgement" }),
  );
  if (!stored) throw new AppError("not_found", "the judgement recorded under this key no longer exists");
  return { applied: false, judgement: stored };
}

/**
 * The grade of a hidden check item: CheckJudgement and CheckEvent only. The item's Judgement rows,
 * its `disputedAt` and its LabelEvents are never touched, so its reference stays what it was.
 */
export function* applyCheck(userId: string, data: TJudgement): TSqlBody<TSubmitResult> {
  const { poolItemId } = data;
  const before: TSubmittedJudgement | undefined = yield* firstOf(
    ownJudgement({ poolItemId, userId }, { table: "CheckJudgement" }),
  );
  const now = new Date();
  const fields = submittedFields(before ?? null, data);
  let id: number;
  if (before) {
    id = before.id;
    yield* exec(updateCheck({ ...fields, updatedAt: now, id }));
  } else id = yield* insertedId(insertCheck({ ...fields, poolItemId, userId, createdAt: now, updatedAt: now }));
  const judgement: TSubmittedJudgement = { id, poolItemId, userId, ...fields };
  // The ordinary write's disputed-item statement, here always a no-op: the same statements run for
  // both kinds of item, so the answer's timing does not tell them apart.
  yield* exec(markDisputed({ now, poolItemId, disputed: 0 }));
  yield* exec(
    insertCheckEvent({
      poolItemId,
      actorId: userId,
      before: before ? judgementSnapshot(before) : null,
      after: judgementSnapshot(judgement),
      idempotencyKey: data.idempotencyKey,
      createdAt: now,
    }),
  );
  return { applied: true, judgement };
}

// The statements, built and compiled once per dialect (lib/db/query.ts cachedStatement).

const labelEventByKey = cachedStatement((k, v: { idempotencyKey: string }) =>
  k.selectFrom("LabelEvent").select(["actorId", "poolItemId", "kind"]).where("idempotencyKey", "=", v.idempotencyKey),
);

const checkEventByKey = cachedStatement((k, v: { idempotencyKey: string }) =>
  k.selectFrom("CheckEvent").select(["actorId", "poolItemId"]).where("idempotencyKey", "=", v.idempotencyKey),
);

const ownJudgement = cachedShapes(
  (k, v: { poolItemId: string; userId: string }, s: { table: "Judgement" | "CheckJudgement" }) =>
    k
      .selectFrom(s.table)
      .select(JUDGEMENT_COLUMNS)
      .where("poolItemId", "=", v.poolItemId)
      .where("userId", "=", v.userId),
);

/** Sets the item's disputedAt once, when `disputed` is 1 (a no-op otherwise, run alike on every submission). */
export const markDisputed = cachedStatement((k, v: { now: Date; poolItemId: string; disputed: number }) =>
  k
    .updateTable("PoolItem")
    .set({ disputedAt: v.now })
    .where("id", "=", v.poolItemId)
    .where("disputedAt", "is", null)
    .where(sql<boolean>`${v.disputed} = 1`),
);

const updateCheck = cachedStatement((k, v: TFieldValues & { updatedAt: Date; id: number }) =>
  k
    .updateTable("CheckJudgement")
    .set({ ...fieldValues(v), updatedAt: v.updatedAt })
    .where("id", "=", v.id),
);

const insertCheck = cachedStatement(
  (k, v: TFieldValues & { poolItemId: string; userId: string; createdAt: Date; updatedAt: Date }) =>
    k
      .insertInto("CheckJudgement")
      .values({
        ...fieldValues(v),
        poolItemId: v.poolItemId,
        userId: v.userId,
        createdAt: v.createdAt,
        updatedAt: v.updatedAt,
      })
      .returning("id"),
);

/** What a submission's event records (LabelEvent, CheckEvent): the judgement before and after, under the key. */
export type TEventValues = {
  poolItemId: string;
  actorId: string;
  before: string | null;
  after: string;
  idempotencyKey: string;
  createdAt: Date;
};

const insertCheckEvent = cachedStatement((k, v: TEventValues) => k.insertInto("CheckEvent").values(v));
