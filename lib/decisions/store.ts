/**
 * Decisions in the database (the Decision and DecisionBatch tables): create one (its population of
 * questions and their uncertainty frozen then), list, report, delete, and draw the next batch of
 * questions for people to label (lib/decisions/draw.ts). What a report is computed from is
 * lib/decisions/values.ts; the statistics are lib/decisions/model.ts.
 */
import { z } from "zod";
import { completeQuestions, pooledChunks } from "../dashboard/complete.ts";
import type { TDashboardData } from "../dashboard/data.ts";
import { judgeLabelQrels, pickJudge, referenceQrels, runBySystem } from "../dashboard/labels.ts";
import type { Db } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";
import type { Gain } from "../stats/measures/ndcg.ts";
import { retrievalColumns } from "../stats/measures/columns.ts";
import { judgeGradeSets } from "../judge/grade-sets.ts";
import { unstablePairs } from "../judge/retest.ts";
import { calibration, discriminatingChunks, knownGrade, questionUncertainty, rankWeighting } from "./design.ts";
import { ANSWER_MEASURE_IDS, answerPopulation, isAnswerMeasure, pickAnswerJudge } from "./answers.ts";
import {
  generationOf,
  isAnswerDecision,
  itemsPerQuestion,
  loaded,
  presentPopulation,
  systemValues,
  type TLoaded,
} from "./values.ts";
import {
  decisionState,
  type TBatch,
  type TDecisionInput,
  type TDecisionState,
  type TPopulationEntry,
} from "./model.ts";
import { action, field, say } from "../terms.ts";
import { parseSpending, spendingName, type TSpending } from "../stats/sequential.ts";
import { DEFAULT_SPENDING, LEGACY_SPENDING } from "./looks.ts";

/** Friendlier names of the measures (the column ids of lib/stats/measures/columns.ts are accepted as they are). */
const MEASURE_ALIASES: Record<string, string> = {
  "ndcg@5": "ndcg_cut_5",
  "ndcg@10": "ndcg_cut_10",
  "recall@5": "recall_5@1",
  "recall@10": "recall_10@1",
  mrr: "recip_rank@1",
};

/** A retrieval measure (an alias or a column id of lib/stats/measures/columns.ts) or an answer measure (lib/decisions/answers.ts). */
export function measureId(measure: string): string {
  if (isAnswerMeasure(measure.toLowerCase())) return measure.toLowerCase();
  const id = MEASURE_ALIASES[measure.toLowerCase()] ?? measure;
  const known = retrievalColumns("linear").map((c) => c.id);
  if (!known.includes(id))
    throw new AppError(
      "bad_input",
      say`${field("measure")}: unknown measure "${measure}"; expected one of ${[...Object.keys(MEASURE_ALIASES), ...known].join(", ")} for runs, or ${ANSWER_MEASURE_IDS.join(", ")} for generators`,
    );
  return id;
}

export const ZDecisionCreate = z.object({
  name: z.string().trim().min(1).max(100),
  systems: z.array(z.string().trim().min(1).max(200)).min(2).max(8),
  measure: z.string().min(1).max(40),
  margin: z.number().min(0).max(1).default(0),
  level: z.number().gt(0.5).lt(1).default(0.95),
  gain: z.enum(["linear", "exponential"]).default("linear"),
  judge: z.string().min(1).max(200).optional(),
  /** How the error is spent over the looks: obf, pocock or hsd(γ) (lib/stats/sequential.ts); default DEFAULT_SPENDING. */
  spending: z.string().max(40).optional(),
});
export type TDecisionCreate = z.input<typeof ZDecisionCreate>;

const ZEntries = z.array(
  z.object({
    queryId: z.number().int(),
    uncertainty: z.number(),
    certain: z.boolean(),
    chunks: z.array(z.number().int()).optional(),
  }),
);
/**
 * The population column: the entries, with the spending family kept beside them (`{ spending, questions }`);
 * a decision stored before the family was kept is the bare array and spends by LEGACY_SPENDING.
 */
const ZPopulation = z.union([ZEntries, z.object({ spending: z.string(), questions: ZEntries })]);
const ZSystems = z.array(z.string());
const ZProbabilities = z.record(z.string(), z.number());
const ZDrawn = z.array(z.number().int());

type TDecisionRow = {
  id: number;
  name: string;
  systems: unknown;
  measure: string;
  margin: number;
  level: number;
  gain: string;
  judge: string | null;
  population: unknown;
  createdAt: Date;
};

export type TDecision = {
  id: number;
  name: string;
  systems: string[];
  measure: string;
  margin: number;
  level: number;
  gain: Gain;
  judge: string | null;
  population: TPopulationEntry[];
  /** How the error is spent over the looks (lib/stats/sequential.ts). */
  spending: TSpending;
  createdAt: string;
  batches: TBatch[];
};

