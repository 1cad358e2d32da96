/**
 * The dashboard's Generation section: generated answers measured against the
 * project's labels. Statistics are lib/stats/generation.ts' (faithfulness, agreement, attribution)
 * over lib/answers/labels.ts' final human label of each answer (finalAnswerLabel) and the answer
 * judges' labels (AnswerJudgeLabel); the chunk reference labels come from the dashboard's data
 * (lib/dashboard/data.ts, the same final labels as lib/labels/reference.ts referenceLabels).
 *
 * Loading is lib/dashboard/load/answers.ts' (answers per "structure" version, labels per "labels"
 * version). The panel itself is kept per both versions, the dashboard's label-set version (chunk
 * reference labels) and the viewer's options; it is computed from what was loaded, no database.
 */
import type { TClaimLabel } from "../answers/labels.ts";
import { cohenKappa } from "../stats/agreement/kappa.ts";
import { confusionOf, rawAgreement } from "../stats/agreement/confusion.ts";
import {
  attributionTable,
  claimAgreement,
  contextRelevance,
  faithfulness,
  faithfulnessAgreement,
  GOOD_ANSWER_TEXT,
  isGoodAnswer,
  PARTIAL_WEIGHT,
  systemMeans,
  type TAttributionTable,
  type TClaimAgreement,
  type TFaithfulnessAgreement,
  type TMeanCell,
} from "../stats/generation.ts";
import type { MeanIntervalMemo } from "../stats/bootstrap-means.ts";
import type { Gain } from "../stats/measures/ndcg.ts";
import type { PairedMemo } from "../stats/paired.ts";
import type { TDashboardData } from "./data.ts";
import type { TAnswer, TLabels } from "./load/answers.ts";
import type { TView } from "./load/view.ts";
import { referenceQrels } from "./labels.ts";
import { RESAMPLING } from "./options.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";

export const NO_ANSWERS_HINT =
  "no generated answers yet: import them with npx assessor import answers --system NAME answers.jsonl (one line per question: the answer and the chunk ids given to the model)";

/** The published reference the evaluation plan quotes (RAGAS validation: agreement with people). */
export const RAGAS_REFERENCE = {
  citation: "RAGAS (Es et al., 2023), as quoted in the evaluation plan",
  faithfulness: 0.95,
  answerRelevance: 0.78,
  contextRelevance: 0.7,
} as const;

export const GENERATION_MEASURES = [
  { id: "faithfulness", label: "Faithfulness (partial 0.5)", max: 1 },
  { id: "faithfulness_strict", label: "Faithfulness (partial 0)", max: 1 },
  { id: "relevance", label: "Answer relevance (0–3)", max: 3 },
] as const;

export type TGenerationTable = {
  source: "human" | "judge";
  judge: string | null;
  /** Answers with a label of this source; those without claims (faithfulness undefined) among them. */
  labelled: number;
  noClaims: number;
  rows: { system: string; answers: number; cells: TMeanCell[] }[];
  empty: string | null;
};

export type TAttribution = {
  source: "human" | "judge";
  judge: string | null;
  /** Per system and over all systems ("all"), at reference grade ≥ 1 and ≥ 2. */
  tables: { system: string; atLeast1: TAttributionTable; atLeast2: TAttributionTable }[];
  /** Answers left out: no label of this source, or no claims. */
  excluded: number;
  /** One point per question × system with a defined faithfulness and context nDCG@10. */
  points: { qid: string; system: string; ndcg: number; faithfulness: number }[];
};

export type TGenerationPanel = {
  empty: string | null;
  systems: string[];
  questions: number;
  answers: number;
  baseline: string | null;
  judges: string[];
  judge: string | null;
  measures: typeof GENERATION_MEASURES;
  tables: TGenerationTable[];
  claims: (TClaimAgreement & { answers: number; versionMismatch: number }) | null;
  faithfulness: TFaithfulnessAgreement | null;
  /** Judge vs human on answer relevance (0–3): share of answers with the same grade and linear kappa. */
  relevance: { n: number; rawAgreement: number | null; kappa: number | null } | null;
  attribution: TAttribution[];
  ragas: typeof RAGAS_REFERENCE;
  goodAnswer: string;
  partialWeight: number;
  resampling: typeof RESAMPLING;
};

// ---------------------------------------------------------------------------------------------
// The panel

export type TGenerationOptions = { baseline?: string; judge?: string; gain: Gain };

/** The Generation section for one view, from the answers and labels loaded for it (lib/dashboard/load/answers.ts). */
export function generationPanel(view: TView, opts: TGenerationOptions): TGenerationPanel {
  const { state, answers, labels } = view.generation!;
  const key = JSON.stringify([view.data.version, opts.baseline ?? null, opts.judge ?? null, opts.gain]);
  const kept = state.results.get(key) as TGenerationPanel | undefined;
  if (kept) return kept;
  const result = computeGeneration(answers, labels, view.data, opts);
  state.results.set(key, result);
  while (state.results.size > 16) state.results.delete(state.results.keys().next().value as string);
  return result;
}

