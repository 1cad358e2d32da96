import { sql, type Selectable } from "kysely";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import type { DB } from "../db/schema.ts";
import { exec, firstOf, insertedId, lockRows, rowsOf, type TSqlBody } from "../db/sql.ts";
import { AppError, parsedInput } from "../errors.ts";
import { submitWithRetry } from "../labels/submit-retry.ts";
import { gradingClosedError } from "../projects/grading.ts";
import { unknownRevisionError } from "../projects/guidelines.ts";
import { ZUint32, zInt32, zText } from "../bounds.ts";
import { JUDGEMENT_FLAGS, zGrade } from "../labels/schemas.ts";
import { MAX_CLAIMS } from "./claims.ts";
import { isPrivateVersion, versionAfter } from "./claims-edit.ts";
import { checkClaimSet, decideAnswer, parseClaimLabels, ZClaimLabel } from "./labels.ts";

export const ZRelevance = zGrade("relevance");

/** One answer label (answers task → route → submitAnswerJudgement). */
export const ZAnswerJudgementInput = z.object({
  answerId: zText(100).min(1),
  claimVersion: zInt32(1, "claimVersion: expected a whole number ≥ 1"),
  /** One of s / p / n / x per claim of `claimVersion`, in claim order. */
  claimLabels: z.array(ZClaimLabel).max(MAX_CLAIMS),
  relevance: ZRelevance,
  notes: zText(5000).default(""),
  flags: z.array(z.enum(JUDGEMENT_FLAGS)).max(JUDGEMENT_FLAGS.length).default([]),
  timeSpentMs: ZUint32.nullable().default(null),
  /** The guidelines revision the page showed (lib/projects/guidelines.ts); null when the client sent none. */
  guidelineRevision: zInt32(0, "guidelineRevision: expected a revision number (0 or more)").nullable().default(null),
  /** Chosen by the client once per submission (a UUID); a retry sends the same key. */
  idempotencyKey: zText(200).min(8),
});
export type TAnswerJudgementInput = z.input<typeof ZAnswerJudgementInput>;
type TAnswerJudgementData = z.output<typeof ZAnswerJudgementInput>;

/** The caller's stored answer label, as a submission returns it: what was submitted, with its id and user (flags as stored). */
export type TSubmittedAnswerJudgement = Omit<TAnswerJudgementData, "flags"> & {
  id: number;
  userId: string;
  flags: string[];
};
export type TAnswerSubmitResult = { applied: boolean; judgement: TSubmittedAnswerJudgement };

/** The columns of a stored label (AnswerJudgement) that a submission reads. */
const COLUMNS = [
  "id",
  "answerId",
  "userId",
  "claimVersion",
  "claimLabels",
  "relevance",
  "notes",
  "flags",
  "timeSpentMs",
  "guidelineRevision",
  "idempotencyKey",
] as const satisfies readonly (keyof TSubmittedAnswerJudgement)[];
/** A stored label as direct SQL returns it (the JSON columns as text). */
type TRow = Selectable<DB["AnswerJudgement"]>;

const toJudgement = (r: Pick<TRow, (typeof COLUMNS)[number]>): TSubmittedAnswerJudgement => ({
  id: Number(r.id),
  answerId: r.answerId,
  userId: r.userId,
  claimVersion: Number(r.claimVersion),
  claimLabels: parseClaimLabels(r.claimLabels),
  relevance: Number(r.relevance),
  notes: r.notes,
  flags: JSON.parse(r.flags) as string[],
  timeSpentMs: r.timeSpentMs === null ? null : Number(r.timeSpentMs),
  guidelineRevision: r.guidelineRevision === null ? null : Number(r.guidelineRevision),
  idempotencyKey: r.idempotencyKey,
});

/** What an AnswerEvent records of a label (before / after). */
export function answerJudgementSnapshot(
  j: Pick<TSubmittedAnswerJudgement, "claimVersion" | "claimLabels" | "relevance" | "notes" | "flags" | "timeSpentMs">,
): string {
  return JSON.stringify({
    claimVersion: j.claimVersion,
    claimLabels: j.claimLabels,
    relevance: j.relevance,
    notes: j.notes,
    flags: j.flags,
    timeSpentMs: j.timeSpentMs,
  });
}

