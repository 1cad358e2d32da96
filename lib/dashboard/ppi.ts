import { ppiTable, type TPpiTable } from "../stats/ppi-table.ts";
import { completeQuestions } from "./complete.ts";
import type { TDashboardData } from "./data.ts";
import {
  judgeLabelQrels,
  NO_JUDGE_HINT,
  NO_RUNS_HINT,
  pickJudge,
  referenceQrels,
  runBySystem,
  tagFilter,
  type TQrels,
} from "./labels.ts";
import type { TDashboardQuery } from "./options.ts";
import type { TRunRankings } from "./rankings.ts";
import { retrievalValues } from "./systems.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";

/**
 * The systems table's third label source, "judge + human (PPI)", and the queries-needed advisor
 * (lib/stats/ppi-table.ts). The population is every question of the slice; the judge's values are
 * computed on all of them (a question the judge did not label has no relevant chunk for it), the
 * human values on the complete calibration questions only (lib/dashboard/complete.ts), from the
 * same per-question cache as the human and judge tables, so a label change re-evaluates only the
 * questions it touched.
 */
export type TPpiPanel = {
  judge: string | null;
  baseline: string | null;
  table: TPpiTable | null;
  empty: string | null;
};

export const NO_COMPLETE_HINT =
  "no question is completely human-labelled yet: PPI needs whole questions; sample some with npx assessor assign --sample-queries N (or the calibration card's question sample)";

const EMPTY: Map<number, number> = new Map();
/** The judge's qrels over every question of the slice (empty for a question it did not label), per judge qrels and slice. */
const populations = (data: TCacheHolder) =>
  cacheOf(data).carried("ppi.populations", () => new WeakMap<TQrels, { base: object; tag: string; qrels: TQrels }>());

function judgePopulation(data: TDashboardData, judgeQrels: TQrels, tag: string | undefined): TQrels {
  const kept = populations(data).get(judgeQrels);
  if (kept && kept.base === data.base && kept.tag === (tag ?? "")) return kept.qrels;
  const keep = tagFilter(data, tag);
  const qrels: TQrels = new Map();
  for (const queryId of data.queries.keys()) if (keep(queryId)) qrels.set(queryId, judgeQrels.get(queryId) ?? EMPTY);
  populations(data).set(judgeQrels, { base: data.base, tag: tag ?? "", qrels });
  return qrels;
}

export function ppiPanel(data: TDashboardData, rankings: Map<number, TRunRankings>, opts: TDashboardQuery): TPpiPanel {
  const judge = pickJudge(data, opts.judge);
  const baseline = opts.baseline ? runBySystem(data, opts.baseline).system : (data.runs[0]?.system ?? null);
  const base = { judge, baseline };
  if (data.runs.length === 0) return { ...base, table: null, empty: NO_RUNS_HINT };
  if (!judge) return { ...base, table: null, empty: NO_JUDGE_HINT };
  const population = judgePopulation(data, judgeLabelQrels(data, judge, opts.tag), opts.tag);
  const complete = completeQuestions(data);
  const reference = referenceQrels(data, opts.tag);
  const labelledQrels: TQrels = new Map();
  for (const [queryId, judged] of reference)
    if (complete.has(queryId) && population.has(queryId)) labelledQrels.set(queryId, judged);
  if (labelledQrels.size === 0) return { ...base, table: null, empty: NO_COMPLETE_HINT };
  const byJudge = retrievalValues(data, "judge", population, rankings, opts.gain);
  const byHuman = retrievalValues(data, "human", labelledQrels, rankings, opts.gain);
  const position = new Map(byJudge.queryIds.map((q, i) => [q, i]));
  const table = ppiTable({
    columns: byJudge.columns,
    runs: data.runs.map((r) => r.system),
    baseline: baseline === null || data.runs.length < 2 ? null : data.runs.findIndex((r) => r.system === baseline),
    judge: byJudge.values,
    human: byHuman.values,
    labelled: byHuman.queryIds.map((q) => position.get(q)!),
    delta: opts.delta,
    halfWidth: opts.halfWidth,
  });
  return { ...base, table, empty: null };
}
