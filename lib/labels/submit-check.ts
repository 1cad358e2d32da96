import { sql } from "kysely";
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

/**
 * A submission already applied under this key (ordinary or check): the stored judgement with
 * `applied: false`; a key used for something else is a conflict; null for a new key.
 */
export function* storedByKey(userId: string, data: TJudgement): TSqlBody<TSubmitResult | null> {
  const { poolItemId, idempotencyKey } = data;
  const label = yield* firstOf((k) =>
    k.selectFrom("LabelEvent").select(["actorId", "poolItemId", "kind"]).where("idempotencyKey", "=", idempotencyKey),
  );
  const check = yield* firstOf((k) =>
    k.selectFrom("CheckEvent").select(["actorId", "poolItemId"]).where("idempotencyKey", "=", idempotencyKey),
  );
  const event = label ?? (check ? { ...check, kind: "judgement" } : null);
  if (!event) return null;
  if (event.actorId !== userId || event.poolItemId !== poolItemId || event.kind !== "judgement")
    throw new AppError("conflict", "this idempotency key was already used for a different submission");
  const stored = yield* firstOf((k) =>
    k
      .selectFrom(label ? "Judgement" : "CheckJudgement")
      .select(JUDGEMENT_COLUMNS)
      .where("poolItemId", "=", poolItemId)
      .where("userId", "=", userId),
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
  const before = (yield* firstOf((k) =>
    k
      .selectFrom("CheckJudgement")
      .select(JUDGEMENT_COLUMNS)
      .where("poolItemId", "=", poolItemId)
      .where("userId", "=", userId),
  )) as TSubmittedJudgement | undefined;
  const now = new Date();
  const fields = submittedFields(before ?? null, data);
  let id: number;
  if (before) {
    yield* exec((k) =>
      k
        .updateTable("CheckJudgement")
        .set({ ...fields, updatedAt: now })
        .where("id", "=", before.id),
    );
    id = before.id;
  } else {
    id = yield* insertedId((k) =>
      k
        .insertInto("CheckJudgement")
        .values({ ...fields, poolItemId, userId, createdAt: now, updatedAt: now })
        .returning("id"),
    );
  }
  const judgement: TSubmittedJudgement = { id, poolItemId, userId, ...fields };
  // The ordinary write's disputed-item statement, here always a no-op: the same statements run for
  // both kinds of item, so the answer's timing does not tell them apart.
  yield* exec((k) =>
    k
      .updateTable("PoolItem")
      .set({ disputedAt: now })
      .where("id", "=", poolItemId)
      .where("disputedAt", "is", null)
      .where(sql<boolean>`${0} = 1`),
  );
  yield* exec((k) =>
    k.insertInto("CheckEvent").values({
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
