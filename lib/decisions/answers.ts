/**
 * Decisions between generators (answer systems) on faithfulness or answer relevance: the unit is a
 * question, as for runs, and its value per system is read from the system's answer to it. The
 * statistics are the same as for retrieval decisions (lib/decisions/model.ts); this module gives
 * them their inputs, pure over the answers and labels the dashboard loads
 * (lib/dashboard/load/answers.ts).
 *
 * - Population: the questions every compared system answered. Certain (π = 1): those whose compared
 *   answers all had a final human label when the decision was created.
 * - Prediction f_q per system: the answer judge's value of its answer; an answer the judge has not
 *   labelled (or without the measure's part) is predicted by the mean of the system's judged
 *   answers. Any prediction fixed before the draw keeps the estimator unbiased; a better one only
 *   narrows the interval.
 * - Human value Y_q per system: the value of the answer's final human label (agreed or
 *   adjudicated, lib/answers/labels.ts finalAnswerLabel), once every compared answer of the question
 *   has one.
 * - Uncertainty u_q (what the draw favours): the root of the summed expected squared errors of the
 *   judge's values of the question's compared answers, per bin of the judge's value, from the
 *   answers both labelled at creation (lib/decisions/design.ts does the same per grade for chunks).
 * - Labels a drawn question costs: one answer label per compared system and annotator.
 */
import type { TClaimLabel } from "../answers/labels.ts";
import { GENERATION_MEASURES } from "../dashboard/generation.ts";
import type { TAnswer, TLabels } from "../dashboard/load/answers.ts";
import { AppError } from "../errors.ts";
import { faithfulness, PARTIAL_WEIGHT } from "../stats/generation.ts";
import { field, say } from "../terms.ts";
import type { TPopulationEntry, TSystemValues } from "./model.ts";

export type TAnswerMeasure = (typeof GENERATION_MEASURES)[number]["id"];

export const isAnswerMeasure = (measure: string): measure is TAnswerMeasure =>
  GENERATION_MEASURES.some((m) => m.id === measure);

/** The measures a decision between generators can be on, for messages. */
export const ANSWER_MEASURE_IDS: readonly string[] = GENERATION_MEASURES.map((m) => m.id);

type TLabelParts = { claimLabels: readonly TClaimLabel[] | null; relevance: number | null };

/**
 * A label's value on the measure: faithfulness with partial support weighing 0.5 ("faithfulness")
 * or 0 ("faithfulness_strict"), or the answer's relevance grade 0–3. An answer without claims
 * counts faithfulness 1: it asserts nothing the context does not support (the Generation section
 * leaves it out of its means; a paired decision needs a value for every question it draws). Null:
 * the label lacks the measure's part (a judge label without claim labels or relevance).
 */
export function answerValue(label: TLabelParts, measure: TAnswerMeasure): number | null {
  if (measure === "relevance") return label.relevance;
  if (!label.claimLabels) return null;
  return faithfulness(label.claimLabels, measure === "faithfulness" ? PARTIAL_WEIGHT : 0) ?? 1;
}

/** The measure's largest value: 1 for faithfulness, 3 for relevance. */
const measureMax = (measure: TAnswerMeasure) => GENERATION_MEASURES.find((m) => m.id === measure)!.max;

/**
 * Per question, the compared systems' answer ids in the systems' order, for the questions every
 * compared system answered. With `strict` (creating a decision), a compared system without any
 * answer (a misspelt name) is an error; otherwise (a stored decision whose answers were since
 * deleted) its questions are simply not there, and the decision reports them missing.
 */
export function comparedAnswers(
  answers: readonly TAnswer[],
  systems: readonly string[],
  opts: { strict?: boolean } = {},
): Map<number, string[]> {
  const bySystem = new Map<string, Map<number, string>>();
  for (const a of answers) {
    let m = bySystem.get(a.system);
    if (!m) bySystem.set(a.system, (m = new Map()));
    m.set(a.queryId, a.id);
  }
  for (const s of systems)
    if (!bySystem.has(s)) {
      if (!opts.strict) return new Map();
      throw new AppError(
        "not_found",
        say`${field("compare")}: no answers of system "${s}" in this project; systems with answers: ${[...bySystem.keys()].sort().join(", ") || "none yet"}`,
      );
    }
  const first = bySystem.get(systems[0])!;
  const out = new Map<number, string[]>();
  for (const queryId of [...first.keys()].sort((a, b) => a - b)) {
    const ids = systems.map((s) => bySystem.get(s)!.get(queryId));
    if (ids.every((id) => id !== undefined)) out.set(queryId, ids as string[]);
  }
  return out;
}

/** The answer judge a decision uses: the one named, else the first by name; null when there is none. */
export function pickAnswerJudge(labels: TLabels, judge: string | undefined): string | null {
  if (judge !== undefined) {
    if (!labels.judges.has(judge))
      throw new AppError(
        "not_found",
        say`${field("judge")}: no answer judge named "${judge}"; answer judges: ${[...labels.judges.keys()].join(", ") || "none yet"}`,
      );
    return judge;
  }
  return labels.judges.keys().next().value ?? null;
}

