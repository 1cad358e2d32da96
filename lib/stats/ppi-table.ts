/**
 * The systems comparison from cheap labels, as the dashboard and `assessor eval --ppi` print it:
 * for every run and measure the PPI++ mean (lib/stats/ppi.ts) beside the human-only and judge-only
 * intervals, the PPI++ paired difference from the baseline with its p-value, and the
 * queries-needed advisor (Sakai's topic-set-size design, lib/stats/sample-size.ts).
 *
 * Input: per run and measure, the judge's value on every question of the population and the
 * human value on the n completely human-labelled questions (`labelled` gives their positions in
 * the population, in the order of the human values). The other N questions are the unlabelled
 * part.
 *
 * Advisor: the observed difference and its interval are the PPI++ ones; the standard deviation of
 * per-question differences is the human one on the labelled questions (sample sd, n − 1), or the
 * judge's on every question when fewer than MIN_ADVICE_QUESTIONS are labelled (`sdSource` says
 * which). Without a basis (too few questions, or sd 0: lib/stats/sample-size.ts TNoBasis) the
 * question counts are null and `noBasis` says why.
 *
 * Range: every measure of the table lies in `range` (default [0, 1]: recall, MRR and nDCG); the
 * estimates and intervals are clipped to it, and the differences to [−1, 1] (lib/stats/ppi.ts).
 */
import { narrowerBy, ppiMean, ppiPairedDifference, type TPpiResult, type TPpiSample, type TRange } from "./ppi.ts";
import {
  adviceSpread,
  MIN_ADVICE_QUESTIONS,
  queriesForHalfWidth,
  queriesToDetect,
  type TNoBasis,
} from "./sample-size.ts";

export type TPpiTableInput = {
  columns: readonly { id: string; label: string }[];
  runs: readonly string[];
  /** Index of the baseline in `runs` (null: no comparisons). */
  baseline: number | null;
  /** judge[run][column][question]: every question of the population. */
  judge: readonly (readonly (readonly number[])[])[];
  /** human[run][column][k]: the k-th labelled question. */
  human: readonly (readonly (readonly number[])[])[];
  /** Position in the population of each labelled question. */
  labelled: readonly number[];
  /** Difference to detect (advisor); default 0.05. */
  delta?: number;
  /** Target half-width of the 95% interval of a difference (advisor); default 0.05. */
  halfWidth?: number;
  /** The measures' possible values; default [0, 1]. */
  range?: TRange;
};

export type TPpiCell = { mean: TPpiResult; narrowerBy: number | null; diff: TPpiResult | null };
export type TAdvice = {
  column: string;
  label: string;
  system: string;
  difference: number | null;
  low: number | null;
  high: number | null;
  p: number | null;
  sd: number | null;
  sdSource: "human" | "judge";
  /** Set when the question counts have no basis (then null). */
  noBasis: TNoBasis | null;
  toDetect: number | null;
  forHalfWidth: number | null;
};
export type TPpiTable = {
  columns: { id: string; label: string }[];
  questions: number;
  labelled: number;
  delta: number;
  halfWidth: number;
  rows: { system: string; cells: TPpiCell[] }[];
  advisor: TAdvice[];
};

function sampleOf(
  judge: readonly number[],
  human: readonly number[],
  labelledSet: Uint8Array,
  labelled: readonly number[],
): TPpiSample {
  const judgeLabelled = labelled.map((i) => judge[i]);
  const judgeUnlabelled: number[] = [];
  for (let i = 0; i < judge.length; i++) if (!labelledSet[i]) judgeUnlabelled.push(judge[i]);
  return { human, judgeLabelled, judgeUnlabelled };
}

const finite = (x: number) => (Number.isFinite(x) ? x : null);
export const MEASURE_RANGE: TRange = [0, 1];

export function ppiTable(input: TPpiTableInput): TPpiTable {
  const delta = input.delta ?? 0.05;
  const halfWidth = input.halfWidth ?? 0.05;
  const range = input.range ?? MEASURE_RANGE;
  const questions = input.judge[0]?.[0]?.length ?? 0;
  const labelledSet = new Uint8Array(questions);
  for (const i of input.labelled) labelledSet[i] = 1;
  const samples = input.runs.map((_, r) =>
    input.columns.map((_, c) => sampleOf(input.judge[r][c], input.human[r][c], labelledSet, input.labelled)),
  );
  const advisor: TAdvice[] = [];
  const rows = input.runs.map((system, r) => ({
    system,
    cells: input.columns.map((col, c): TPpiCell => {
      const mean = ppiMean(samples[r][c], { range });
      const b = input.baseline;
      if (b === null || b === r) return { mean, narrowerBy: narrowerBy(mean), diff: null };
      const diff = ppiPairedDifference(samples[r][c], samples[b][c], { range });
      const humanDiffs = samples[r][c].human.map((v, k) => v - samples[b][c].human[k]);
      const byHuman = humanDiffs.length >= MIN_ADVICE_QUESTIONS;
      const { sd, noBasis } = adviceSpread(
        byHuman ? humanDiffs : input.judge[r][c].map((v, i) => v - input.judge[b][c][i]),
      );
      advisor.push({
        column: col.id,
        label: col.label,
        system,
        difference: diff.ppi?.estimate ?? diff.pointOnly,
        low: diff.ppi?.low ?? null,
        high: diff.ppi?.high ?? null,
        p: diff.p,
        sd: finite(sd),
        sdSource: byHuman ? "human" : "judge",
        noBasis,
        toDetect: noBasis ? null : queriesToDetect(sd, delta),
        forHalfWidth: noBasis ? null : queriesForHalfWidth(sd, halfWidth),
      });
      return { mean, narrowerBy: narrowerBy(mean), diff };
    }),
  }));
  return {
    columns: input.columns.map(({ id, label }) => ({ id, label })),
    questions,
    labelled: input.labelled.length,
    delta,
    halfWidth,
    rows,
    advisor,
  };
}