/**
 * Records (or changes) the calling annotator's label of one answer: a label per claim of one claim
 * set version and the answer's relevance. The answers' counterpart of lib/labels/submit.ts, with the
 * same semantics:
 * - idempotent: the key is stored on the AnswerEvent the submission appends (unique), so a retry
 *   returns `applied: false` and the stored label, also when it races the original (PostgreSQL: the
 *   Answer row is locked first, so same-answer submissions queue; SQLite: one synchronous step);
 * - `forbidden` unless the answer is assigned to the caller;
 * - `bad_input` (422) naming the field when `claimVersion` is not a claim set of the answer or
 *   `claimLabels` does not have one label per claim of it;
 * - blind and unprobeable: every edit of one's own label is accepted the same way, whatever the
 *   peers' labels or an adjudication say (an adjudicated answer keeps the adjudicator's label: the
 *   edit is kept in the history); the same statements run on every edit;
 * - the reference follows the editing rule (lib/answers/labels.ts `answerDecision`): when the
 *   required labels disagree before or after this edit, Answer.disputedAt is set once, never cleared;
 * - every change appends an AnswerEvent (kind "judgement") with the label before and after.
 */
export async function submitAnswerJudgement(
  db: Db,
  userId: string,
  input: TAnswerJudgementInput,
): Promise<TAnswerSubmitResult> {
  const data = parsedInput(ZAnswerJudgementInput, input);
  return submitWithRetry(db, () => apply(userId, data), "the answer");
}

