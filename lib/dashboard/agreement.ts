/**
 * Agreement panels. Every figure is lib/stats' agreement report (the same function behind
 * `assessor agreement --format json`), computed on label sets aligned on (query, chunk):
 * - judge vs human: the final human labels (agreed, adjudicated, imported) as the reference, each
 *   judge as the other rater, side by side;
 * - human vs human: items graded by two annotators, per annotator pair (the pair's first name in
 *   alphabetical order as the reference) and overall (each item's first grade as the reference,
 *   second as the other; kappa and alpha do not depend on which is which);
 * - breakdowns: the same by query tag and by system (the pool items each run contributed).
 * The report's bootstrap numbers queries in qid order whatever the order of the labels, so its
 * intervals equal the CLI's on the same files however they are sorted.
 * The parts: alignments (agreement/align.ts), slices (agreement/slices.ts), caches by content
 * (agreement/reports.ts), judge and human blocks (agreement/judge.ts, agreement/human.ts).
 */
import type { TDashboardData } from "./data.ts";
import { judgeBlock } from "./agreement/judge.ts";
import { humanBlocks, humanOverall } from "./agreement/human.ts";
import { sliceFilter, type Slice } from "./agreement/slices.ts";
import type { TAgreementPanel, TBreakdownRow, TBreakdownsPanel, THumanPanel } from "./agreement/types.ts";
import { offeredJudges } from "./judges.ts";
import { NO_JUDGE_HINT, pickJudge } from "./labels.ts";
import { RESAMPLING, type TDashboardQuery } from "./options.ts";

export type {
  TAgreementBlock,
  TAgreementPanel,
  TBreakdownRow,
  TBreakdownsPanel,
  THumanPanel,
} from "./agreement/types.ts";
export { clearReportCache } from "./agreement/reports.ts";
export const BREAKDOWN_RESAMPLES = 200;

export function agreementPanel(data: TDashboardData, q: Pick<TDashboardQuery, "tag" | "system">): TAgreementPanel {
  const keep = sliceFilter(data, q.tag, q.system);
  // Side by side: the judges the dashboard offers (a robustness probe is the Judge robustness card's).
  const judges = offeredJudges(data).map((j) => judgeBlock(data, j, keep, RESAMPLING.resamples));
  return {
    judges,
    empty: judges.length === 0 ? NO_JUDGE_HINT : null,
    slice: { tag: q.tag ?? null, system: q.system ?? null },
  };
}

export function humanPanel(data: TDashboardData, q: Pick<TDashboardQuery, "tag" | "system">): THumanPanel {
  return humanBlocks(data, sliceFilter(data, q.tag, q.system), RESAMPLING.resamples);
}

/** Judge vs human (for the chosen judge) and human vs human, per query tag and per system. */
export function breakdownsPanel(data: TDashboardData, q: Pick<TDashboardQuery, "judge">): TBreakdownsPanel {
  const judge = pickJudge(data, q.judge);
  const rows: TBreakdownRow[] = [];
  const add = (kind: "tag" | "system", slice: string, keep: Slice) =>
    rows.push({
      kind,
      slice,
      judge: judge ? judgeBlock(data, judge, keep, BREAKDOWN_RESAMPLES) : null,
      human: humanOverall(data, keep, BREAKDOWN_RESAMPLES),
    });
  for (const tag of data.tags) add("tag", tag, sliceFilter(data, tag, undefined));
  // Breakdowns show the intervals of many slices at once: 200 resamples each keep them affordable.
  for (const run of data.runs) add("system", run.system, sliceFilter(data, undefined, run.system));
  return { judge, rows, resamples: BREAKDOWN_RESAMPLES };
}
