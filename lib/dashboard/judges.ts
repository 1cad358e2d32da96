import type { Db } from "../db/client.ts";
import type { TDashboardData, TLabel } from "./model.ts";
import { runRankings } from "./rankings.ts";

/**
 * Which judges are complete, and the default judge. A judge's label set is
 * complete when its latest judge run (lib/judge, started from the page or the CLI) completed, or
 * when it was imported from a file (no run), and it covers at least FULL_COVERAGE of the pool's
 * items in its chunking(s); anything else is partial (a run still under way, stopped or cancelled; a run on a subset;
 * a file that labels part of the pool; a pool deepened since) and shown with its coverage. The
 * default judge is the most recently finished complete one; when none is complete, the one with
 * the largest coverage (then the most recent), still marked partial.
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
const pooledCache = new WeakMap<
  readonly TLabel[],
  { base: object; extra: ReadonlySet<string> | undefined; pooled: number; poolItems: number; flagged: number }
>();

/** "queryId:chunkId" of a pair. */
const pairKey = (queryId: number, chunkId: number) => `${queryId}:${chunkId}`;

/** `extra`: pairs that count as pooled besides the pool items (a transfer judge's, see above). */
function pooledCount(
  data: TDashboardData,
  labels: readonly TLabel[],
  extra?: ReadonlySet<string>,
): { pooled: number; poolItems: number; flagged: number } {
  const hit = pooledCache.get(labels);
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
  pooledCache.set(labels, result);
  return result;
}

const statesCache = new WeakMap<TDashboardData, { states: TJudgeState[]; defaultJudge: string | null }>();

/** Per data.base: the pool depth read, and per transfer judge the pairs of its target's runs' top K. */
const transferPools = new WeakMap<object, { depth: number; pools: Map<string, ReadonlySet<string>> }>();
const TRANSFER = /^transfer:.+->(.+)$/;
/** Label-set versions already prepared: a panel served from memory asks nothing of the database. */
const prepared = new WeakSet<TDashboardData>();

/**
 * Reads, once per pool and runs (data.base) and pool depth, each transfer judge's pooled pairs: the
 * top K (the project's pool depth) of every run on its target chunking, per accepted question, in
 * the evaluated order the pool is built in (lib/dashboard/rankings.ts). The dashboard's panels
 * call it before computing (lib/dashboard/panels.ts); judgeStates uses what it read.
 */
export async function loadTransferPools(db: Db, data: TDashboardData): Promise<void> {
  if (prepared.has(data)) return;
  const names = [...data.judges.keys()].filter((n) => TRANSFER.test(n));
  if (names.length === 0) return void prepared.add(data);
  const project = await db.project.findUnique({ where: { id: data.project.id }, select: { poolDepth: true } });
  const depth = project?.poolDepth ?? 0;
  const hit = transferPools.get(data.base);
  if (hit && hit.depth === depth && names.every((n) => hit.pools.has(n))) return void prepared.add(data);
  const chunkings = await db.chunking.findMany({
    where: { projectId: data.project.id, name: { in: names.map((n) => TRANSFER.exec(n)![1]) } },
    select: { id: true, name: true },
  });
  const rankings = await runRankings(db, data);
  const pools = new Map<string, ReadonlySet<string>>();
  for (const name of names) {
    const target = chunkings.find((c) => c.name === TRANSFER.exec(name)![1]);
    const pairs = new Set<string>();
    for (const run of data.runs) {
      if (!target || run.chunkingId !== target.id) continue;
      for (const [queryId, ranking] of rankings.get(run.id) ?? []) {
        if (!data.queries.has(queryId)) continue;
        for (const chunkId of ranking.chunkIds.subarray(0, depth)) pairs.add(pairKey(queryId, chunkId));
      }
    }
    pools.set(name, pairs);
  }
  transferPools.set(data.base, { depth, pools });
  statesCache.delete(data);
  prepared.add(data);
}

/** Every judge of the project (names sorted) with its coverage and status, and the default judge. */
export function judgeStates(data: TDashboardData): { states: TJudgeState[]; defaultJudge: string | null } {
  const hit = statesCache.get(data);
  if (hit) return hit;
  const states: TJudgeState[] = [...data.judges].map(([name, labels]) => {
    const run = data.judgeRuns.get(name);
    const { pooled, poolItems, flagged } = pooledCount(data, labels, transferPools.get(data.base)?.pools.get(name));
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
  statesCache.set(data, result);
  return result;
}
