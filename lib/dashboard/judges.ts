import type { TDashboardData, TLabel } from "./model.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";
import { parseProbeJudge } from "../judge/probe/spec.ts";

/**
 * Which judges are complete, and the default judge. A judge's label set is
 * complete when its latest judge run (lib/judge, started from the page or the CLI) completed, or
 * when it was imported from a file (no run), and it covers at least FULL_COVERAGE of the pool's
 * items in its chunking(s); anything else is partial (a run still under way, stopped or cancelled; a run on a subset;
 * a file that labels part of the pool; a pool deepened since) and shown with its coverage. The
 * default judge is the most recently finished complete one; when none is complete, the one with
 * the largest coverage (then the most recent), still marked partial.
 *
 * A robustness probe (`<judge>~probe:<kind>`, lib/judge/probe/spec.ts) is no judge of the pool: it
 * grades a sample of chunks changed on purpose, and its figures are the Judge robustness card's. It
 * is left out of the judges offered (the picker lists these states) and is never the default.
 *
 * A transfer judge (`transfer:A->B`, lib/chunkings/transfer.ts) is measured against B's pooled
 * pairs: the pairs of B's runs' top K at the project's pool depth. `pool --chunking B` leaves out
 * the pairs the transfer labelled (they need no human grade), so B's pool items alone would hold
 * none of its labels; its pool is B's pool items together with those pairs (`loadTransferPools`).
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
    () =>
      new WeakMap<
        readonly TLabel[],
        { base: object; extra: ReadonlySet<string> | undefined; pooled: number; poolItems: number; flagged: number }
      >(),
  );

/** "queryId:chunkId" of a pair. */
const pairKey = (queryId: number, chunkId: number) => `${queryId}:${chunkId}`;

/** `extra`: pairs that count as pooled besides the pool items (a transfer judge's, see above). */
function pooledCount(
  data: TDashboardData,
  labels: readonly TLabel[],
  extra?: ReadonlySet<string>,
): { pooled: number; poolItems: number; flagged: number } {
  const hit = pooledCache(data).get(labels);
  if (hit && hit.base === data.base && hit.extra === extra) return hit;
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
  const seen = new Set<string>();
  const count = (queryId: number, chunkId: number) => {
    const c = data.chunks.get(chunkId);
    if (!c || !chunkings.has(c.chunkingId)) return;
    if (extra) {
      const k = pairKey(queryId, chunkId);
      if (seen.has(k)) return;
      seen.add(k);
    }
    poolItems++;
    if (keys.get(queryId)?.has(chunkId)) pooled++;
  };
  for (const it of data.poolItems.values()) count(it.queryId, it.chunkId);
  for (const k of extra ?? []) {
    const [q, c] = k.split(":").map(Number);
    count(q, c);
  }
  const result = { base: data.base, extra, pooled, poolItems, flagged };
  pooledCache(data).set(labels, result);
  return result;
}

const statesCache = (data: TCacheHolder) =>
  cacheOf(data).per(
    "judges.statesCache",
    () => new WeakMap<TDashboardData, { states: TJudgeState[]; defaultJudge: string | null }>(),
  );

/** Per data.base: the pool depth read, and per transfer judge the pairs of its target's runs' top K (load/transfer-pools.ts reads them). */
export const transferPools = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "judges.transferPools",
    () => new WeakMap<object, { depth: number; pools: Map<string, ReadonlySet<string>> }>(),
  );

/** Forgets the judges' states of one version (after its transfer pools were read). */
export function forgetJudgeStates(data: TDashboardData): void {
  statesCache(data).delete(data);
}

/** The judges the dashboard offers: every judge of the project but the robustness probes. */
export function offeredJudges(data: TDashboardData): string[] {
  return [...data.judges.keys()].filter((name) => parseProbeJudge(name) === null);
}

/** Every judge the dashboard offers (names sorted) with its coverage and status, and the default judge. */
export function judgeStates(data: TDashboardData): { states: TJudgeState[]; defaultJudge: string | null } {
  const hit = statesCache(data).get(data);
  if (hit) return hit;
  const offered = [...data.judges].filter(([name]) => parseProbeJudge(name) === null);
  const states: TJudgeState[] = offered.map(([name, labels]) => {
    const run = data.judgeRuns.get(name);
    const { pooled, poolItems, flagged } = pooledCount(
      data,
      labels,
      transferPools(data).get(data.base)?.pools.get(name),
    );
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
