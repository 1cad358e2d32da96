import type { Db } from "../../db/client.ts";
import type { TDashboardData } from "../model.ts";
import { runRankings } from "../rankings.ts";
import { forgetJudgeStates, transferPools } from "../judges.ts";
import { cacheOf } from "./cache.ts";

const pairKey = (queryId: number, chunkId: number) => `${queryId}:${chunkId}`;

const TRANSFER = /^transfer:.+->(.+)$/;
/** Label-set versions already prepared: a panel served from memory asks nothing of the database. */
const prepared = (data: TDashboardData) => cacheOf(data).per("judges.prepared", () => new WeakSet<TDashboardData>());

/**
 * Reads, once per pool and runs (data.base) and pool depth, each transfer judge's pooled pairs: the
 * top K (the project's pool depth) of every run on its target chunking, per accepted question, in
 * the evaluated order the pool is built in (lib/dashboard/rankings.ts). The dashboard's load
 * calls it (lib/dashboard/load/view.ts); judgeStates uses what it read.
 */
export async function loadTransferPools(db: Db, data: TDashboardData): Promise<void> {
  if (prepared(data).has(data)) return;
  const names = [...data.judges.keys()].filter((n) => TRANSFER.test(n));
  if (names.length === 0) return void prepared(data).add(data);
  const project = await db.project.findUnique({ where: { id: data.project.id }, select: { poolDepth: true } });
  const depth = project?.poolDepth ?? 0;
  const hit = transferPools(data).get(data.base);
  if (hit && hit.depth === depth && names.every((n) => hit.pools.has(n))) return void prepared(data).add(data);
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
  transferPools(data).set(data.base, { depth, pools });
  forgetJudgeStates(data);
  prepared(data).add(data);
}