function* apply(userId: string, data: TAnswerJudgementData): TSqlBody<TAnswerSubmitResult> {
  const { answerId, idempotencyKey } = data;
  yield* lockRows((k) => k.selectFrom("Answer").select("id").where("id", "=", answerId).forUpdate());

  const event = yield* firstOf((k) =>
    k.selectFrom("AnswerEvent").select(["actorId", "answerId", "kind"]).where("idempotencyKey", "=", idempotencyKey),
  );
  if (event) {
    if (event.actorId !== userId || event.answerId !== answerId || event.kind !== "judgement")
      throw new AppError("conflict", "this idempotency key was already used for a different submission");
    const stored = yield* firstOf((k) =>
      k.selectFrom("AnswerJudgement").select(COLUMNS).where("answerId", "=", answerId).where("userId", "=", userId),
    );
    if (!stored) throw new AppError("not_found", "the label recorded under this key no longer exists");
    return { applied: false, judgement: toJudgement(stored) };
  }

  const answer = yield* firstOf((k) =>
    k
      .selectFrom("Answer as a")
      .innerJoin("Project as p", "p.id", "a.projectId")
      .select((eb) => [
        "a.projectId",
        "a.claimVersion",
        "p.disagreementRule",
        "p.startToleranceSeconds",
        "p.annotatorsPerItem",
        "p.gradingClosedAt",
        eb
          .case()
          .when(
            eb.exists(
              eb
                .selectFrom("AnswerAssignment as s")
                .select(eb.lit(1).as("one"))
                .whereRef("s.answerId", "=", "a.id")
                .where("s.userId", "=", userId),
            ),
          )
          // Literals, not parameters: PostgreSQL would type a bare parameter in CASE as text.
          .then(eb.lit(1))
          .else(eb.lit(0))
          .end()
          .as("assigned"),
        eb
          .selectFrom("GuidelineRevision as g")
          .select((g) => g.fn.max("g.revision").as("top"))
          .whereRef("g.projectId", "=", "a.projectId")
          .as("guidelineTop"),
      ])
      .where("a.id", "=", answerId),
  );
  if (!answer || !Number(answer.assigned)) throw new AppError("forbidden", "this answer is not assigned to you");
  if (answer.gradingClosedAt !== null) throw gradingClosedError(answer.gradingClosedAt);
  const guidelineTop = Number(answer.guidelineTop ?? 0);
  if (data.guidelineRevision !== null && data.guidelineRevision > guidelineTop)
    throw unknownRevisionError(data.guidelineRevision, guidelineTop);
  let claims = Number(
    (yield* firstOf((k) =>
      k
        .selectFrom("AnswerClaim")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("answerId", "=", answerId)
        .where("version", "=", data.claimVersion),
    ))?.n ?? 0,
  );
  // Another annotator's private claim set (lib/answers/claims-edit.ts) reads as no claim set at all.
  if (claims > 0 && isPrivateVersion(data.claimVersion)) {
    const edits = yield* rowsOf((k) =>
      k
        .selectFrom("AnswerEvent")
        .select("after")
        .where("answerId", "=", answerId)
        .where("actorId", "=", userId)
        .where("kind", "in", [sql.lit("merge"), sql.lit("split")]),
    );
    if (!edits.some((e) => versionAfter(e) === data.claimVersion)) claims = 0;
  }
  checkClaimSet(claims, data, Number(answer.claimVersion));

  const rows = (yield* rowsOf((k) =>
    k.selectFrom("AnswerJudgement").select(COLUMNS).where("answerId", "=", answerId).orderBy("id"),
  )).map(toJudgement);
  const before = rows.find((j) => j.userId === userId) ?? null;
  const now = new Date();
  const fields = {
    claimVersion: data.claimVersion,
    claimLabels: data.claimLabels,
    relevance: data.relevance,
    notes: data.notes,
    flags: data.flags,
    timeSpentMs: data.timeSpentMs,
    guidelineRevision: data.guidelineRevision,
    idempotencyKey,
  };
  /** The columns written, as stored (the labels and flags as JSON text). */
  const values = {
    claimVersion: fields.claimVersion,
    claimLabels: JSON.stringify(fields.claimLabels),
    relevance: fields.relevance,
    notes: fields.notes,
    flags: JSON.stringify(fields.flags),
    timeSpentMs: fields.timeSpentMs,
    guidelineRevision: fields.guidelineRevision,
    idempotencyKey,
  };
  let id: number;
  if (before) {
    const beforeId = before.id;
    yield* exec((k) =>
      k
        .updateTable("AnswerJudgement")
        .set({ ...values, updatedAt: now })
        .where("id", "=", beforeId),
    );
    id = before.id;
  } else {
    id = yield* insertedId((k) =>
      k
        .insertInto("AnswerJudgement")
        .values({ ...values, answerId, userId, createdAt: now, updatedAt: now })
        .returning("id"),
    );
  }
  const judgement: TSubmittedAnswerJudgement = { id, answerId, userId, ...fields };
  const settings = {
    disagreementRule: answer.disagreementRule,
    startToleranceSeconds: Number(answer.startToleranceSeconds),
    annotatorsPerItem: Number(answer.annotatorsPerItem),
  };
  const after = before ? rows.map((j) => (j.id === before.id ? judgement : j)) : [...rows, judgement];
  const disputed =
    decideAnswer(rows, settings).state === "disagreed" || decideAnswer(after, settings).state === "disagreed";
  yield* exec((k) =>
    k
      .updateTable("Answer")
      .set({ disputedAt: now })
      .where("id", "=", answerId)
      .where("disputedAt", "is", null)
      .where(sql<boolean>`${disputed ? 1 : 0} = 1`),
  );
  // A second look asked for after the guidelines changed ends with this submission (the assignment is the caller's own).
  yield* exec((k) =>
    k
      .updateTable("AnswerAssignment")
      .set({ regradeRequestedAt: null })
      .where("answerId", "=", answerId)
      .where("userId", "=", userId)
      .where("regradeRequestedAt", "is not", null),
  );
  const projectId = Number(answer.projectId);
  yield* exec((k) =>
    k.insertInto("AnswerEvent").values({
      projectId,
      answerId,
      actorId: userId,
      kind: sql.lit("judgement"),
      before: before ? answerJudgementSnapshot(before) : null,
      after: answerJudgementSnapshot(judgement),
      idempotencyKey,
      createdAt: now,
    }),
  );
  return { applied: true, judgement };
}
