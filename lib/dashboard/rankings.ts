import type { Db } from "../db/client.ts";
import { compareEvaluated } from "../stats/order.ts";
import type { TDashboardData } from "./data.ts";
import { num, rows } from "./sql.ts";

/**
 * Each run's rankings in the evaluated order (lib/stats/order.ts: score descending, ties by chunk
 * id descending), as chunk ids per query. A run is immutable once imported (its content hash
 * names it), so its rankings are read and sorted once per process and kept: label changes only
 * re-grade them.
 */
export type TRanking = { chunkIds: Int32Array; docids: string[] };
export type TRunRankings = Map<number, TRanking>;

const globalRuns = globalThis as unknown as { __assessorRunRankings?: Map<string, Promise<TRunRankings>> };
const MAX_RUNS = 200;

function runCache(): Map<string, Promise<TRunRankings>> {
  globalRuns.__assessorRunRankings ??= new Map();
  return globalRuns.__assessorRunRankings;
}

async function loadRun(db: Db, runId: number, data: TDashboardData): Promise<TRunRankings> {
  const entries = await rows(db, `SELECT "queryId", "chunkId", "score" FROM "RunEntry" WHERE "runId" = ?`, [runId]);
  const byQuery = new Map<number, { docid: string; score: number; chunkId: number }[]>();
  for (const e of entries) {
    const chunkId = num(e[1]);
    const row = { docid: data.chunks.get(chunkId)?.docid ?? "", score: num(e[2]), chunkId };
    const queryId = num(e[0]);
    const list = byQuery.get(queryId);
    if (list) list.push(row);
    else byQuery.set(queryId, [row]);
  }
  const out: TRunRankings = new Map();
  for (const [queryId, rows] of byQuery) {
    rows.sort(compareEvaluated);
    const chunkIds = new Int32Array(rows.length);
    const docids = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      chunkIds[i] = rows[i].chunkId;
      docids[i] = rows[i].docid;
    }
    out.set(queryId, { chunkIds, docids });
  }
  return out;
}

/** Rankings of every run of the project, by run id. */
export async function runRankings(db: Db, data: TDashboardData): Promise<Map<number, TRunRankings>> {
  const c = runCache();
  const dbKey = process.env.DATABASE_URL ?? "";
  const out = new Map<number, TRunRankings>();
  // One run at a time: reading several million-row runs at once would only compete for the disk.
  for (const run of data.runs) {
    const key = `${dbKey}#${run.id}#${run.contentHash}`;
    let p = c.get(key);
    if (!p) {
      p = loadRun(db, run.id, data);
      c.set(key, p);
      p.catch(() => c.delete(key));
      while (c.size > MAX_RUNS) c.delete(c.keys().next().value as string);
    }
    out.set(run.id, await p);
  }
  return out;
}

export function clearRunCache(): void {
  runCache().clear();
}
