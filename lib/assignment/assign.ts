import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { bulkTransaction, insertStamped } from "../db/bulk.ts";
import { rollbackIf, withDryRun } from "../db/dry-run.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { ASSIGNMENT_COLUMNS, annotatorsFor, assignmentLoad, balance, checkPerItem } from "./balance.ts";
import { mulberry32, randomSeed, shuffle } from "../stats/random.ts";
import { referenceLabels } from "../labels/reference.ts";
import { calibrationSample, judgeStratumGrade, type TCalibrationCounts } from "./sample.ts";
import { assertGradingOpen } from "../projects/grading.ts";
import { field, say } from "../terms.ts";
import { auditTargets, queryTags, sampleWholeQuestions, transferGrades, unstableOfRun } from "./targets.ts";

export type TAssignOptions = {
  perItem: number;
  annotators?: string[];
  sample?: number;
  /** Whole-question calibration sample: N questions, every pooled item of each (lib/assignment/questions.ts). */
  sampleQueries?: number;
  /** Whole questions chosen by the caller (a decision's draw, lib/decisions): every pooled item of each not yet final, topped up to perItem. */
  questions?: number[];
  /** With `questions`: of a question named here, only these chunks' pool items (a decision's discriminating pairs). */
  questionChunks?: Record<string, number[]>;
  /** With `sample` or `sampleQueries`: draw only from items whose query has one of these tags (to fill thin slices). */
  tags?: string[];
  /**
   * With `sample`: the pairs whose samples disagree in this judge run (test–retest, `--samples N`)
   * are taken first, in random order, before the calibration scheme fills the rest: where the
   * model is unsure of itself is where human labels teach the most.
   */
  unstableFrom?: string;
  /**
   * With `sample`: the audit sample of label transfer onto this chunking (lib/assignment/audit.ts):
   * N pairs with a transfer label (judges `transfer:X->NAME`), stratified by derived grade; their
   * pool items are created when missing and assigned like any other.
   */
  chunking?: string;
  /**
   * Also assign pool items that already have an imported reference label (any source), to re-grade
   * them (a calibration of the old labels). Without it they are left out: an imported human label
   * is a reference label, so the item needs no annotation.
   */
  includeLabelled?: boolean;
  seed?: number;
  /** Compute everything in the transaction, then roll it back (the preview; lib/db/dry-run.ts). With `seed` the confirmed call does exactly what the preview showed. */
  dryRun?: boolean;
};
export type TAssignResult = {
  seed: number;
  perItem: number;
  /** Pool items this call worked on (all of them, or the calibration sample). */
  items: number;
  /** Items that received at least one new assignment. */
  itemsToppedUp: number;
  created: number;
  calibration: number;
  /** With `sampleQueries`: the questions sampled. */
  questions: number;
  /** With `unstableFrom`: the sampled items that were unstable pairs of that run. */
  unstable: number;
  /** With `chunking`: the sampled pairs per derived grade, and the pool items created for them. */
  audit?: { byGrade: Record<number, number>; newItems: number; judges: string[] };
  /** Items still short of perItem because too few eligible annotators were left. */
  shortfall: number;
  /** Pool items left out because they have an imported reference label (0 with `includeLabelled`). */
  labelledSkipped: number;
  annotators: { email: string; added: number; total: number }[];
};

/**
 * Assigns pool items to annotators.
 *
 * - Every targeted item is topped up to `perItem` distinct annotators; existing assignments (of
 *   anyone) count, so running it again adds nothing, and nobody is assigned an item twice.
 * - Load is balanced over the project: each new assignment goes to the eligible annotator with
 *   the fewest assignments in this project so far (ties broken at random). Starting from equal
 *   loads this keeps every annotator within 1 of every other; with unequal existing loads it
 *   closes the gap as fast as possible.
 * - Each assignment gets a random `orderKey`, which fixes that annotator's order of items
 *   within a query (lib/annotate sorts by it).
 * - `sample: N` picks a calibration subset of N items that have no assignment yet, the grades and
 *   query tags short of the project's minimum per grade first (lib/assignment/sample.ts describes
 *   the scheme; calibrationCounts what counts as had) and marks their assignments
 *   `calibration`. With `tags` as well, only items of queries with one of those tags are drawn.
 *   Without `sample`, every pool item is targeted.
 * - Pool items with an imported reference label are left out (they are labelled already) unless
 *   `includeLabelled`; their count is `labelledSkipped`.
 * - Default annotators: every active user with the annotator role.
 * All randomness comes from `seed` (random when not given; returned so a run can be repeated).
 */