function decode(
  row: TDecisionRow,
  batches: { look: number; budget: number; tau: number; probabilities: unknown; drawn: unknown }[],
): TDecision {
  const population = ZPopulation.parse(row.population);
  const entries = Array.isArray(population) ? population : population.questions;
  const spending = Array.isArray(population)
    ? LEGACY_SPENDING
    : (parseSpending(population.spending) ?? LEGACY_SPENDING);
  return {
    id: row.id,
    name: row.name,
    systems: ZSystems.parse(row.systems),
    measure: row.measure,
    margin: row.margin,
    level: row.level,
    gain: row.gain === "exponential" ? "exponential" : "linear",
    judge: row.judge,
    population: entries,
    spending,
    createdAt: row.createdAt.toISOString(),
    batches: batches.map((b) => ({
      look: b.look,
      budget: b.budget,
      tau: b.tau,
      probabilities: ZProbabilities.parse(b.probabilities),
      drawn: ZDrawn.parse(b.drawn),
    })),
  };
}

function cutoffOf(measure: string): number {
  const m = /_(\d+)/.exec(measure);
  return m ? Number(m[1]) : 10;
}

function gainOf(measure: string, gain: Gain): (grade: number) => number {
  const column = retrievalColumns(gain).find((c) => c.id === measure);
  const level = column?.level ?? null;
  if (level !== null) return (g) => (g >= level ? 1 : 0);
  return gain === "exponential" ? (g) => 2 ** g - 1 : (g) => g;
}

/** Accepted questions with pooled pairs: the questions a decision can be about. */
function pooledQuestions(data: TDashboardData): number[] {
  const ids = new Set<number>();
  for (const it of data.poolItems.values()) ids.add(it.queryId);
  return [...ids].filter((q) => data.queries.has(q)).sort((a, b) => a - b);
}

export async function createDecision(db: Db, projectId: number, input: TDecisionCreate): Promise<TDecision> {
  const parsed = ZDecisionCreate.safeParse(input);
  if (!parsed.success)
    throw new AppError(
      "bad_input",
      parsed.error.issues.map((i) => `${i.path.join(".") || "decision"}: ${i.message}`).join("; "),
    );
  const spec = parsed.data;
  if (new Set(spec.systems).size !== spec.systems.length)
    throw new AppError("bad_input", say`${field("compare")}: a system is named twice (${spec.systems.join(", ")})`);
  const measure = measureId(spec.measure);
  const spending = spec.spending === undefined ? DEFAULT_SPENDING : parseSpending(spec.spending);
  if (!spending)
    throw new AppError(
      "bad_input",
      say`${field("spending")}: expected obf, pocock or hsd(γ) (e.g. hsd(-4)), got "${spec.spending}"`,
    );
  if (isAnswerMeasure(measure)) {
    const l = await loaded(db, projectId, { answers: true });
    const { labels, answers } = generationOf(l);
    const judge = pickAnswerJudge(labels, spec.judge);
    const population = answerPopulation(answers, labels, spec.systems, measure, judge).filter((p) =>
      l.data.queries.has(p.queryId),
    );
    if (population.length === 0)
      throw new AppError(
        "bad_input",
        say`${field("compare")}: no accepted question has an answer of every compared system (${spec.systems.join(", ")})`,
      );
    return storeDecision(db, projectId, spec, measure, spending, judge, population);
  }
  const { data, rankings } = await loaded(db, projectId);
  const runs = spec.systems.map((s) => runBySystem(data, s));
  const judge = pickJudge(data, spec.judge);
  const questions = pooledQuestions(data);
  if (questions.length === 0)
    throw new AppError(
      "bad_input",
      say`no pooled accepted question yet: build the pool first with: ${action("buildPoolDeep")}`,
    );
  const complete = completeQuestions(data);
  const judgeGrades = judge ? judgeLabelQrels(data, judge, undefined) : new Map<number, Map<number, number>>();
  const human = referenceQrels(data, undefined);
  // A judge that grades a pair several times (samples, a jury's members) says where it is unsure.
  const sets = judge ? await judgeGradeSets(db, projectId, judge) : null;
  const unsure = sets ? unstablePairs(sets) : null;
  const unstable = (queryId: number, chunkId: number) => unsure?.has(`${queryId}:${chunkId}`);
  const calibrationPairs: { human: number; judge: number | null; unstable?: boolean }[] = [];
  for (const [queryId, chunks] of human)
    for (const [chunkId, grade] of chunks)
      calibrationPairs.push({
        human: grade,
        judge: judgeGrades.get(queryId)?.get(chunkId) ?? null,
        unstable: unstable(queryId, chunkId),
      });
  const cal = calibration(calibrationPairs);
  const gain = gainOf(measure, spec.gain);
  const measureWeighting = rankWeighting(measure);
  // Where the measure's weights say what a chunk's grade moves (MRR has none: DCG's, as a heuristic).
  const shape = measureWeighting ?? { kind: "dcg" as const, cutoff: cutoffOf(measure) };
  // People label only the pairs that can move the difference when the measure is a weighted sum of
  // grades and a judge fills the rest (its grades then enter only the normaliser); else whole pools.
  const weighting = judge ? measureWeighting : null;
  const pooled = pooledChunks(data);
  const population: TPopulationEntry[] = questions.map((queryId) => {
    if (complete.has(queryId)) return { queryId, uncertainty: 0, certain: true };
    const lists = runs.map((r) => Array.from(rankings.get(r.id)?.get(queryId)?.chunkIds ?? []));
    const chunks = weighting ? discriminatingChunks(lists, weighting, pooled.get(queryId) ?? new Set()) : undefined;
    const known = human.get(queryId);
    const judged = judgeGrades.get(queryId);
    const u = questionUncertainty(
      lists,
      shape,
      (chunkId) => {
        const grade = known?.get(chunkId);
        return grade !== undefined
          ? knownGrade(grade)
          : cal.given(judged?.get(chunkId) ?? null, unstable(queryId, chunkId));
      },
      gain,
      pooled.get(queryId) ?? [],
    );
    return chunks ? { queryId, uncertainty: u, certain: false, chunks } : { queryId, uncertainty: u, certain: false };
  });
  return storeDecision(db, projectId, spec, measure, spending, judge, population);
}