/** The judge's value of each answer, or the mean of its system's judged answers when it has none. */
function predictions(
  answers: readonly TAnswer[],
  labels: TLabels,
  judge: string | null,
  measure: TAnswerMeasure,
): Map<string, number> {
  const judged = judge ? labels.judges.get(judge) : undefined;
  const own = new Map<string, number>();
  const sums = new Map<string, { s: number; n: number }>();
  for (const a of answers) {
    const l = judged?.get(a.id);
    const v = l ? answerValue(l, measure) : null;
    if (v === null) continue;
    own.set(a.id, v);
    const t = sums.get(a.system) ?? { s: 0, n: 0 };
    t.s += v;
    t.n++;
    sums.set(a.system, t);
  }
  const out = new Map<string, number>();
  for (const a of answers) {
    const t = sums.get(a.system);
    out.set(a.id, own.get(a.id) ?? (t ? t.s / t.n : measureMax(measure) / 2));
  }
  return out;
}

/**
 * The expected squared error of the judge's value as a prediction of the human value, by bin of
 * the judge's value (relevance: the grade; faithfulness: quarters of [0, 1]; a fifth bin for no
 * judge value), from the answers both labelled. Each bin starts with one pseudo-answer at the
 * prior (max/2)², the largest variance of a value in [0, max] around its midpoint, so a bin without
 * data is not taken as certain.
 */
export function judgeErrorByBin(
  pairs: readonly { human: number; judge: number | null }[],
  measure: TAnswerMeasure,
): (judge: number | null) => number {
  const max = measureMax(measure);
  const bin = (v: number | null) =>
    v === null ? 4 : measure === "relevance" ? Math.max(0, Math.min(3, Math.round(v))) : Math.min(3, Math.floor(v * 4));
  const prior = (max / 2) ** 2;
  const sums = [0, 1, 2, 3, 4].map(() => ({ s: prior, n: 1 }));
  for (const p of pairs) {
    const b = sums[bin(p.judge)];
    b.s += p.judge === null ? prior : (p.human - p.judge) ** 2;
    b.n++;
  }
  return (judge) => {
    const b = sums[bin(judge)];
    return b.s / b.n;
  };
}

/** The decision's questions, frozen at creation (see the module's comment). */
export function answerPopulation(
  answers: readonly TAnswer[],
  labels: TLabels,
  systems: readonly string[],
  measure: TAnswerMeasure,
  judge: string | null,
): TPopulationEntry[] {
  const judged = judge ? labels.judges.get(judge) : undefined;
  const judgeOf = (id: string) => {
    const l = judged?.get(id);
    return l ? answerValue(l, measure) : null;
  };
  const pairs: { human: number; judge: number | null }[] = [];
  for (const a of answers) {
    const h = labels.human.get(a.id);
    const v = h ? answerValue(h, measure) : null;
    if (v !== null) pairs.push({ human: v, judge: judgeOf(a.id) });
  }
  const error = judgeErrorByBin(pairs, measure);
  return [...comparedAnswers(answers, systems, { strict: true })].map(([queryId, ids]) => {
    if (ids.every((id) => labels.human.has(id))) return { queryId, uncertainty: 0, certain: true };
    const u = Math.sqrt(ids.reduce((s, id) => s + (labels.human.has(id) ? 0 : error(judgeOf(id))), 0));
    return { queryId, uncertainty: u, certain: false };
  });
}

/**
 * Each compared system's values per question of the population: predicted (certain questions: the
 * human value) and human, where every compared answer of the question has a final human label.
 */
export function answerSystemValues(
  answers: readonly TAnswer[],
  labels: TLabels,
  d: { systems: readonly string[]; measure: TAnswerMeasure; judge: string | null; population: TPopulationEntry[] },
): TSystemValues[] {
  const byQuestion = comparedAnswers(answers, d.systems);
  const predicted = predictions(answers, labels, d.judge && labels.judges.has(d.judge) ? d.judge : null, d.measure);
  const humanOf = (id: string) => {
    const h = labels.human.get(id);
    return h ? answerValue(h, d.measure) : null;
  };
  const out: TSystemValues[] = d.systems.map((system) => ({ system, predicted: new Map(), human: new Map() }));
  for (const p of d.population) {
    const ids = byQuestion.get(p.queryId);
    if (!ids) continue;
    const human = ids.map(humanOf);
    const complete = human.every((v) => v !== null);
    ids.forEach((id, s) => {
      out[s].predicted.set(p.queryId, p.certain && complete ? human[s]! : predicted.get(id)!);
      out[s].human.set(p.queryId, complete ? human[s] : null);
    });
  }
  return out;
}