export async function assign(db: Db, projectId: number, opts: TAssignOptions): Promise<TAssignResult> {
  const { perItem } = opts;
  checkPerItem(perItem);
  if (opts.tags?.length && opts.sample === undefined && opts.sampleQueries === undefined)
    throw new AppError(
      "bad_input",
      say`${field("tags")} only applies with ${field("sample")} or ${field("sampleQueries")}`,
    );
  if (opts.sample !== undefined && opts.sampleQueries !== undefined)
    throw new AppError(
      "bad_input",
      say`${field("sample")} (items) and ${field("sampleQueries")} (whole questions) do not go together: choose one`,
    );
  for (const [name, v] of [
    ["sample", opts.sample],
    ["sampleQueries", opts.sampleQueries],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1))
      throw new AppError("bad_input", say`${field(name)}: expected a whole number ≥ 1, got ${v}`);
  }
  if (opts.unstableFrom !== undefined && opts.sample === undefined)
    throw new AppError(
      "bad_input",
      say`${field("unstableFirst")} applies with ${field("sample")} (a calibration sample of items)`,
    );
  if (opts.chunking !== undefined && (opts.sample === undefined || opts.unstableFrom !== undefined))
    throw new AppError(
      "bad_input",
      say`${field("chunking")} applies with ${field("sample", "N")} (the audit sample of label transfer onto that chunking), without ${field("unstableFirst")}`,
    );
  await assertGradingOpen(db, projectId);
  const seed = opts.seed ?? randomSeed();
  if (
    opts.questions !== undefined &&
    (opts.sample !== undefined || opts.sampleQueries !== undefined || opts.chunking !== undefined)
  )
    throw new AppError(
      "bad_input",
      say`a decision's questions are assigned on their own: without ${field("sample")}, ${field("sampleQueries")} or ${field("chunking")}`,
    );
  const calibration = opts.sample !== undefined || opts.sampleQueries !== undefined || opts.questions !== undefined;
  const rng = mulberry32(seed);

  const annotators = await annotatorsFor(db, perItem, opts.annotators);
  // For a sample: the final human labels and the minimum per grade (read before the write
  // transaction, which SQLite holds alone).
  const calibrationBasis = calibration
    ? {
        finals: await referenceLabels(db, projectId),
        minPerGrade:
          (await db.project.findUnique({ where: { id: projectId }, select: { minPerGrade: true } }))?.minPerGrade ?? 0,
      }
    : null;

  const unstable = opts.unstableFrom !== undefined ? await unstableOfRun(db, projectId, opts.unstableFrom) : null;
  const transfer = opts.chunking !== undefined ? await transferGrades(db, projectId, opts.chunking) : null;

  try {
    return await withDryRun(
      bulkTransaction(db, async (tx) => {
        const pid = projectId;
        const labelledPairs = new Set(
          (
            await tx.all<{ queryId: number; chunkId: number }>(
              `SELECT DISTINCT "queryId", "chunkId" FROM "ReferenceLabel" WHERE "projectId" = ?`,
              [pid],
            )
          ).map((r) => `${Number(r.queryId)}:${Number(r.chunkId)}`),
        );
        const pooled = (
          await tx.all<{ id: string; queryId: number; chunkId: number }>(
            `SELECT "id", "queryId", "chunkId" FROM "PoolItem" WHERE "projectId" = ? AND "queryId" IN (SELECT "id" FROM "Query" WHERE "projectId" = ? AND "status" = 'accepted')`,
            [pid, pid],
          )
        ).map((r) => ({
          id: r.id,
          queryId: Number(r.queryId),
          chunkId: Number(r.chunkId),
        }));
        if (pooled.length === 0 && !transfer)
          throw new AppError("bad_input", "the pool is empty: build it first with: npx assessor pool --depth K");
        const items = opts.includeLabelled
          ? pooled
          : pooled.filter((it) => !labelledPairs.has(`${it.queryId}:${it.chunkId}`));
        const labelledSkipped = pooled.length - items.length;
        if (items.length === 0 && pooled.length > 0 && !transfer)
          throw new AppError(
            "bad_input",
            say`every one of the ${pooled.length} pooled item(s) has an imported reference label, so none needs annotation: to re-grade them (a calibration of the old labels), assign with ${field("includeLabelled")}`,
          );
        const existing = await tx.all<{ poolItemId: string; userId: string }>(
          `SELECT a."poolItemId", a."userId" FROM "Assignment" a JOIN "PoolItem" p ON p."id" = a."poolItemId" WHERE p."projectId" = ?`,
          [pid],
        );
        const { assignedTo, load } = assignmentLoad(
          existing.map((a) => ({ itemId: a.poolItemId, userId: a.userId })),
          annotators,
        );

        let targets: { id: string }[];
        let questions = 0;
        let unstableTaken = 0;
        let audit: TAssignResult["audit"];
        if (transfer && opts.sample !== undefined && calibrationBasis) {
          const sampled = await auditTargets(
            tx,
            projectId,
            items,
            assignedTo,
            calibrationBasis.finals,
            transfer,
            opts.sample,
            opts.tags,
            rng,
          );
          targets = sampled.targets;
          audit = { byGrade: sampled.byGrade, newItems: sampled.newItems, judges: transfer.judges };
        } else if (opts.questions !== undefined && calibrationBasis) {
          const wanted = new Set(opts.questions);
          const only = new Map(Object.entries(opts.questionChunks ?? {}).map(([q, cs]) => [Number(q), new Set(cs)]));
          const final = new Set(calibrationBasis.finals.map((f) => `${f.queryId}:${f.chunkId}`));
          const chosen = items.filter(
            (it) =>
              wanted.has(it.queryId) &&
              (only.get(it.queryId)?.has(it.chunkId) ?? true) &&
              !final.has(`${it.queryId}:${it.chunkId}`) &&
              (assignedTo.get(it.id)?.size ?? 0) < perItem,
          );
          targets = chosen;
          questions = new Set(chosen.map((t) => t.queryId)).size;
        } else if (opts.sampleQueries !== undefined && calibrationBasis) {
          const sampled = await sampleWholeQuestions(
            tx,
            pid,
            items,
            assignedTo,
            calibrationBasis.finals,
            perItem,
            opts.sampleQueries,
            opts.tags,
            rng,
          );
          targets = sampled.targets;
          questions = sampled.questions;
        } else if (opts.sample !== undefined && calibrationBasis) {
          const judge = await tx.all<{ queryId: number; chunkId: number; grade: number }>(
            `SELECT "queryId", "chunkId", "grade" FROM "JudgeLabel" WHERE "projectId" = ?`,
            [pid],
          );
          const judgeGrades = new Map<string, number[]>();
          for (const j of judge) {
            const key = `${Number(j.queryId)}:${Number(j.chunkId)}`;
            const list = judgeGrades.get(key);
            if (list) list.push(Number(j.grade));
            else judgeGrades.set(key, [Number(j.grade)]);
          }
          const tagsOf = await queryTags(tx, pid);
          const wanted = opts.tags?.length ? new Set(opts.tags) : null;
          const gradeOf = (it: { queryId: number; chunkId: number }) =>
            judgeStratumGrade(judgeGrades.get(`${it.queryId}:${it.chunkId}`) ?? []);
          const candidates = items
            .filter(
              (it) =>
                !assignedTo.has(it.id) &&
                (wanted === null || (tagsOf.get(it.queryId) ?? []).some((t) => wanted.has(t))),
            )
            .map((it) => ({
              id: it.id,
              queryId: it.queryId,
              judgeGrade: gradeOf(it),
              tags: tagsOf.get(it.queryId) ?? [],
            }));
          const counts = calibrationCounts(
            calibrationBasis.finals,
            calibrationBasis.minPerGrade,
            items.filter((it) => assignedTo.has(it.id)),
            gradeOf,
            tagsOf,
          );
          if (unstable) {
            const unstableIds = new Set(
              items.filter((it) => unstable.has(`${it.queryId}:${it.chunkId}`)).map((it) => it.id),
            );
            const first = shuffle(
              candidates.filter((c) => unstableIds.has(c.id)),
              rng,
            ).slice(0, opts.sample);
            const taken = new Set(first.map((c) => c.id));
            unstableTaken = first.length;
            targets = [
              ...first,
              ...calibrationSample(
                candidates.filter((c) => !taken.has(c.id)),
                opts.sample - first.length,
                rng,
                counts,
              ),
            ];
          } else targets = calibrationSample(candidates, opts.sample, rng, counts);
        } else {
          targets = shuffle(
            items.sort((a, b) => (a.id < b.id ? -1 : 1)),
            rng,
          );
        }

        const balanced = balance(targets, annotators, { assignedTo, load }, perItem, rng);
        const { added, toppedUp: toppedUpIds, shortfall } = balanced;
        const rows = balanced.rows.map((r): [string, string, number] => [r.itemId, r.userId, r.orderKey]);

        // In (poolItemId, userId) order, the unique index's B-tree inserts land next to each other.
        rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
        // `calibration` defaults to false and is set below for a sample.
        await insertStamped(tx, "Assignment", ASSIGNMENT_COLUMNS, rows);
        if (calibration) {
          // Sampled items had no assignment before this call, so every assignment of theirs is new.
          for (let i = 0; i < toppedUpIds.length; i += 500) {
            const batch = toppedUpIds.slice(i, i + 500);
            await tx.run(
              `UPDATE "Assignment" SET "calibration" = TRUE WHERE "poolItemId" IN (${batch.map(() => "?").join(", ")})`,
              batch,
            );
          }
        }
        return rollbackIf(opts.dryRun, {
          seed,
          perItem,
          items: targets.length,
          itemsToppedUp: toppedUpIds.length,
          created: rows.length,
          calibration: calibration ? rows.length : 0,
          questions,
          unstable: unstableTaken,
          ...(audit ? { audit } : {}),
          shortfall,
          labelledSkipped,
          annotators: annotators.map((a) => ({
            email: a.email,
            added: added.get(a.id) ?? 0,
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

/**
 * What calibration already has, per grade, overall and per query tag: every final human label at
 * its grade, and every assigned pool item without one at its judge grade (it is on its way to a
 * human label; with no judge grade it counts nowhere).
 */
export function calibrationCounts(
  finals: readonly { queryId: number; chunkId: number; grade: number }[],
  minPerGrade: number,
  assigned: readonly { queryId: number; chunkId: number }[],
  judgeGrade: (item: { queryId: number; chunkId: number }) => number | null,
  tagsOf: ReadonlyMap<number, readonly string[]>,
): TCalibrationCounts {
  const overall = [0, 0, 0, 0];
  const byTag = new Map<string, number[]>();
  const add = (queryId: number, grade: number | null) => {
    if (grade === null || grade < 0 || grade > 3) return;
    overall[grade]++;
    for (const tag of new Set(tagsOf.get(queryId) ?? [])) {
      let row = byTag.get(tag);
      if (!row) byTag.set(tag, (row = [0, 0, 0, 0]));
      row[grade]++;
    }
  };
  const final = new Set<string>();
  for (const f of finals) {
    final.add(`${f.queryId}:${f.chunkId}`);
    add(f.queryId, f.grade);
  }
  for (const it of assigned) if (!final.has(`${it.queryId}:${it.chunkId}`)) add(it.queryId, judgeGrade(it));
  return { minPerGrade, overall, byTag };
}