/**
 * Per-resample sums and flipped sums of the last computations per (project, source, measure,
 * system): after a label change the intervals and paired tests only add the questions whose values
 * changed (lib/stats/bootstrap-means.ts, lib/stats/paired.ts; the same numbers as from scratch).
 */
const MEANS_MEMO = (data: TCacheHolder) =>
  cacheOf(data).carried("generation.MEANS_MEMO", (): { intervals: MeanIntervalMemo; paired: PairedMemo } => ({
    intervals: new Map(),
    paired: new Map(),
  }));
function trimMemo(data: TCacheHolder) {
  for (const m of [MEANS_MEMO(data).intervals, MEANS_MEMO(data).paired])
    while (m.size > 400) m.delete(m.keys().next().value as string);
}

type TSourceLabel = { claimLabels: readonly TClaimLabel[]; relevance: number | null; claimVersion: number };

/**
 * Per answer, the reference labels' view of its context (lib/stats/generation.ts contextRelevance),
 * kept per answer list, chunk label-set version and gain: a label of an answer changes none of it.
 */
const contextCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "generation.contextCache",
    () =>
      new WeakMap<readonly TAnswer[], { key: string; map: Map<string, { maxGrade: number; ndcg: number | null }> }>(),
  );
function contextRelevances(
  answers: readonly TAnswer[],
  data: TDashboardData,
  gain: Gain,
): Map<string, { maxGrade: number; ndcg: number | null }> {
  const key = `${data.version}\u0000${gain}`;
  const kept = contextCache(data).get(answers);
  if (kept && kept.key === key) return kept.map;
  const qrels = referenceQrels(data, undefined);
  const contextOf = new Map<string, { maxGrade: number; ndcg: number | null }>();
  for (const a of answers) {
    const all = qrels.get(a.queryId) ?? new Map<number, number>();
    // The context is judged against the reference labels of its own chunking (lib/dashboard/systems.ts does the same for runs).
    const chunking = a.context.length ? data.chunks.get(a.context[0])?.chunkingId : undefined;
    const judged =
      chunking === undefined
        ? all
        : new Map([...all].filter(([chunkId]) => data.chunks.get(chunkId)?.chunkingId === chunking));
    contextOf.set(a.id, contextRelevance(a.context, judged, gain, 10));
  }
  contextCache(data).set(answers, { key, map: contextOf });
  return contextOf;
}

