import { sql } from "kysely";
import type { Db } from "../db/client.ts";
import { cachedStatement } from "../db/query.ts";
import { exec, firstOf, insertedId, lockRows, rowsOf, type TSqlBody } from "../db/sql.ts";
import { AppError, parsedInput } from "../errors.ts";
import { submitWithRetry } from "./submit-retry.ts";
import { gradingClosedError } from "../projects/grading.ts";
import { unknownRevisionError } from "../projects/guidelines.ts";
import { decide } from "./rule.ts";
import { ZJudgementInput, type TJudgement, type TJudgementInput } from "./schemas.ts";
import {
  applyCheck,
  fieldValues,
  JUDGEMENT_COLUMNS,
  judgementSnapshot,
  markDisputed,
  storedByKey,
  submittedFields,
  type TEventValues,
  type TFieldValues,
  type TSubmitResult,
  type TSubmittedJudgement,
} from "./submit-check.ts";

export { judgementSnapshot, type TSubmitResult, type TSubmittedJudgement } from "./submit-check.ts";

/**
 * Records (or changes) the calling annotator's grade for one pool item.
 *
 * - Idempotent: each idempotency key is applied once. The key is stored on the LabelEvent the
 *   submission appends (unique), so a retry returns `applied: false` and the stored judgement
 *   instead of writing again — also when it races the original (on PostgreSQL the pool item's
 *   row is locked first, so same-item submissions queue; on SQLite the transaction is one
 *   synchronous step, lib/db/sql.ts).
 * - `forbidden` unless the item is assigned to the caller (checked in the same transaction);
 *   `conflict` when the lead has closed grading in the project (every item alike).
 * - Blind and unprobeable: the caller may change their own grade at any time,
 *   and every edit is accepted the same way (the caller's own stored judgement echoed), whatever
 *   the other annotators' grades or an adjudication say: no answer depends on them. The same
 *   statements run on every edit, so the timing does not tell either.
 * - The reference follows the editing rule (lib/labels/rule.ts `itemDecision`): when the item's
 *   required grades disagree before or after this edit, PoolItem.disputedAt is set (once; it is
 *   never cleared), and the item waits for adjudication whatever later edits say; an adjudicated
 *   item keeps the adjudicator's label.
 * - Every change appends a LabelEvent with the judgement before and after. A submission that
 *   changes nothing (grade, start, end, notes and flags as stored) keeps the stored time spent.
 * - The answer's end (optional) must lie after the corrected start, or after the chunk's start
 *   when there is none: otherwise `bad_input` naming endSeconds, before anything is written.
 * - A hidden check item (the caller's Assignment.checkItem) is graded alike, but its grade is
 *   written to CheckJudgement / CheckEvent and never reaches the reference (lib/labels/submit-check.ts).
 *
 * This is the hottest write of the app (50 annotators at once), so it is a handful of direct SQL
 * statements in one transaction rather than Prisma queries (bench: `npm run bench -- annotate`).
 */
export async function submitJudgement(db: Db, userId: string, input: TJudgementInput): Promise<TSubmitResult> {
  const data = parsedInput(ZJudgementInput, input);
  return submitWithRetry(db, () => apply(userId, data), "the item");
}

function* apply(userId: string, data: TJudgement): TSqlBody<TSubmitResult> {
  const { poolItemId, idempotencyKey } = data;
  // Concurrent submissions for the same item queue here.
  yield* lockRows(lockItem({ poolItemId }));

  // A key already applied (to an ordinary or a check item): the stored judgement, applied: false.
  const stored = yield* storedByKey(userId, data);
  if (stored) return stored;

  const item = yield* firstOf(submittedItem({ userId, poolItemId }));
  if (!item || !item.assigned) throw new AppError("forbidden", "this item is not assigned to you");
  // Closed by the lead: refused alike for every item of the project (lib/projects/grading.ts).
  if (item.gradingClosedAt !== null) throw gradingClosedError(item.gradingClosedAt);
  const guidelineTop = Number(item.guidelineTop ?? 0);
  if (data.guidelineRevision !== null && data.guidelineRevision > guidelineTop)
    throw unknownRevisionError(data.guidelineRevision, guidelineTop);
  // The answer's end: after the corrected start (the schema checks that) or, without one, the chunk's start.
  if (data.startSeconds === null && data.endSeconds !== null && !(data.endSeconds > item.chunkStart))
    throw new AppError(
      "bad_input",
      `endSeconds: expected the answer's end after the chunk's start (${item.chunkStart} s), got ${data.endSeconds} s`,
      [{ path: "endSeconds", message: `expected after ${item.chunkStart} s` }],
    );
  // A hidden check item: its grade goes to CheckJudgement, never near the reference (lib/labels/submit-check.ts).
  if (item.check) return yield* applyCheck(userId, data);
  const judgements: TSubmittedJudgement[] = yield* rowsOf(itemJudgements({ poolItemId }));

  const before = judgements.find((j) => j.userId === userId) ?? null;
  const now = new Date();
  const fields = submittedFields(before, data);
  const written = { ...fields, guidelineRevision: data.guidelineRevision, updatedAt: now };
  let id: number;
  if (before) {
    id = before.id;
    yield* exec(updateJudgement({ ...written, id }));
  } else id = yield* insertedId(insertJudgement({ ...written, poolItemId, userId, createdAt: now }));
  const judgement: TSubmittedJudgement = { id, poolItemId, userId, ...fields };
  // The editing rule: a disagreement of the required grades (before this edit, for items disputed
  // before disputedAt existed, or after it) makes the item disputed for good. The statement runs on
  // every edit (a no-op unless newly disputed) so that the timing does not depend on the peers.
  const after = before ? judgements.map((j) => (j.id === before.id ? judgement : j)) : [...judgements, judgement];
  const disputed = decide(judgements, item).state === "disagreed" || decide(after, item).state === "disagreed";
  yield* exec(markDisputed({ now, poolItemId, disputed: disputed ? 1 : 0 }));
  // A second look asked for after the guidelines changed ends with this submission (the assignment is the caller's own).
  yield* exec(endRegrade({ poolItemId, userId }));
  yield* exec(
    insertLabelEvent({
      projectId: item.projectId,
      poolItemId,
      actorId: userId,
      before: before ? judgementSnapshot(before) : null,
      after: judgementSnapshot(judgement),
      idempotencyKey,
      createdAt: now,
    }),
  );
  return { applied: true, judgement };
}

