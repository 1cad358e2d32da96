import { z } from "zod";
import type { Adjudication, Db } from "../db/client.ts";
import { AppError, isUniqueViolation, parsedInput } from "../errors.ts";
import { loadItemLabels, ruleSettings } from "../labels/load.ts";
import { itemDecision } from "../labels/rule.ts";
import { zInt32, zText } from "../bounds.ts";
import { zGrade, zSeconds } from "../labels/schemas.ts";
import { currentGuidelineRevision, unknownRevisionError } from "../projects/guidelines.ts";

/** The answer's end (optional): after the final start, or the chunk's start without one (checked in `adjudicate`). */
export const ZAdjudicationInput = z.object({
  poolItemId: zText(100).min(1),
  grade: zGrade("grade"),
  startSeconds: zSeconds("startSeconds").nullable(),
  endSeconds: zSeconds("endSeconds").nullable().default(null),
  rationale: zText(5000).trim().default(""),
  idempotencyKey: zText(200).min(8),
  /**
   * A revision of a decided item: the revision the adjudicator saw standing (1 for the first
   * decision). Without it a decided item is a conflict; with a revision that no longer stands, too.
   */
  revises: zInt32(1, "revises: expected the revision number that stands (≥ 1)").optional(),
  /** The guidelines revision the adjudicator's page showed (lib/projects/guidelines.ts); recorded with the decision. */
  guidelineRevision: zInt32(0, "guidelineRevision: expected a revision number (0 or more)").optional(),
});
export type TAdjudicationInput = z.input<typeof ZAdjudicationInput>;

export type TStanding = {
  grade: number;
  startSeconds: number | null;
  endSeconds: number | null;
  rationale: string;
  revision: number;
};
export type TAdjudicateResult = { applied: boolean; adjudication: Adjudication };

const standing = (a: Adjudication): TStanding => ({
  grade: a.grade,
  startSeconds: a.startSeconds,
  endSeconds: a.endSeconds,
  rationale: a.rationale,
  revision: a.revision,
});

/**
 * Decides an item whose annotators disagree, or disagreed at some point (disputed: the editing
 * rule of lib/labels/rule.ts keeps it waiting whatever later edits say). One decision per item (unique poolItemId): when two
 * adjudicators decide at once, the database keeps the first and the second receives
 * AppError("conflict", …, { standing }) with the decision that stands (HTTP 409). A retry with the
 * same idempotency key returns `applied: false` and the stored decision. Appends a LabelEvent.
 *
 * Revisions: with `revises: n` an adjudicator or lead replaces the decision that stands
 * when its revision is n; the row's revision becomes n + 1 and a LabelEvent (kind "adjudication",
 * before = the replaced decision, after = the new one) keeps every decision in the history. A stale
 * revision (another one came first) is a conflict carrying the decision that stands.
 * A grade-0 label has no start and no end: both are stored as null for a grade-0 decision. An end
 * must lie after the final start, or after the chunk's start when there is none: otherwise
 * `bad_input` naming endSeconds, and nothing is written.
 */
