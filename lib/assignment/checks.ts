import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { bulkTransaction, insertStamped } from "../db/bulk.ts";
import { rollbackIf, withDryRun } from "../db/dry-run.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ASSIGNMENT_COLUMNS, assignmentLoad, balance, resolveAnnotators } from "./balance.ts";
import { mulberry32, randomSeed, shuffle } from "../stats/random.ts";
import { loadItemLabels, ruleSettings } from "../labels/load.ts";
import { finalLabel } from "../labels/reference.ts";
import { assertGradingOpen } from "../projects/grading.ts";
import { field, say } from "../terms.ts";

/**
 * Hidden check items: a share of the pool items whose reference is settled (agreed, or
 * adjudicated) served again to annotators who have not seen them, to measure each annotator's
 * accuracy against the reference (lib/annotators/checks.ts).
 *
 * To the annotator a check item is an ordinary assignment: the same pool item id (a random
 * UUID), an `orderKey` drawn like every other (lib/assignment/balance.ts), the same queue, page
 * and responses. Only `Assignment.checkItem` marks it, which no annotator route reads; their
 * grade is written to CheckJudgement (lib/labels/submit-check.ts), so it never changes the
 * reference, the agreement figures, the adjudication queue or the exports.
 */

export type TCheckOptions = {
  /** The share of settled items to be check items, in (0, 1]. */
  share: number;
  annotators?: string[];
  seed?: number;
  dryRun?: boolean;
};

export type TCheckResult = {
  seed: number;
  share: number;
  /** Pool items with a settled reference (agreed or adjudicated). */
  settled: number;
  /** round(share × settled): how many check items the project should have. */
  target: number;
  /** Check items before this call. */
  existing: number;
  /** New check items, each assigned to one annotator. */
  created: number;
  /** Check items short of the target: settled items with no annotator left who has not seen them. */
  shortfall: number;
  dryRun: boolean;
  annotators: { email: string; added: number; total: number }[];
};

/** The share given to `--checks`: a number in (0, 1]. */
export function checkShare(share: number): number {
  if (!Number.isFinite(share) || share <= 0 || share > 1)
    throw new AppError("bad_input", say`${field("checks")}: expected a share in (0, 1], e.g. 0.05, got ${share}`, [
      { path: "checks", message: "expected a share in (0, 1]" },
    ]);
  return share;
}

/**
 * Marks check items until round(share × settled) of the settled items are check items (items
 * already marked count, so running it again adds only what is missing) and assigns each new one
 * to one annotator who has neither an assignment nor a grade on it: the least loaded in the
 * project first, ties at random (`balance`). Items are drawn in a random order; all randomness
 * comes from `seed`.
 */
export async function assignChecks(db: Db, projectId: number, opts: TCheckOptions): Promise<TCheckResult> {
  const share = checkShare(opts.share);
  await assertGradingOpen(db, projectId);
  const seed = opts.seed ?? randomSeed();
  const rng = mulberry32(seed);
  const annotators = await resolveAnnotators(db, opts.annotators);
  const [settings, items] = await Promise.all([ruleSettings(db, projectId), loadItemLabels(db, projectId)]);
  // Settled: a final label made here (agreed or adjudicated); imported labels are not a reference of this project's grading.
  const settled = items
    .filter((it) => finalLabel(it, settings) !== null)
    .map((it) => ({ id: it.id, graders: it.judgements.map((j) => j.userId) }));
  const target = Math.round(share * settled.length);

  try {
    return await withDryRun(
      bulkTransaction(db, async (tx) => {
        const existingRows = await tx.all<{ poolItemId: string; userId: string; checkItem: unknown }>(
          `SELECT a."poolItemId", a."userId", a."checkItem" FROM "Assignment" a JOIN "PoolItem" p ON p."id" = a."poolItemId" WHERE p."projectId" = ?`,
          [projectId],
        );
        const checkIds = new Set(existingRows.filter((r) => Boolean(Number(r.checkItem))).map((r) => r.poolItemId));
        const { assignedTo, load } = assignmentLoad(
          existingRows.map((a) => ({ itemId: a.poolItemId, userId: a.userId })),
          annotators,
        );
        // Who has seen an item: assigned to it, or graded it (an assignment released after a grade).
        const seen = new Map<string, Set<string>>();
        for (const it of settled) seen.set(it.id, new Set([...(assignedTo.get(it.id) ?? []), ...it.graders]));
        const existing = settled.filter((it) => checkIds.has(it.id)).length;
        const wanted = Math.max(0, target - existing);
        const candidates = shuffle(
          settled.filter((it) => !checkIds.has(it.id)),
          rng,
        ).filter((it) => annotators.some((a) => !seen.get(it.id)?.has(a.id)));
        const chosen = candidates.slice(0, wanted);
        // One new annotator per item, whoever has seen it already (`balance` tops an item up to
        // perItem annotators, so perItem is what it has plus one); `load` carries over item to item.
        const balanced = {
          rows: [] as { itemId: string; userId: string; orderKey: number }[],
          added: new Map<string, number>(),
        };
        for (const it of chosen) {
          const had = seen.get(it.id) ?? new Set<string>();
          const one = balance([it], annotators, { assignedTo: seen, load }, had.size + 1, rng);
          balanced.rows.push(...one.rows);
          for (const [id, n] of one.added) balanced.added.set(id, (balanced.added.get(id) ?? 0) + n);
        }
        // checkItem: 1 is SQLite's stored true and a boolean literal PostgreSQL's cast reads.
        await insertStamped(
          tx,
          "Assignment",
          [...ASSIGNMENT_COLUMNS, { name: "checkItem", type: "int", pgType: "boolean" }],
          balanced.rows.map((r) => [r.itemId, r.userId, r.orderKey, 1]),
        );
        return rollbackIf(opts.dryRun, {
          seed,
          share,
          settled: settled.length,
          target,
          existing,
          created: balanced.rows.length,
          shortfall: wanted - balanced.rows.length,
          dryRun: opts.dryRun ?? false,
          annotators: annotators.map((a) => ({
            email: a.email,
            added: balanced.added.get(a.id) ?? 0,
            total: load.get(a.id) ?? 0,
          })),
        });
      }),
    );
  } catch (e) {
    if (isUniqueViolation(e))
      throw new AppError("conflict", "assignments were changed by another command at the same time; run assign again");
    throw e;
  }
}

export type TCheckStatus = { items: number; assigned: number; graded: number };

/** For the lead (`assessor status`): check items, their assignments, and how many were graded. */
export async function checkStatus(db: Db, projectId: number): Promise<TCheckStatus> {
  const [assignments, graded] = await Promise.all([
    db.assignment.findMany({
      where: { checkItem: true, poolItem: { projectId } },
      select: { poolItemId: true },
    }),
    db.checkJudgement.count({ where: { poolItem: { projectId } } }),
  ]);
  return { items: new Set(assignments.map((a) => a.poolItemId)).size, assigned: assignments.length, graded };
}
