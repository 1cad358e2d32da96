import type { Db } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";
import { annotatorsFor, assignmentLoad, balance, checkPerItem } from "../assignment/balance.ts";
import { mulberry32, randomSeed, shuffle } from "../stats/random.ts";
import { assertGradingOpen } from "../projects/grading.ts";
import { action, say } from "../terms.ts";

export type TAssignAnswersOptions = {
  /** Annotator emails (default: every active annotator). */
  annotators?: string[];
  /** Annotators per answer (default: the project's annotatorsPerItem). */
  perItem?: number;
  /** Only this system's answers (or these systems'). */
  system?: string | readonly string[];
  /** Only the answers to these questions (a decision's drawn questions: lib/decisions/draw.ts). */
  questions?: readonly number[];
  seed?: number;
  /** Compute the assignment and write nothing (the preview); with `seed` the confirmed call does exactly what it showed. */
  dryRun?: boolean;
};

export type TAssignAnswersResult = {
  seed: number;
  perItem: number;
  /** Answers this call worked on. */
  answers: number;
  /** Answers that received at least one new assignment. */
  answersToppedUp: number;
  created: number;
  /** Answers still short of perItem because too few eligible annotators were left. */
  shortfall: number;
  dryRun: boolean;
  annotators: { email: string; added: number; total: number }[];
};

/**
 * Assigns generated answers to annotators, as lib/assignment/assign.ts assigns pool
 * items:
 * - every targeted answer is topped up to `perItem` distinct annotators; existing assignments (of
 *   anyone) count, so running it again adds only what is missing;
 * - each new assignment goes to the eligible annotator with the fewest answer assignments in the
 *   project so far (ties at random): from equal loads everyone stays within 1 of everyone else;
 * - each assignment gets a random `orderKey` (the annotator's order of answers);
 * - all randomness comes from `seed` (mulberry32; random when not given, returned).
 * Answers are visited in a random order (so a shortfall does not fall on one system or question).
 */
export async function assignAnswers(
  db: Db,
  projectId: number,
  opts: TAssignAnswersOptions = {},
): Promise<TAssignAnswersResult> {
  const project = await db.project.findUnique({ where: { id: projectId }, select: { annotatorsPerItem: true } });
  if (!project) throw new AppError("not_found", `no project ${projectId}`);
  const perItem = opts.perItem ?? project.annotatorsPerItem;
  checkPerItem(perItem);
  await assertGradingOpen(db, projectId);
  const seed = opts.seed ?? randomSeed();
  const rng = mulberry32(seed);
  const annotators = await annotatorsFor(db, perItem, opts.annotators);
  const answers = await db.answer.findMany({
    where: {
      projectId,
      ...(opts.system === undefined
        ? {}
        : { system: typeof opts.system === "string" ? opts.system : { in: [...opts.system] } }),
      ...(opts.questions === undefined ? {} : { queryId: { in: [...opts.questions] } }),
    },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  if (answers.length === 0) {
    throw new AppError(
      "bad_input",
      opts.system === undefined
        ? say`the project has no answers: import them first with: ${action("importAnswers")}`
        : typeof opts.system === "string"
          ? `no answers of system "${opts.system}" in the project`
          : `no answers of systems ${opts.system.join(", ")} in the project${opts.questions ? " on these questions" : ""}`,
    );
  }
  const existing = await db.answerAssignment.findMany({
    where: { answer: { projectId } },
    select: { answerId: true, userId: true },
  });
  const { assignedTo, load } = assignmentLoad(
    existing.map((a) => ({ itemId: a.answerId, userId: a.userId })),
    annotators,
  );

  const balanced = balance(shuffle(answers, rng), annotators, { assignedTo, load }, perItem, rng);
  const { added, shortfall } = balanced;
  const toppedUp = balanced.toppedUp.length;
  const rows = balanced.rows.map((r) => ({ answerId: r.itemId, userId: r.userId, orderKey: r.orderKey }));
  if (!opts.dryRun && rows.length > 0) {
    try {
      await db.$transaction(async (tx) => {
        for (let i = 0; i < rows.length; i += 1000)
          await tx.answerAssignment.createMany({ data: rows.slice(i, i + 1000) });
      });
    } catch (e) {
      if (isUniqueViolation(e))
        throw new AppError(
          "conflict",
          "answer assignments were changed by another command at the same time; run assign again",
        );
      throw e;
    }
  }
  return {
    seed,
    perItem,
    answers: answers.length,
    answersToppedUp: toppedUp,
    created: rows.length,
    shortfall,
    dryRun: opts.dryRun === true,
    annotators: annotators.map((a) => ({ email: a.email, added: added.get(a.id) ?? 0, total: load.get(a.id) ?? 0 })),
  };
}
