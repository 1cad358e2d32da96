/**
 * A decision's next batch (`assign --decision`, the Decisions card's button): questions drawn with
 * the probabilities frozen at creation, their pairs to label assigned blind and balanced.
 */
import { assignAnswers } from "../answers/assign.ts";
import { assign, type TAssignResult } from "../assignment/assign.ts";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { inclusionProbabilities, systematicSample } from "../stats/active.ts";
import { seededRng } from "../stats/random.ts";
import { field, say } from "../terms.ts";
import { isAnswerMeasure } from "./answers.ts";
import { findDecision } from "./store.ts";

/** What a batch assigned: pool items (runs) or answers (generators). */
export type TDrawAssignment = Pick<
  TAssignResult,
  "seed" | "perItem" | "itemsToppedUp" | "created" | "shortfall" | "annotators"
>;

export type TDrawResult = {
  look: number;
  budget: number;
  drawn: number[];
  newQuestions: number[];
  assignment: TDrawAssignment | null;
};

/** A generators decision's drawn questions: the compared systems' answers to them, assigned like every answer. */
async function assignDrawnAnswers(
  db: Db,
  projectId: number,
  systems: readonly string[],
  questions: readonly number[],
  opts: { perItem: number; annotators?: string[]; seed: number },
): Promise<TDrawAssignment> {
  const r = await assignAnswers(db, projectId, {
    perItem: opts.perItem,
    annotators: opts.annotators,
    system: systems,
    questions,
    seed: opts.seed,
  });
  return { ...r, itemsToppedUp: r.answersToppedUp };
}

/**
 * Draws the next batch: `budget` questions in expectation from the uncertain questions of the
 * decision, with the probabilities of lib/stats/active.ts (computed from the uncertainty frozen at
 * creation, so known exactly), and assigns the newly drawn ones' pairs to label (the discriminating
 * pairs frozen at creation, or every pooled pair; for generators, the compared systems' answers) to `perItem`
 * annotators (blind and balanced like every assignment). A question drawn before costs nothing.
 */
export async function drawBatch(
  db: Db,
  projectId: number,
  name: string,
  opts: { budget: number; perItem: number; annotators?: string[]; seed?: number; tau?: number },
): Promise<TDrawResult> {
  if (!Number.isInteger(opts.budget) || opts.budget < 1)
    throw new AppError(
      "bad_input",
      say`${field("budget")}: expected a whole number of questions ≥ 1, got ${opts.budget}`,
    );
  const d = await findDecision(db, projectId, name);
  const uncertain = d.population.filter((p) => !p.certain);
  if (uncertain.length === 0)
    throw new AppError(
      "bad_input",
      `decision "${name}": every question was completely labelled when it was created; nothing to draw`,
    );
  const tau = opts.tau ?? 0.5;
  const seed = opts.seed ?? Math.floor(Math.random() * 2 ** 31);
  const probabilities = inclusionProbabilities(
    uncertain.map((p) => p.uncertainty),
    opts.budget,
    { tau },
  );
  const rng = seededRng(seed);
  const drawn = systematicSample(probabilities, rng).map((i) => uncertain[i].queryId);
  const before = new Set(d.batches.flatMap((b) => b.drawn));
  const newQuestions = drawn.filter((q) => !before.has(q));
  const look = d.batches.length + 1;
  const probs: Record<string, number> = {};
  uncertain.forEach((p, i) => (probs[String(p.queryId)] = probabilities[i]));
  // A question with its discriminating pairs frozen is labelled on those pairs only.
  const chunksOf = new Map(d.population.map((p) => [p.queryId, p.chunks] as const));
  const questionChunks: Record<string, number[]> = {};
  for (const q of newQuestions) {
    const chunks = chunksOf.get(q);
    if (chunks) questionChunks[String(q)] = chunks;
  }
  const assignment = newQuestions.length
    ? isAnswerMeasure(d.measure)
      ? await assignDrawnAnswers(db, projectId, d.systems, newQuestions, { ...opts, seed })
      : await assign(db, projectId, {
          perItem: opts.perItem,
          annotators: opts.annotators,
          questions: newQuestions,
          questionChunks,
          seed,
        })
    : null;
  await db.decisionBatch.create({
    data: { decisionId: d.id, look, budget: opts.budget, tau, seed, probabilities: probs, drawn },
  });
  return { look, budget: opts.budget, drawn, newQuestions, assignment };
}
