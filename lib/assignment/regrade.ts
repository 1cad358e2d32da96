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
export async function requestRegrade(
  db: Db,
  projectId: number,
  opts: { sample?: number; seed?: number; now?: Date } = {},
): Promise<TRegradeResult> {
  await assertGradingOpen(db, projectId);
  const seed = opts.seed ?? randomSeed();
  const revision = await currentGuidelineRevision(db, projectId);
  const older = await db.judgement.findMany({
    where: { poolItem: { projectId }, guidelineRevision: { lt: revision } },
    select: { poolItemId: true, userId: true },
  });
  const olderKeys = new Set(older.map((j) => `${j.poolItemId}\u0000${j.userId}`));
  const pending = (
    await db.assignment.findMany({
      where: { poolItem: { projectId }, regradeRequestedAt: null },
      select: { id: true, poolItemId: true, userId: true, user: { select: { email: true } } },
    })
  ).filter((a) => olderKeys.has(`${a.poolItemId}\u0000${a.userId}`));
  const items = [...new Set(pending.map((a) => a.poolItemId))].sort();
  const chosen = new Set(
    opts.sample === undefined ? items : shuffle([...items], mulberry32(seed)).slice(0, opts.sample),
  );
  const send = pending.filter((a) => chosen.has(a.poolItemId));
  const now = opts.now ?? new Date();
  // In batches: a statement's parameters are bounded (SQLite 32,766).
  for (let i = 0; i < send.length; i += 1000)
    await db.assignment.updateMany({
      where: { id: { in: send.slice(i, i + 1000).map((a) => a.id) }, regradeRequestedAt: null },
      data: { regradeRequestedAt: now },
    });
  const perAnnotator = new Map<string, number>();
  for (const a of send) perAnnotator.set(a.user.email, (perAnnotator.get(a.user.email) ?? 0) + 1);
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
