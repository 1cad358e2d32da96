/**
 * Each run's rankings in the evaluated order (lib/stats/order.ts: score descending, ties by docid
 * descending), as chunk ids per query, read for the panels that grade runs. A run is immutable
 * once imported (its content hash names it), so its rankings are read once and kept in the
 * project's lineage (lib/dashboard/load/cache.ts): label changes only re-grade them.
 *
 * They are read from the run's packed row (RunRanking, lib/runs/packed.ts: one row per run,
 * written by the importer) when its content hash is the run's; otherwise (a database imported
 * before that table existed, or a stale row) from RunEntry, sorted as the importer sorts. This is
 * a read only: the packed row of such a run is written by the prepare step
 * (lib/dashboard/rankings.ts packMissingRankings), never during a read.
 */
import type { Db } from "../../db/client.ts";
import { decodeRanking, encodeRanking } from "../../runs/packed.ts";
import type { TDashboardData } from "../model.ts";
import type { TRunRankings } from "../rankings.ts";
import { num, rows } from "../../db/read.ts";
import type { TLineage } from "./cache.ts";

type TRun = TDashboardData["runs"][number];
const MAX_RUNS = 200;

/** The packed row of the run if it is there and current, decoded; undefined otherwise. */
async function readPacked(
  db: Db,
  run: { id: number; contentHash: string },
): Promise<Map<number, Int32Array> | undefined> {
  const found = await rows(db, `SELECT "data" FROM "RunRanking" WHERE "runId" = ? AND "contentHash" = ?`, [
    run.id,
    run.contentHash,
  ]);
  if (!found.length) return undefined;
  const bytes = found[0][0];
  try {
    if (!(bytes instanceof Uint8Array)) throw new Error(`expected bytes, got ${typeof bytes}`);
    return decodeRanking(bytes);
  } catch (e) {
    console.warn(`[dashboard] run ${run.id}: packed ranking unreadable, reading its entries instead:`, e);
    return undefined;
  }
}

/** The run's entries read from RunEntry and packed, as the importer packs them. */
export async function packFromEntries(db: Db, runId: number, docid: (chunkId: number) => string): Promise<Uint8Array> {
  const entries = await rows(db, `SELECT "queryId", "chunkId", "score" FROM "RunEntry" WHERE "runId" = ?`, [runId]);
  const n = entries.length;
  const query = new Int32Array(n);
  const chunk = new Int32Array(n);
  const score = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const e = entries[i];
    query[i] = num(e[0]);
    chunk[i] = num(e[1]);
    score[i] = num(e[2]);
  }
  return encodeRanking({ length: n, query, chunk, score }, docid);
}

async function loadRun(db: Db, run: TRun, data: TDashboardData): Promise<TRunRankings> {
  const docid = (id: number) => data.chunks.get(id)?.docid ?? "";
  const packed = (await readPacked(db, run)) ?? decodeRanking(await packFromEntries(db, run.id, docid));
  const out: TRunRankings = new Map();
  for (const [queryId, chunkIds] of packed) {
    const docids = new Array<string>(chunkIds.length);
    for (let i = 0; i < chunkIds.length; i++) docids[i] = docid(chunkIds[i]);
    out.set(queryId, { chunkIds, docids });
  }
  return out;
}

/** Rankings of every run of the project, by run id, read once per run and content hash. */
export async function loadRankings(
  db: Db,
  data: TDashboardData,
  lineage: TLineage,
): Promise<Map<number, TRunRankings>> {
  const kept = lineage.rankings;
  const out = new Map<number, TRunRankings>();
  // One run at a time: reading several million-row runs at once would only compete for the disk.
  for (const run of data.runs) {
    const key = `${run.id}#${run.contentHash}`;
    let p = kept.get(key);
    if (!p) {
      p = loadRun(db, run, data);
      kept.set(key, p);
      p.catch(() => kept.delete(key));
      while (kept.size > MAX_RUNS) kept.delete(kept.keys().next().value as string);
    }
    out.set(run.id, await p);
  }
  return out;
}
