import type { Db } from "../db/client.ts";
import { all, get, isUniqueViolation, provider, run, sqlTransaction, type TSqlBody } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { gradingClosedError } from "../projects/grading.ts";
import { decide, type TDisagreementRule } from "./rule.ts";
import { ZJudgementInput, type TJudgement, type TJudgementInput } from "./schemas.ts";

/** The caller's stored judgement, as a submission returns it. */
export type TSubmittedJudgement = {
  id: number;
  poolItemId: string;
  userId: string;
  grade: number;
  startSeconds: number | null;
  notes: string;
  flags: string;
  timeSpentMs: number | null;
  idempotencyKey: string;
};
export type TSubmitResult = { applied: boolean; judgement: TSubmittedJudgement };

/** What a LabelEvent records of a judgement (before / after). */
export function judgementSnapshot(
  j: Pick<TSubmittedJudgement, "grade" | "startSeconds" | "notes" | "flags" | "timeSpentMs">,
): string {
  return JSON.stringify({
    grade: j.grade,
    startSeconds: j.startSeconds,
    notes: j.notes,
    flags: JSON.parse(j.flags) as unknown,
    timeSpentMs: j.timeSpentMs,
  });
}

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
 * - Blind and unprobeable (issue 18 item 2): the caller may change their own grade at any time,
 *   and every edit is accepted the same way (the caller's own stored judgement echoed), whatever
 *   the other annotators' grades or an adjudication say: no answer depends on them. The same
 *   statements run on every edit, so the timing does not tell either.
 * - The reference follows the editing rule (lib/labels/rule.ts `itemDecision`): when the item's
 *   required grades disagree before or after this edit, PoolItem.disputedAt is set (once; it is
 *   never cleared), and the item waits for adjudication whatever later edits say; an adjudicated
 *   item keeps the adjudicator's label.
 * - Every change appends a LabelEvent with the judgement before and after. A submission that
 *   changes nothing (grade, start, notes and flags as stored) keeps the stored time spent.
 *
 * This is the hottest write of the app (50 annotators at once), so it is a handful of direct SQL
 * statements in one transaction rather than Prisma queries (bench: `npm run bench -- annotate`).
 */
export async function submitJudgement(db: Db, userId: string, input: TJudgementInput): Promise<TSubmitResult> {
  const parsed = ZJudgementInput.safeParse(input);
  if (!parsed.success)
    throw new AppError(
      "bad_input",
      parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "),
      parsed.error.issues,
    );
  const data = parsed.data;
  for (let attempt = 0; ; attempt++) {
    try {
      return await sqlTransaction(db, () => apply(userId, data));
    } catch (e) {
      // Only reachable on PostgreSQL without the row lock's protection (e.g. the item's first
      // two judgements racing): the retry sees the committed row and updates it, or the event.
      if (!isUniqueViolation(e)) throw e;
      if (attempt >= 2) throw new AppError("conflict", "the item was changed at the same time; submit again");
    }
  }
}

/** Whether a stored flags column (a JSON array) holds the same flags as `flags`, in any order. */
function sameFlags(stored: string, flags: readonly string[]): boolean {
  const had = JSON.parse(stored) as unknown;
  return Array.isArray(had) && had.length === flags.length && flags.every((f) => had.includes(f));
}

const JUDGEMENT_COLUMNS = `"id", "poolItemId", "userId", "grade", "startSeconds", "notes", "flags", "timeSpentMs", "idempotencyKey"`;

type TItemRow = {
  projectId: number;
  disagreementRule: TDisagreementRule;
  startToleranceSeconds: number;
  annotatorsPerItem: number;
  gradingClosedAt: Date | string | number | null;
  assigned: number;
};

function* apply(userId: string, data: TJudgement): TSqlBody<TSubmitResult> {
  const { poolItemId, idempotencyKey } = data;
  // PostgreSQL: queue concurrent submissions for the same item (SQLite holds the database lock).
  if ((yield* provider()) === "postgres")
    yield* all(`SELECT "id" FROM "PoolItem" WHERE "id" = ? FOR UPDATE`, [poolItemId]);

  const event = yield* get<{ actorId: string | null; poolItemId: string | null; kind: string }>(
    `SELECT "actorId", "poolItemId", "kind" FROM "LabelEvent" WHERE "idempotencyKey" = ?`,
    [idempotencyKey],
  );
  if (event) {
    if (event.actorId !== userId || event.poolItemId !== poolItemId || event.kind !== "judgement") {
      throw new AppError("conflict", "this idempotency key was already used for a different submission");
    }
    const stored = yield* get<TSubmittedJudgement>(
      `SELECT ${JUDGEMENT_COLUMNS} FROM "Judgement" WHERE "poolItemId" = ? AND "userId" = ?`,
      [poolItemId, userId],
    );
    if (!stored) throw new AppError("not_found", "the judgement recorded under this key no longer exists");
    return { applied: false, judgement: stored };
  }

  const item = yield* get<TItemRow>(
    `SELECT i."projectId", p."disagreementRule", p."startToleranceSeconds", p."annotatorsPerItem", p."gradingClosedAt",
       CASE WHEN EXISTS (SELECT 1 FROM "Assignment" a WHERE a."poolItemId" = i."id" AND a."userId" = ?) THEN 1 ELSE 0 END AS "assigned"
     FROM "PoolItem" i JOIN "Project" p ON p."id" = i."projectId" WHERE i."id" = ?`,
    [userId, poolItemId],
  );
  if (!item || !item.assigned) throw new AppError("forbidden", "this item is not assigned to you");
  // Closed by the lead: refused alike for every item of the project (lib/projects/grading.ts).
  if (item.gradingClosedAt !== null) throw gradingClosedError(item.gradingClosedAt);
  const judgements = yield* all<TSubmittedJudgement>(
    `SELECT ${JUDGEMENT_COLUMNS} FROM "Judgement" WHERE "poolItemId" = ? ORDER BY "id"`,
    [poolItemId],
  );

  const before = judgements.find((j) => j.userId === userId) ?? null;
  const now = new Date();
  const flags = JSON.stringify(data.flags);
  // Viewing is not grading (issue 29 item 2): a re-submission that changes nothing keeps the time
  // spent the first time instead of overwriting it with the seconds of a second look.
  const unchanged =
    before !== null &&
    before.grade === data.grade &&
    before.startSeconds === data.startSeconds &&
    before.notes === data.notes &&
    sameFlags(before.flags, data.flags);
  const fields = {
    grade: data.grade,
    startSeconds: data.startSeconds,
    notes: data.notes,
    flags,
    timeSpentMs: unchanged ? before.timeSpentMs : data.timeSpentMs,
    idempotencyKey,
  };
  const values = [
    fields.grade,
    fields.startSeconds,
    fields.notes,
    fields.flags,
    fields.timeSpentMs,
    fields.idempotencyKey,
  ];
  let id: number;
  if (before) {
    yield* run(
      `UPDATE "Judgement" SET "grade" = ?, "startSeconds" = ?, "notes" = ?, "flags" = ?, "timeSpentMs" = ?, "idempotencyKey" = ?, "updatedAt" = ? WHERE "id" = ?`,
      [...values, now, before.id],
    );
    id = before.id;
  } else {
    const inserted = yield* get<{ id: number }>(
      `INSERT INTO "Judgement" ("grade", "startSeconds", "notes", "flags", "timeSpentMs", "idempotencyKey", "poolItemId", "userId", "createdAt", "updatedAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING "id"`,
      [...values, poolItemId, userId, now, now],
    );
    if (!inserted) throw new Error("INSERT … RETURNING gave no row");
    id = inserted.id;
  }
  const judgement: TSubmittedJudgement = { id, poolItemId, userId, ...fields };
  // The editing rule: a disagreement of the required grades (before this edit, for items disputed
  // before disputedAt existed, or after it) makes the item disputed for good. The statement runs on
  // every edit (a no-op unless newly disputed) so that the timing does not depend on the peers.
  const after = before ? judgements.map((j) => (j.id === before.id ? judgement : j)) : [...judgements, judgement];
  const disputed = decide(judgements, item).state === "disagreed" || decide(after, item).state === "disagreed";
  yield* run(`UPDATE "PoolItem" SET "disputedAt" = ? WHERE "id" = ? AND "disputedAt" IS NULL AND ? = 1`, [
    now,
    poolItemId,
    disputed ? 1 : 0,
  ]);
  yield* run(
    `INSERT INTO "LabelEvent" ("projectId", "poolItemId", "actorId", "kind", "before", "after", "idempotencyKey", "createdAt") VALUES (?, ?, ?, 'judgement', ?, ?, ?, ?)`,
    [
      item.projectId,
      poolItemId,
      userId,
      before ? judgementSnapshot(before) : null,
      judgementSnapshot(judgement),
      idempotencyKey,
      now,
    ],
  );
  return { applied: true, judgement };
}
