import type { TDashboardData, TLabel } from "./model.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";

/**
 * Which judges are complete, and the default judge (issue 22 item 7). A judge's label set is
 * complete when its latest judge run (lib/judge, started from the page or the CLI) completed, or
 * when it was imported from a file (no run), and it covers at least FULL_COVERAGE of the pool's
 * items in its chunking(s); anything else is partial (a run still under way, stopped or cancelled; a run on a subset;
 * a file that labels part of the pool; a pool deepened since) and shown with its coverage. The
 * default judge is the most recently finished complete one; when none is complete, the one with
 * the largest coverage (then the most recent), still marked partial.
 */
export const FULL_COVERAGE = 0.99;

/** `status`: the latest judge run's (queued, running, stopped, cancelled, completed), or "imported" for labels without a run. */
export type TJudgeState = {
  name: string;
  labels: number;
  /** Labels whose chunk reads like instructions to a model (lib/judge/injection.ts). */
  flagged: number;
  /** Pool items this judge labelled, of `poolItems` (the pool items in the chunkings its labels are on). */
  pooled: number;
  poolItems: number;
  /** pooled / poolItems (null without a pool in its chunking: then only the run's status makes it partial). */
  coverage: number | null;
  status: string;
  /** When the run finished, or the last label was written (ISO); null when unknown. */
  at: string | null;
  partial: boolean;
};

/**
 * Pool items labelled by a judge, of the pool items in the chunkings its labels are on (a judge
 * labels one chunking's chunks: a transfer judge B's, an imported file A's), and its flagged
 * labels, kept while its labels and the pool are the same objects (a label change elsewhere reuses them).
 */
const pooledCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "judges.pooledCache",
    () => new WeakMap<readonly TLabel[], { base: object; pooled: number; poolItems: number; flagged: number }>(),
  );

function pooledCount(
  data: TDashboardData,
  labels: readonly TLabel[],
): { pooled: number; poolItems: number; flagged: number } {
  const hit = pooledCache(data).get(labels);
  if (hit && hit.base === data.base) return hit;
  const keys = new Map<number, Set<number>>();
  const chunkings = new Set<number>();
  let flagged = 0;
  for (const l of labels) {
    if (l.injection) flagged++;
    let chunks = keys.get(l.queryId);
    if (!chunks) keys.set(l.queryId, (chunks = new Set()));
    chunks.add(l.chunkId);
    const c = data.chunks.get(l.chunkId);
    if (c) chunkings.add(c.chunkingId);
  }
  let pooled = 0;
  let poolItems = 0;
  for (const it of data.poolItems.values()) {
    const c = data.chunks.get(it.chunkId);
    if (!c || !chunkings.has(c.chunkingId)) continue;
    poolItems++;
    if (keys.get(it.queryId)?.has(it.chunkId)) pooled++;
  }
  const result = { base: data.base, pooled, poolItems, flagged };
  pooledCache(data).set(labels, result);
  return result;
}

const statesCache = (data: TCacheHolder) =>
  cacheOf(data).per(
    "judges.statesCache",
    () => new WeakMap<TDashboardData, { states: TJudgeState[]; defaultJudge: string | null }>(),
  );

/** Every judge of the project (names sorted) with its coverage and status, and the default judge. */
export function judgeStates(data: TDashboardData): { states: TJudgeState[]; defaultJudge: string | null } {
  const hit = statesCache(data).get(data);
  if (hit) return hit;
  const states: TJudgeState[] = [...data.judges].map(([name, labels]) => {
    const run = data.judgeRuns.get(name);
    const { pooled, poolItems, flagged } = pooledCount(data, labels);
    const coverage = poolItems > 0 ? pooled / poolItems : null;
    const status = run?.status ?? "imported";
    const at = run ? run.finishedAt : (data.judgeLabelledAt.get(name) ?? null);
    const finished = status === "completed" || status === "imported";
    return {
      name,
      labels: labels.length,
      flagged,
      pooled,
      poolItems,
      coverage,
      status,
      at,
      partial: !finished || (coverage !== null && coverage < FULL_COVERAGE),
    };
  });
  const time = (s: TJudgeState) => (s.at === null ? -Infinity : Date.parse(s.at));
  const complete = states.filter((s) => !s.partial).sort((a, b) => time(b) - time(a) || a.name.localeCompare(b.name));
  const fallback = [...states].sort(
    (a, b) => (b.coverage ?? 0) - (a.coverage ?? 0) || time(b) - time(a) || a.name.localeCompare(b.name),
  );
  const result = { states, defaultJudge: complete[0]?.name ?? fallback[0]?.name ?? null };
  statesCache(data).set(data, result);
  return result;
}