export async function adjudicate(db: Db, adjudicatorId: string, input: TAdjudicationInput): Promise<TAdjudicateResult> {
  const parsed = parsedInput(ZAdjudicationInput, input);
  const none = parsed.grade === 0;
  const data = {
    ...parsed,
    startSeconds: none ? null : parsed.startSeconds,
    endSeconds: none ? null : parsed.endSeconds,
  };

  const dup = await findApplied(db, data.poolItemId, data.idempotencyKey);
  if (dup) return dup;

  const user = await db.user.findUnique({ where: { id: adjudicatorId }, select: { role: true, active: true } });
  if (!user || !user.active || (user.role !== "adjudicator" && user.role !== "lead"))
    throw new AppError("forbidden", "only adjudicators and leads decide disagreements");
  const item = await db.poolItem.findUnique({
    where: { id: data.poolItemId },
    select: { projectId: true, chunk: { select: { startSeconds: true } } },
  });
  if (!item) throw new AppError("not_found", `no pool item ${data.poolItemId}`);
  const after = data.startSeconds ?? item.chunk.startSeconds;
  if (data.endSeconds !== null && !(data.endSeconds > after)) {
    const what = data.startSeconds === null ? "the chunk's start" : "the final start";
    throw new AppError(
      "bad_input",
      `endSeconds: expected the answer's end after ${what} (${after} s), got ${data.endSeconds} s`,
      [{ path: "endSeconds", message: `expected after ${after} s` }],
    );
  }
  const shown = data.guidelineRevision ?? null;
  if (shown !== null) {
    const current = await currentGuidelineRevision(db, item.projectId);
    if (shown > current) throw unknownRevisionError(shown, current);
  }
  const existing = await db.adjudication.findUnique({ where: { poolItemId: data.poolItemId } });
  if (data.revises !== undefined)
    return revise(db, adjudicatorId, item.projectId, existing, {
      ...data,
      revises: data.revises,
      guidelineRevision: shown,
    });
  if (existing) throw conflict(existing);
  const [settings, [labels]] = await Promise.all([
    ruleSettings(db, item.projectId),
    loadItemLabels(db, item.projectId, { poolItemIds: [data.poolItemId] }),
  ]);
  const state = itemDecision(labels.judgements, settings, labels.disputed).state;
  if (state !== "disagreed")
    throw new AppError(
      "conflict",
      state === "agreed"
        ? "the annotators of this item agree: nothing to adjudicate"
        : "this item is still waiting for its annotators' grades",
      { state },
    );

  try {
    const adjudication = await db.$transaction(async (tx) => {
      const created = await tx.adjudication.create({
        data: {
          poolItemId: data.poolItemId,
          adjudicatorId,
          grade: data.grade,
          startSeconds: data.startSeconds,
          endSeconds: data.endSeconds,
          rationale: data.rationale,
          guidelineRevision: shown,
        },
      });
      await tx.labelEvent.create({
        data: {
          projectId: item.projectId,
          poolItemId: data.poolItemId,
          actorId: adjudicatorId,
          kind: "adjudication",
          before: JSON.stringify({
            labels: labels.judgements.map((j) => ({
              grade: j.grade,
              startSeconds: j.startSeconds,
              endSeconds: j.endSeconds,
            })),
          }),
          after: JSON.stringify(standing(created)),
          idempotencyKey: data.idempotencyKey,
        },
      });
      return created;
    });
    return { applied: true, adjudication };
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const raced = await findApplied(db, data.poolItemId, data.idempotencyKey);
    if (raced) return raced;
    const winner = await db.adjudication.findUnique({ where: { poolItemId: data.poolItemId } });
    if (winner) throw conflict(winner);
    throw e;
  }
}

/** A checked decision that revises the one standing (`revises` given; the guidelines revision shown, or null). */
type TRevision = Omit<z.output<typeof ZAdjudicationInput>, "revises" | "guidelineRevision"> & {
  revises: number;
  guidelineRevision: number | null;
};

/** Replaces the decision that stands when it is still revision `revises` (a conditional update: two revisers, one wins). */
async function revise(
  db: Db,
  adjudicatorId: string,
  projectId: number,
  existing: Adjudication | null,
  data: TRevision,
): Promise<TAdjudicateResult> {
  if (!existing) throw new AppError("conflict", "this item has no decision to revise", { standing: null });
  if (existing.revision !== data.revises)
    throw conflict(
      existing,
      `revision ${data.revises} no longer stands: revision ${existing.revision} was decided since`,
    );
  try {
    const adjudication = await db.$transaction(async (tx) => {
      const changed = await tx.adjudication.updateMany({
        where: { poolItemId: data.poolItemId, revision: data.revises },
        data: {
          adjudicatorId,
          grade: data.grade,
          startSeconds: data.startSeconds,
          endSeconds: data.endSeconds,
          rationale: data.rationale,
          revision: data.revises + 1,
          guidelineRevision: data.guidelineRevision,
        },
      });
      const now = await tx.adjudication.findUniqueOrThrow({ where: { poolItemId: data.poolItemId } });
      if (changed.count !== 1)
        throw conflict(now, `revision ${data.revises} no longer stands: revision ${now.revision} was decided since`);
      await tx.labelEvent.create({
        data: {
          projectId,
          poolItemId: data.poolItemId,
          actorId: adjudicatorId,
          kind: "adjudication",
          before: JSON.stringify(standing(existing)),
          after: JSON.stringify(standing(now)),
          idempotencyKey: data.idempotencyKey,
        },
      });
      return now;
    });
    return { applied: true, adjudication };
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const raced = await findApplied(db, data.poolItemId, data.idempotencyKey);
    if (raced) return raced;
    throw e;
  }
}

function conflict(a: Adjudication, message = "this item has already been decided"): AppError {
  return new AppError("conflict", message, { standing: standing(a) });
}

async function findApplied(db: Db, poolItemId: string, key: string): Promise<TAdjudicateResult | null> {
  const event = await db.labelEvent.findUnique({
    where: { idempotencyKey: key },
    select: { poolItemId: true, kind: true },
  });
  if (!event) return null;
  if (event.poolItemId !== poolItemId || event.kind !== "adjudication")
    throw new AppError("conflict", "this idempotency key was already used for a different submission");
  const adjudication = await db.adjudication.findUnique({ where: { poolItemId } });
  if (!adjudication) throw new AppError("not_found", "the decision recorded under this key no longer exists");
  return { applied: false, adjudication };
}
