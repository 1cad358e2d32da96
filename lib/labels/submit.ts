import type { Db, Judgement, Prisma } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";
import { decide } from "./rule.ts";
import { ZJudgementInput, type TJudgementInput } from "./schemas.ts";

export type TSubmitResult = { applied: boolean; judgement: Judgement };

/** What a LabelEvent records of a judgement (before / after). */
export function judgementSnapshot(j: Pick<Judgement, "grade" | "startSeconds" | "notes" | "flags" | "timeSpentMs">): string {
  return JSON.stringify({ grade: j.grade, startSeconds: j.startSeconds, notes: j.notes, flags: JSON.parse(j.flags) as unknown, timeSpentMs: j.timeSpentMs });
}

/**
 * Records (or changes) the calling annotator's grade for one pool item.
 *
 * - Idempotent: each idempotency key is applied once. The key is stored on the LabelEvent the
 *   submission appends (unique), so a retry — including one racing the original, which fails on
 *   that unique key — returns `applied: false` and the stored judgement instead of writing again.
 * - `forbidden` unless the item is assigned to the caller (checked in the same transaction).
 * - `conflict` once the item is final: adjudicated, or its annotators agree under the project's
 *   rule. Before that the annotator may change their grade as often as they like.
 * - Every change appends a LabelEvent with the judgement before and after.
 */
export async function submitJudgement(db: Db, userId: string, input: TJudgementInput): Promise<TSubmitResult> {
  const parsed = ZJudgementInput.safeParse(input);
  if (!parsed.success) throw new AppError("bad_input", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "), parsed.error.issues);
  const data = parsed.data;

  const dup = await findApplied(db, userId, data.poolItemId, data.idempotencyKey);
  if (dup) return dup;
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.$transaction((tx) => apply(tx, userId, data));
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      // Either the same key won a race (a duplicate), or two of this user's submissions both
      // created the judgement row (retry once: the second then updates it).
      const raced = await findApplied(db, userId, data.poolItemId, data.idempotencyKey);
      if (raced) return raced;
      if (attempt >= 2) throw new AppError("conflict", "the item was changed at the same time; submit again");
    }
  }
}

async function findApplied(db: Db, userId: string, poolItemId: string, key: string): Promise<TSubmitResult | null> {
  const event = await db.labelEvent.findUnique({ where: { idempotencyKey: key }, select: { actorId: true, poolItemId: true, kind: true } });
  if (!event) return null;
  if (event.actorId !== userId || event.poolItemId !== poolItemId || event.kind !== "judgement") {
    throw new AppError("conflict", "this idempotency key was already used for a different submission");
  }
  const judgement = await db.judgement.findUnique({ where: { poolItemId_userId: { poolItemId, userId } } });
  if (!judgement) throw new AppError("not_found", "the judgement recorded under this key no longer exists");
  return { applied: false, judgement };
}

async function apply(tx: Prisma.TransactionClient, userId: string, data: ReturnType<typeof ZJudgementInput.parse>): Promise<TSubmitResult> {
  const { poolItemId } = data;
  const assignment = await tx.assignment.findUnique({ where: { poolItemId_userId: { poolItemId, userId } }, select: { id: true } });
  if (!assignment) throw new AppError("forbidden", "this item is not assigned to you");
  const item = await tx.poolItem.findUniqueOrThrow({
    where: { id: poolItemId },
    select: {
      projectId: true,
      project: { select: { disagreementRule: true, startToleranceSeconds: true, annotatorsPerItem: true } },
      adjudication: { select: { id: true } },
      judgements: { orderBy: { id: "asc" } },
    },
  });
  if (item.adjudication) throw new AppError("conflict", "this item has been adjudicated: its label is final");
  if (decide(item.judgements, item.project).state === "agreed") throw new AppError("conflict", "the annotators of this item agree: its label is final");

  const before = item.judgements.find((j) => j.userId === userId) ?? null;
  const fields = {
    grade: data.grade,
    startSeconds: data.startSeconds,
    notes: data.notes,
    flags: JSON.stringify(data.flags),
    timeSpentMs: data.timeSpentMs,
    idempotencyKey: data.idempotencyKey,
  };
  const judgement = before
    ? await tx.judgement.update({ where: { id: before.id }, data: fields })
    : await tx.judgement.create({ data: { poolItemId, userId, ...fields } });
  await tx.labelEvent.create({
    data: {
      projectId: item.projectId,
      poolItemId,
      actorId: userId,
      kind: "judgement",
      before: before ? judgementSnapshot(before) : null,
      after: judgementSnapshot(judgement),
      idempotencyKey: data.idempotencyKey,
    },
  });
  return { applied: true, judgement };
}
