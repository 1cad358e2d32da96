/**
 * What a decision is computed from, loaded once (`loaded`: the dashboard's data and run rankings,
 * and the answers with their labels for a decision between generators), and what each kind of
 * decision reads of it: the compared systems' values per question (`systemValues`: runs here,
 * generators in lib/decisions/answers.ts), the questions still usable (`presentPopulation`) and
 * what labelling a question costs (`itemsPerQuestion`).
 */
import { completeQuestions, pooledChunks } from "../dashboard/complete.ts";
import { dashboardData, type TDashboardData } from "../dashboard/data.ts";
import { judgeLabelQrels, referenceQrels, runBySystem, type TQrels } from "../dashboard/labels.ts";
import { generationData, type TAnswer, type TLabels } from "../dashboard/load/answers.ts";
import { runRankings, type TRunRankings } from "../dashboard/rankings.ts";
import { retrievalValues } from "../dashboard/systems.ts";
import type { Db } from "../db/client.ts";
import { answerSystemValues, comparedAnswers, isAnswerMeasure } from "./answers.ts";
import type { TPopulationEntry, TSystemValues } from "./model.ts";
import type { TDecision } from "./store.ts";

/** What decisions are computed from: the dashboard's data and rankings, and the answers and their labels when a decision is between generators. */
export type TLoaded = {
  data: TDashboardData;
  rankings: Map<number, TRunRankings>;
  generation: { answers: TAnswer[]; labels: TLabels } | null;
};

export async function loaded(db: Db, projectId: number, opts: { answers?: boolean } = {}): Promise<TLoaded> {
  const { data, cache } = await dashboardData(db, projectId);
  const [rankings, generation] = await Promise.all([
    runRankings(db, data),
    opts.answers ? generationData(db, projectId, cache.lineage) : null,
  ]);
  return { data, rankings, generation: generation && { answers: generation.answers, labels: generation.labels } };
}

/** The answers and labels a decision between generators reads (loaded with `answers`). */
export function generationOf(l: TLoaded): { answers: TAnswer[]; labels: TLabels } {
  if (!l.generation)
    throw new Error("a decision between generators needs the answers loaded (loaded(…, { answers: true }))");
  return l.generation;
}

export const isAnswerDecision = (d: { measure: string }) => isAnswerMeasure(d.measure);

/** Each compared system's values per question: judge-predicted (certain questions: human) and human on complete questions. */
export function systemValues(l: TLoaded, d: TDecision): TSystemValues[] {
  if (isAnswerMeasure(d.measure)) {
    const { answers, labels } = generationOf(l);
    return answerSystemValues(answers, labels, { ...d, measure: d.measure });
  }
  return runValues(l.data, l.rankings, d);
}

/** The questions of the population a decision can still use: accepted, and (between generators) answered by every compared system. */
export function presentPopulation(l: TLoaded, d: TDecision): TPopulationEntry[] {
  const answered = isAnswerDecision(d) ? comparedAnswers(generationOf(l).answers, d.systems) : null;
  return d.population.filter((p) => l.data.queries.has(p.queryId) && (!answered || answered.has(p.queryId)));
}

function runValues(data: TDashboardData, rankings: Map<number, TRunRankings>, d: TDecision): TSystemValues[] {
  const complete = completeQuestions(data);
  const judgeQ =
    d.judge && data.judges.has(d.judge)
      ? judgeLabelQrels(data, d.judge, undefined)
      : new Map<number, Map<number, number>>();
  const human = referenceQrels(data, undefined);
  const present = d.population.filter((p) => data.queries.has(p.queryId));
  const empty = new Map<number, number>();
  const predictedQrels: TQrels = new Map();
  const humanQrels: TQrels = new Map();
  for (const p of present) {
    const judged = judgeQ.get(p.queryId) ?? empty;
    predictedQrels.set(p.queryId, p.certain ? (human.get(p.queryId) ?? empty) : judged);
    if (p.chunks && !p.certain) {
      // Only the discriminating pairs are people's to label: the value with their grades there and
      // the judge's elsewhere (the minimal test collection's estimator), once each of them is labelled.
      const people = human.get(p.queryId) ?? empty;
      if (p.chunks.every((c) => people.has(c))) {
        const mixed = new Map(judged);
        for (const c of p.chunks) mixed.set(c, people.get(c) ?? 0);
        humanQrels.set(p.queryId, mixed);
      }
    } else if (complete.has(p.queryId)) humanQrels.set(p.queryId, human.get(p.queryId) ?? empty);
  }
  const byPrediction = retrievalValues(data, "judge", predictedQrels, rankings, d.gain);
  const byHuman = retrievalValues(data, "human", humanQrels, rankings, d.gain);
  const col = byPrediction.columns.findIndex((c) => c.id === d.measure);
  return d.systems.map((system) => {
    const run = runBySystem(data, system);
    const r = data.runs.findIndex((x) => x.id === run.id);
    const predicted = new Map<number, number>();
    byPrediction.queryIds.forEach((q, i) => predicted.set(q, byPrediction.values[r][col][i]));
    const humanValues = new Map<number, number | null>();
    for (const p of present) humanValues.set(p.queryId, null);
    byHuman.queryIds.forEach((q, i) => humanValues.set(q, byHuman.values[r][col][i]));
    return { system, predicted, human: humanValues };
  });
}

/**
 * What labelling one question costs, per annotator: its discriminating pairs (or whole pool) for
 * runs, one answer per compared system for generators.
 */
export function itemsPerQuestion(data: TDashboardData, d: TDecision): (p: TPopulationEntry) => number {
  if (isAnswerDecision(d)) return () => d.systems.length;
  const pooled = pooledChunks(data);
  return (p) => p.chunks?.length ?? pooled.get(p.queryId)?.size ?? 0;
}
