import type { Db } from "../db/client.ts";
import { assertGradingOpen } from "../projects/grading.ts";
import { currentGuidelineRevision } from "../projects/guidelines.ts";
import { mulberry32, randomSeed, shuffle } from "../stats/random.ts";

export type TRegradeResult = {
  seed: number;
  /** The current guidelines revision. */
  revision: number;
  /** Pool items with a grade under an older revision not yet sent back. */
  items: number;
  /** Of them, the items sent back (all, or the `sample`). */
  chosen: number;
  /** Grades sent back: each annotator of a chosen item whose grade is older sees the item as to do again. */
  requested: number;
  annotators: { email: string; requested: number }[];
};

/**
 * Sends grades made under older guidelines back to their annotators for a second look
 * (`assessor assign --regrade-older-guidelines [--sample N] [--seed S]`): on each chosen item,
 * every assignment whose grade names a revision below the current one gets `regradeRequestedAt`,
 * which opens the item again in that annotator's queue (lib/annotate/queue.ts) until they submit
 * it (lib/labels/submit.ts clears it and records the revision shown). Nothing is deleted: the
 * grade stays the reference until it is re-submitted, and the LabelEvent log keeps both grades.
 * With `sample`, N of the eligible items drawn uniformly at random (Fisher–Yates on the items in
 * id order, mulberry32 from `seed`). Blind: whether an annotator is asked depends only on the
 * revision of their own grade and the draw, never on a peer's grade.
 */
export function requestRegrade(
  db: Db,
  projectId: number,
  opts: { sample?: number; seed?: number; now?: Date } = {},
): Promise<TRegradeResult> {
  return sendBack(db, projectId, opts, {
    older: async (revision) =>
      (
        await db.judgement.findMany({
          where: { poolItem: { projectId }, guidelineRevision: { lt: revision } },
          select: { poolItemId: true, userId: true },
        })
      ).map((j) => ({ item: j.poolItemId, userId: j.userId })),
    pending: async () =>
      (
        await db.assignment.findMany({
          where: { poolItem: { projectId }, regradeRequestedAt: null },
          select: { id: true, poolItemId: true, userId: true, user: { select: { email: true } } },
        })
      ).map((a) => ({ id: a.id, item: a.poolItemId, userId: a.userId, email: a.user.email })),
    mark: (ids, now) =>
      db.assignment.updateMany({
        where: { id: { in: ids }, regradeRequestedAt: null },
        data: { regradeRequestedAt: now },
      }),
  });
}

/**
 * The same for answer labels (`assessor assign --answers --regrade-older-guidelines`): each chosen
 * answer's labels recorded under a revision below the current one open the answer again in their
 * annotators' queues (AnswerAssignment.regradeRequestedAt, lib/answers/view.ts) until they submit
 * it (lib/answers/submit.ts clears it and records the revision shown). Items are answers.
 */
export function requestAnswerRegrade(
  db: Db,
  projectId: number,
  opts: { sample?: number; seed?: number; now?: Date } = {},
): Promise<TRegradeResult> {
  return sendBack(db, projectId, opts, {
    older: async (revision) =>
      (
        await db.answerJudgement.findMany({
          where: { answer: { projectId }, guidelineRevision: { lt: revision } },
          select: { answerId: true, userId: true },
        })
      ).map((j) => ({ item: j.answerId, userId: j.userId })),
    pending: async () =>
      (
        await db.answerAssignment.findMany({
          where: { answer: { projectId }, regradeRequestedAt: null },
          select: { id: true, answerId: true, userId: true, user: { select: { email: true } } },
        })
      ).map((a) => ({ id: a.id, item: a.answerId, userId: a.userId, email: a.user.email })),
    mark: (ids, now) =>
      db.answerAssignment.updateMany({
        where: { id: { in: ids }, regradeRequestedAt: null },
        data: { regradeRequestedAt: now },
      }),
  });
}

/**
 * What both share: the grading must be open; of the assignments not sent back yet, those whose own label is older; the
 * items drawn (all, or `sample` of them: Fisher–Yates on the items in id order, mulberry32 from
 * `seed`); the assignments of the chosen items marked, in batches (a statement's parameters are
 * bounded: SQLite 32,766).
 */
async function sendBack(
  db: Db,
  projectId: number,
  opts: { sample?: number; seed?: number; now?: Date },
  read: {
    /** The labels recorded under a revision below `revision`: item and annotator. */
    older: (revision: number) => Promise<{ item: string; userId: string }[]>;
    /** The assignments not sent back yet. */
    pending: () => Promise<{ id: number; item: string; userId: string; email: string }[]>;
    mark: (ids: number[], now: Date) => Promise<unknown>;
  },
): Promise<TRegradeResult> {
  await assertGradingOpen(db, projectId);
  const revision = await currentGuidelineRevision(db, projectId);
  const [older, pending] = await Promise.all([read.older(revision), read.pending()]);
  const seed = opts.seed ?? randomSeed();
  const olderKeys = new Set(older.map((j) => `${j.item}\u0000${j.userId}`));
  const eligible = pending.filter((a) => olderKeys.has(`${a.item}\u0000${a.userId}`));
  const items = [...new Set(eligible.map((a) => a.item))].sort();
  const chosen = new Set(
    opts.sample === undefined ? items : shuffle([...items], mulberry32(seed)).slice(0, opts.sample),
  );
  const send = eligible.filter((a) => chosen.has(a.item));
  const now = opts.now ?? new Date();
  for (let i = 0; i < send.length; i += 1000)
    await read.mark(
      send.slice(i, i + 1000).map((a) => a.id),
      now,
    );
  const perAnnotator = new Map<string, number>();
  for (const a of send) perAnnotator.set(a.email, (perAnnotator.get(a.email) ?? 0) + 1);
  return {
    seed,
    revision,
    items: items.length,
    chosen: chosen.size,
    requested: send.length,
    annotators: [...perAnnotator]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([email, requested]) => ({ email, requested })),
  };
}
