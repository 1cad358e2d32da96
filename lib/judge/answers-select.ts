/**
 * The answers an answer run judges (its subset, JudgeRun.subset): every answer of the project
 * (`all`), one system's (`system:NAME`), those with a human label (`labelled`: an annotator's
 * judgement or an adjudication), or a random sample (`sample:N`, or `sample:N:SEED`; the seed
 * defaults to 1, so the same subset is drawn again, and is stored in the run's subset).
 * Ordered by question id, then system; `limit` takes the first.
 */
import type { Db } from "../db/client.ts";
import { mulberry32, shuffle } from "../stats/random.ts";
import { AppError } from "../errors.ts";
import { action, field, say } from "../terms.ts";

export const ANSWER_SUBSETS = "all | system:NAME | labelled | sample:N[:SEED]";

export type TAnswerSubset =
  | { kind: "all" }
  | { kind: "labelled" }
  | { kind: "system"; system: string }
  | { kind: "sample"; n: number; seed: number };

/** Reads a subset; throws naming the option and what was expected. */
export function parseAnswerSubset(only: string): TAnswerSubset {
  if (only === "all") return { kind: "all" };
  if (only === "labelled") return { kind: "labelled" };
  if (only.startsWith("system:") && only.length > 7) return { kind: "system", system: only.slice(7) };
  const m = /^sample:(\d+)(?::(\d+))?$/.exec(only);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= 1_000_000)
    return { kind: "sample", n: Number(m[1]), seed: m[2] === undefined ? 1 : Number(m[2]) % 2 ** 32 };
  throw new AppError(
    "bad_input",
    say`${field("subset")}: "${only}" is not a subset of answers; expected ${ANSWER_SUBSETS} (N from 1)`,
  );
}

/** The subset as stored on the run (the seed written out). */
export function answerSubsetName(s: TAnswerSubset): string {
  return s.kind === "system" ? `system:${s.system}` : s.kind === "sample" ? `sample:${s.n}:${s.seed}` : s.kind;
}

export async function selectAnswers(db: Db, projectId: number, only: string, limit?: number): Promise<string[]> {
  const subset = parseAnswerSubset(only);
  const answers = await db.answer.findMany({
    where: { projectId },
    select: { id: true, system: true },
    orderBy: [{ queryId: "asc" }, { system: "asc" }],
  });
  if (answers.length === 0)
    throw new AppError("bad_input", say`the project has no answers: import them first (${action("importAnswers")})`);
  let chosen = answers;
  if (subset.kind === "system") {
    chosen = answers.filter((a) => a.system === subset.system);
    if (!chosen.length)
      throw new AppError(
        "bad_input",
        say`${field("subset")} system:${subset.system}: no answers of that system; systems: ${[...new Set(answers.map((a) => a.system))].sort().join(", ")}`,
      );
  } else if (subset.kind === "labelled") {
    const [judged, adjudicated] = await Promise.all([
      db.answerJudgement.findMany({
        where: { answer: { projectId } },
        select: { answerId: true },
        distinct: ["answerId"],
      }),
      db.answerAdjudication.findMany({ where: { answer: { projectId } }, select: { answerId: true } }),
    ]);
    const labelled = new Set([...judged, ...adjudicated].map((x) => x.answerId));
    chosen = answers.filter((a) => labelled.has(a.id));
    if (!chosen.length)
      throw new AppError(
        "bad_input",
        say`${field("subset")} labelled: no answer has a human label yet; nothing to judge`,
      );
  } else if (subset.kind === "sample") {
    const order = new Map(answers.map((a, i) => [a.id, i]));
    chosen = shuffle([...answers], mulberry32(subset.seed))
      .slice(0, subset.n)
      .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  }
  return (limit ? chosen.slice(0, limit) : chosen).map((a) => a.id);
}
