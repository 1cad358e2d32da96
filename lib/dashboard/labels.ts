import { AppError } from "../errors.ts";
import type { TDashboardData, TLabel } from "./data.ts";

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

/** Query filter for a tag slice (every query when no tag). */
export function tagFilter(data: TDashboardData, tag: string | undefined): (queryId: number) => boolean {
  if (!tag) return () => true;
  return (queryId) => data.queries.get(queryId)?.tags.includes(tag) ?? false;
}

/** The judge the viewer asked for, or the first one; null when the project has no judge labels. */
export function pickJudge(data: TDashboardData, judge: string | undefined): string | null {
  if (judge) {
    if (!data.judges.has(judge)) throw new AppError("not_found", `no judge named "${judge}" in this project; judges: ${[...data.judges.keys()].join(", ") || "none yet"}`);
    return judge;
  }
  return data.judges.keys().next().value ?? null;
}

export function runBySystem(data: TDashboardData, system: string): { id: number; system: string } {
  const run = data.runs.find((r) => r.system === system);
  if (!run) throw new AppError("not_found", `no run named "${system}" in this project; runs: ${data.runs.map((r) => r.system).join(", ") || "none yet"}`);
  return run;
}

/** Keys (queryId:chunkId) of the pool items a run contributed. */
export function contributedBy(data: TDashboardData, runId: number): Set<string> {
  const keys = new Set<string>();
  for (const [itemId, runs] of data.provenance) {
    if (!runs.includes(runId)) continue;
    const it = data.poolItems.get(itemId);
    if (it) keys.add(`${it.queryId}:${it.chunkId}`);
  }
  return keys;
}

export const NO_JUDGE_HINT = "no judge labels yet: import them with npx assessor import judge --judge NAME FILE";
export const NO_HUMAN_HINT = "no final human labels yet: import existing ones with npx assessor import labels --source NAME FILE, or assign items (npx assessor assign) and let annotators grade them";
export const NO_RUNS_HINT = "no runs yet: import them with npx assessor import run FILE";