async function storeDecision(
  db: Db,
  projectId: number,
  spec: z.output<typeof ZDecisionCreate>,
  measure: string,
  spending: TSpending,
  judge: string | null,
  population: TPopulationEntry[],
): Promise<TDecision> {
  try {
    const row = await db.decision.create({
      data: {
        projectId,
        name: spec.name,
        systems: spec.systems,
        measure,
        margin: spec.margin,
        level: spec.level,
        gain: spec.gain,
        judge,
        population: { spending: spendingName(spending), questions: population },
      },
    });
    return decode(row, []);
  } catch (e) {
    if (isUniqueViolation(e))
      throw new AppError(
        "conflict",
        `a decision named "${spec.name}" exists already in this project: choose another name, or delete it first (npx assessor decide delete ${spec.name})`,
      );
    throw e;
  }
}

export async function findDecision(db: Db, projectId: number, name: string): Promise<TDecision> {
  const row = await db.decision.findUnique({
    where: { projectId_name: { projectId, name } },
    include: { batches: { orderBy: { look: "asc" } } },
  });
  if (!row) {
    const names = (
      await db.decision.findMany({ where: { projectId }, select: { name: true }, orderBy: { name: "asc" } })
    ).map((d) => d.name);
    throw new AppError(
      "not_found",
      `no decision named "${name}"; decisions: ${names.join(", ") || "none yet (npx assessor decide create NAME --compare A,B --measure ndcg@10)"}`,
    );
  }
  return decode(row, row.batches);
}

export async function listDecisionRows(db: Db, projectId: number): Promise<TDecision[]> {
  const rows = await db.decision.findMany({
    where: { projectId },
    include: { batches: { orderBy: { look: "asc" } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((r) => decode(r, r.batches));
}

export async function deleteDecision(db: Db, projectId: number, name: string): Promise<void> {
  const d = await findDecision(db, projectId, name);
  await db.decision.delete({ where: { id: d.id } });
}

/** What decisionState reads of a stored decision; the looks count the population as frozen at creation. */
export function decisionInput(d: TDecision, population: TPopulationEntry[]): TDecisionInput {
  return {
    systems: d.systems,
    margin: d.margin,
    level: d.level,
    population,
    batches: d.batches,
    spending: d.spending,
    plannedQuestions: d.population.length,
    plannedCertain: d.population.filter((p) => p.certain).length,
  };
}

export type TDecisionReport = {
  decision: TDecision;
  state: TDecisionState;
  missingQuestions: number;
  /** Human labels a question still to draw costs, on average: its pairs to label × annotators per pair. */
  labelsPerQuestion: number;
};

/** The mean labels of the questions not drawn yet: their items to label × annotators per item. */
function labelsPerQuestion(data: TDashboardData, d: TDecision, population: readonly TPopulationEntry[]): number {
  const drawn = new Set(d.batches.flatMap((b) => b.drawn));
  const left = population.filter((p) => !p.certain && !drawn.has(p.queryId));
  if (left.length === 0) return 0;
  const items = itemsPerQuestion(data, d);
  return (left.reduce((s, p) => s + items(p), 0) / left.length) * data.project.annotatorsPerItem;
}

/** The decision's state on data loaded once (for several decisions: `decisionReports`). */
function reportOn(l: TLoaded, d: TDecision): TDecisionReport {
  const values = systemValues(l, d);
  const population = presentPopulation(l, d);
  const state = decisionState(decisionInput(d, population), values);
  return {
    decision: d,
    state,
    missingQuestions: d.population.length - population.length,
    labelsPerQuestion: labelsPerQuestion(l.data, d, population),
  };
}

export async function decisionReport(db: Db, projectId: number, d: TDecision): Promise<TDecisionReport> {
  return reportOn(await loaded(db, projectId, { answers: isAnswerDecision(d) }), d);
}

/** Every decision of the project with its state, the project's data loaded once. */
export async function decisionReports(db: Db, projectId: number): Promise<TDecisionReport[]> {
  const decisions = await listDecisionRows(db, projectId);
  if (decisions.length === 0) return [];
  const l = await loaded(db, projectId, { answers: decisions.some(isAnswerDecision) });
  return decisions.map((d) => reportOn(l, d));
}