/** Pure over the loaded answers, labels and the dashboard's chunk data (exported for tests). */
export function computeGeneration(
  answers: readonly TAnswer[],
  labels: TLabels,
  data: TDashboardData,
  opts: TGenerationOptions,
): TGenerationPanel {
  const judges = [...labels.judges.keys()];
  const judge = opts.judge && labels.judges.has(opts.judge) ? opts.judge : (judges[0] ?? null);
  const systems = [...new Set(answers.map((a) => a.system))].sort();
  const baseline = opts.baseline && systems.includes(opts.baseline) ? opts.baseline : (systems[0] ?? null);
  const base = {
    systems,
    answers: answers.length,
    baseline,
    judges,
    judge,
    measures: GENERATION_MEASURES,
    ragas: RAGAS_REFERENCE,
    goodAnswer: GOOD_ANSWER_TEXT,
    partialWeight: PARTIAL_WEIGHT,
    resampling: RESAMPLING,
  };
  if (answers.length === 0)
    return {
      ...base,
      empty: NO_ANSWERS_HINT,
      questions: 0,
      tables: [],
      claims: null,
      faithfulness: null,
      relevance: null,
      attribution: [],
    };

  const queryIds = [...new Set(answers.map((a) => a.queryId))].sort((a, b) => a - b);
  const unitOf = new Map(queryIds.map((q, i) => [q, i]));
  const systemIndex = new Map(systems.map((s, i) => [s, i]));
  const judgeLabels = judge ? labels.judges.get(judge)! : null;
  const sources: { source: "human" | "judge"; judge: string | null; of: (a: TAnswer) => TSourceLabel | null }[] = [
    { source: "human", judge: null, of: (a) => labels.human.get(a.id) ?? null },
  ];
  if (judgeLabels)
    sources.push({
      source: "judge",
      judge,
      of: (a) => {
        const l = judgeLabels.get(a.id);
        return l && l.claimLabels
          ? { claimLabels: l.claimLabels, relevance: l.relevance, claimVersion: l.claimVersion }
          : null;
      },
    });

  // Per-system means with intervals and paired tests.
  const baselineIndex = baseline === null ? -1 : systemIndex.get(baseline)!;
  const tables = sources.map(({ source, judge: j, of }): TGenerationTable => {
    const columns = GENERATION_MEASURES.map(() =>
      systems.map(() => new Array<number | null>(queryIds.length).fill(null)),
    );
    const counts = systems.map(() => 0);
    let labelled = 0;
    let noClaims = 0;
    for (const a of answers) {
      const l = of(a);
      if (!l) continue;
      labelled++;
      const s = systemIndex.get(a.system)!;
      const u = unitOf.get(a.queryId)!;
      counts[s]++;
      const f = faithfulness(l.claimLabels, PARTIAL_WEIGHT);
      if (f === null) noClaims++;
      columns[0][s][u] = f;
      columns[1][s][u] = faithfulness(l.claimLabels, 0);
      columns[2][s][u] = l.relevance;
    }
    const empty =
      labelled === 0
        ? source === "human"
          ? "no final human labels of answers yet: assign answers to annotators and let them label claims and relevance"
          : `judge ${j} has labelled no answer`
        : null;
    const memoKey = `${source}\u0000${j ?? ""}`;
    const cells = empty
      ? []
      : columns.map((values, m) =>
          systemMeans(values, baselineIndex, {
            ...RESAMPLING,
            memo: MEANS_MEMO(data),
            keys: systems.map((system) => `${memoKey}\u0000${GENERATION_MEASURES[m].id}\u0000${system}`),
          }),
        );
    trimMemo(data);
    return {
      source,
      judge: j,
      labelled,
      noClaims,
      empty,
      rows: empty ? [] : systems.map((system, s) => ({ system, answers: counts[s], cells: cells.map((c) => c[s]) })),
    };
  });

  // Judge vs human.
  let claims: TGenerationPanel["claims"] = null;
  let faith: TFaithfulnessAgreement | null = null;
  let relevance: TGenerationPanel["relevance"] = null;
  if (judgeLabels) {
    const claimPairs: { human: TClaimLabel; judge: TClaimLabel }[] = [];
    const faithPairs: { human: number; judge: number }[] = [];
    const relevancePairs: { reference: number; other: number }[] = [];
    let both = 0;
    let versionMismatch = 0;
    for (const a of answers) {
      const h = labels.human.get(a.id);
      const jl = judgeLabels.get(a.id);
      if (!h || !jl) continue;
      both++;
      if (jl.relevance !== null) relevancePairs.push({ reference: h.relevance, other: jl.relevance });
      if (!jl.claimLabels) continue;
      // Claims are compared one by one only on the same claim set; faithfulness is a share, comparable across versions.
      if (jl.claimVersion === h.claimVersion && jl.claimLabels.length === h.claimLabels.length)
        h.claimLabels.forEach((label, i) => claimPairs.push({ human: label, judge: jl.claimLabels![i] }));
      else versionMismatch++;
      const fh = faithfulness(h.claimLabels);
      const fj = faithfulness(jl.claimLabels);
      if (fh !== null && fj !== null) faithPairs.push({ human: fh, judge: fj });
    }
    if (both > 0) {
      claims = { ...claimAgreement(claimPairs), answers: both, versionMismatch };
      faith = faithfulnessAgreement(faithPairs);
      const m = confusionOf(relevancePairs);
      relevance = { n: relevancePairs.length, rawAgreement: rawAgreement(m), kappa: cohenKappa(m, "linear").value };
    }
  }

  // Failure attribution and the scatter, per label source.
  const contextOf = contextRelevances(answers, data, opts.gain);
  const attribution = sources.map(({ source, judge: j, of }): TAttribution => {
    const rows: { system: string; qid: string; maxGrade: number; good: boolean }[] = [];
    const points: TAttribution["points"] = [];
    let excluded = 0;
    for (const a of answers) {
      const l = of(a);
      const good = l && l.relevance !== null ? isGoodAnswer(l.claimLabels, l.relevance) : null;
      if (!l || good === null) {
        excluded++;
        continue;
      }
      const c = contextOf.get(a.id)!;
      rows.push({ system: a.system, qid: a.qid, maxGrade: c.maxGrade, good });
      const f = faithfulness(l.claimLabels);
      if (c.ndcg !== null && f !== null) points.push({ qid: a.qid, system: a.system, ndcg: c.ndcg, faithfulness: f });
    }
    const tablesFor = (system: string, rs: typeof rows) => ({
      system,
      atLeast1: attributionTable(rs, 1),
      atLeast2: attributionTable(rs, 2),
    });
    return {
      source,
      judge: j,
      tables: [
        tablesFor("all", rows),
        ...systems.map((s) =>
          tablesFor(
            s,
            rows.filter((r) => r.system === s),
          ),
        ),
      ],
      excluded,
      points: points.sort((x, y) =>
        x.system !== y.system ? (x.system < y.system ? -1 : 1) : x.qid < y.qid ? -1 : x.qid > y.qid ? 1 : 0,
      ),
    };
  });

  return {
    ...base,
    empty: null,
    questions: queryIds.length,
    tables,
    claims,
    faithfulness: faith,
    relevance,
    attribution,
  };
}