// The statements of a submission, built and compiled once per dialect (lib/db/query.ts
// cachedStatement): a submission only fills in its values.

const lockItem = cachedStatement((k, v: { poolItemId: string }) =>
  k.selectFrom("PoolItem").select("id").where("id", "=", v.poolItemId).forUpdate(),
);

/** The item with its project's rules, and whether it is assigned to the caller (as an ordinary or a check item). */
const submittedItem = cachedStatement((k, v: { userId: string; poolItemId: string }) =>
  k
    .selectFrom("PoolItem as i")
    .innerJoin("Project as p", "p.id", "i.projectId")
    .innerJoin("Chunk as c", "c.id", "i.chunkId")
    .select((eb) => {
      // The caller's assignment of the item; 1 where there is one, else 0.
      const mine = eb
        .selectFrom("Assignment as a")
        .select(eb.lit(1).as("one"))
        .whereRef("a.poolItemId", "=", "i.id")
        .where("a.userId", "=", v.userId);
      // Literals, not parameters: PostgreSQL would type a bare parameter in CASE as text.
      const one = (q: typeof mine) => eb.case().when(eb.exists(q)).then(eb.lit(1)).else(eb.lit(0)).end();
      return [
        "i.projectId",
        "p.disagreementRule",
        "p.startToleranceSeconds",
        "p.annotatorsPerItem",
        "p.gradingClosedAt",
        "c.startSeconds as chunkStart",
        // The project's current guidelines revision: a grade may name only one it was shown.
        (eb) =>
          eb
            .selectFrom("GuidelineRevision as g")
            .select((g) => g.fn.max("g.revision").as("top"))
            .whereRef("g.projectId", "=", "i.projectId")
            .as("guidelineTop"),
        one(mine).as("assigned"),
        one(mine.where(sql<boolean>`a."checkItem"`)).as("check"),
      ];
    })
    .where("i.id", "=", v.poolItemId),
);

const itemJudgements = cachedStatement((k, v: { poolItemId: string }) =>
  k.selectFrom("Judgement").select(JUDGEMENT_COLUMNS).where("poolItemId", "=", v.poolItemId).orderBy("id"),
);

type TWritten = TFieldValues & { guidelineRevision: number | null; updatedAt: Date };

const updateJudgement = cachedStatement((k, v: TWritten & { id: number }) =>
  k
    .updateTable("Judgement")
    .set({ ...fieldValues(v), guidelineRevision: v.guidelineRevision, updatedAt: v.updatedAt })
    .where("id", "=", v.id),
);

const insertJudgement = cachedStatement((k, v: TWritten & { poolItemId: string; userId: string; createdAt: Date }) =>
  k
    .insertInto("Judgement")
    .values({
      ...fieldValues(v),
      guidelineRevision: v.guidelineRevision,
      poolItemId: v.poolItemId,
      userId: v.userId,
      createdAt: v.createdAt,
      updatedAt: v.updatedAt,
    })
    .returning("id"),
);

const endRegrade = cachedStatement((k, v: { poolItemId: string; userId: string }) =>
  k
    .updateTable("Assignment")
    .set({ regradeRequestedAt: null })
    .where("poolItemId", "=", v.poolItemId)
    .where("userId", "=", v.userId)
    .where("regradeRequestedAt", "is not", null),
);

const insertLabelEvent = cachedStatement((k, v: TEventValues & { projectId: number }) =>
  k.insertInto("LabelEvent").values({ ...v, kind: "judgement" }),
);
