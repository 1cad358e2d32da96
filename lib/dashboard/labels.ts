import { AppError } from "../errors.ts";
import type { TDashboardData, TLabel } from "./data.ts";
import { refuseProbeJudge } from "../judge/probe/spec.ts";
import { judgeStates, offeredJudges } from "./judges.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";

/** Label sets the dashboard compares, as qrels keyed by internal ids: queryId → chunkId → grade. */
export type TQrels = Map<number, Map<number, number>>;

export function qrelsOf(labels: Iterable<TLabel>, keepQuery: (queryId: number) => boolean = () => true): TQrels {
  const out: TQrels = new Map();
  for (const l of labels) {
    if (!keepQuery(l.queryId)) continue;
    let m = out.get(l.queryId);
    if (!m) out.set(l.queryId, (m = new Map()));
    m.set(l.chunkId, l.grade);
  }
  return out;
}

/**
 * Qrels of the final human labels in a tag slice, kept per project and slice: the next label-set
 * version copies them and rebuilds only the queries whose labels changed (data.referenceChanges),
 * so an unchanged query keeps its Map (lib/dashboard/systems.ts keeps its values by that Map).
 */
const lastReference = (data: TCacheHolder) =>
  cacheOf(data).carried("labels.lastReference", () => new Map<string, { version: string; qrels: TQrels }>());

export function referenceQrels(data: TDashboardData, tag: string | undefined): TQrels {
  const key = `${tag ?? ""}`;
  const last = lastReference(data).get(key);
  if (last && last.version === data.version) return last.qrels;
  const keep = tagFilter(data, tag);
  let qrels: TQrels;
  const changes = data.referenceChanges;
  if (last && changes && last.version === changes.from) {
    qrels = new Map(last.qrels);
    for (const q of changes.queries) qrels.delete(q);
    for (const l of data.reference) {
      if (!changes.queries.has(l.queryId) || !keep(l.queryId)) continue;
      let m = qrels.get(l.queryId);
      if (!m) qrels.set(l.queryId, (m = new Map()));
      m.set(l.chunkId, l.grade);
    }
  } else qrels = qrelsOf(data.reference, keep);
  lastReference(data).delete(key);
  lastReference(data).set(key, { version: data.version, qrels });
  while (lastReference(data).size > 16) lastReference(data).delete(lastReference(data).keys().next().value as string);
  return qrels;
}

/** Qrels of a judge's labels in a tag slice (judge labels change only with an import). */
const judgeQrels = (data: TCacheHolder) =>
  cacheOf(data).carried("labels.judgeQrels", () => new WeakMap<readonly TLabel[], Map<string, TQrels>>());

export function judgeLabelQrels(data: TDashboardData, judge: string, tag: string | undefined): TQrels {
  const labels = data.judges.get(judge) ?? [];
  let bySlice = judgeQrels(data).get(labels);
  if (!bySlice) judgeQrels(data).set(labels, (bySlice = new Map()));
  let q = bySlice.get(tag ?? "");
  if (!q) bySlice.set(tag ?? "", (q = qrelsOf(labels, tagFilter(data, tag))));
  return q;
}

/** Query filter for a tag slice (every query when no tag). */
export function tagFilter(data: TDashboardData, tag: string | undefined): (queryId: number) => boolean {
  if (!tag) return () => true;
  const ids = new Set<number>();
  for (const [id, q] of data.queries) if (q.tags.includes(tag)) ids.add(id);
  return (queryId) => ids.has(queryId);
}

/**
 * The judge the viewer asked for, or the default one (lib/dashboard/judges.ts: the most recent
 * complete judge); null when the project has no judge labels. A robustness probe is refused
 * (lib/judge/probe/spec.ts refuseProbeJudge): the dashboard does not offer it.
 */
export function pickJudge(data: TDashboardData, judge: string | undefined): string | null {
  if (judge) {
    if (!data.judges.has(judge))
      throw new AppError(
        "not_found",
        `no judge named "${judge}" in this project; judges: ${offeredJudges(data).join(", ") || "none yet"}`,
      );
    refuseProbeJudge(judge);
    return judge;
  }
  return judgeStates(data).defaultJudge;
}

export function runBySystem(data: TDashboardData, system: string): { id: number; system: string } {
  const run = data.runs.find((r) => r.system === system);
  if (!run)
    throw new AppError(
      "not_found",
      `no run named "${system}" in this project; runs: ${data.runs.map((r) => r.system).join(", ") || "none yet"}`,
    );
  return run;
}

/** Per run, the pool items it contributed as queryId → chunk ids; built once per pool (data.base). */
const contributions = (data: TCacheHolder) =>
  cacheOf(data).carried("labels.contributions", () => new WeakMap<object, Map<number, Map<number, Set<number>>>>());

export function contributedBy(data: TDashboardData, runId: number): Map<number, Set<number>> {
  let all = contributions(data).get(data.base);
  if (!all) {
    all = new Map();
    for (const [itemId, runs] of data.provenance) {
      const it = data.poolItems.get(itemId);
      if (!it) continue;
      for (const r of runs) {
        let byQuery = all.get(r);
        if (!byQuery) all.set(r, (byQuery = new Map()));
        let chunks = byQuery.get(it.queryId);
        if (!chunks) byQuery.set(it.queryId, (chunks = new Set()));
        chunks.add(it.chunkId);
      }
    }
    contributions(data).set(data.base, all);
  }
  return all.get(runId) ?? new Map();
}

export const NO_JUDGE_HINT = "no judge labels yet: import them with npx assessor import judge --judge NAME FILE";
export const NO_HUMAN_HINT =
  "no final human labels yet: import existing ones with npx assessor import labels --source NAME FILE, or assign items (npx assessor assign) and let annotators grade them";
export const NO_RUNS_HINT = "no runs yet: import them with npx assessor import run FILE";
