import type { Db } from "../db/client.ts";
import { run as runSql, sqlTransaction } from "../db/sql.ts";
import { decodeRanking, encodeRanking } from "../runs/packed.ts";
import type { TDashboardData } from "./data.ts";
import { num, rows } from "./sql.ts";

/**
 * Each run's rankings in the evaluated order (lib/stats/order.ts: score descending, ties by docid
 * descending), as chunk ids per query. A run is immutable once imported (its content hash
 * names it), so its rankings are read once per process and kept: label changes only re-grade them.
 *
 * They are read from the run's packed row (RunRanking, lib/runs/packed.ts: one row per run,
 * written by the importer) when its content hash is the run's. Otherwise (a database imported
 * before that table existed, or a stale row) they are read from RunEntry and sorted as before,
 * and the packed row is written for the next process — in the background, and only logged if it
 * fails (a read-only or busy database must not fail the dashboard).
 */
export type TRanking = { chunkIds: Int32Array; docids: string[] };
export type TRunRankings = Map<number, TRanking>;
type TRun = TDashboardData["runs"][number];

const globalRuns = globalThis as unknown as {
  __assessorRunRankings?: Map<string, Promise<TRunRankings>>;
  __assessorRankingWrites?: Set<Promise<void>>;
};
const MAX_RUNS = 200;

function runCache(): Map<string, Promise<TRunRankings>> {
  globalRuns.__assessorRunRankings ??= new Map();
  return globalRuns.__assessorRunRankings;
}

function pendingWrites(): Set<Promise<void>> {
  globalRuns.__assessorRankingWrites ??= new Set();
  return globalRuns.__assessorRankingWrites;
}

/** The packed row of the run if it is there and current, decoded; undefined otherwise. */
async function readPacked(db: Db, run: TRun): Promise<Map<number, Int32Array> | undefined> {
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
async function packFromEntries(db: Db, runId: number, data: TDashboardData): Promise<Uint8Array> {
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
  return encodeRanking({ length: n, query, chunk, score }, (id) => data.chunks.get(id)?.docid ?? "");
}

/**
 * Stores the packed row if the run still has the content hash it was read for (a run replaced
 * meanwhile gets nothing: its importer wrote its own row). Two processes may do this at once:
 * the second one's row conflicts and replaces an identical one, or none if the hashes agree.
 */
async function storePacked(db: Db, run: TRun, bytes: Uint8Array): Promise<void> {
  await sqlTransaction(db, function* () {
    yield* runSql(
      `INSERT INTO "RunRanking" ("runId", "contentHash", "data") SELECT "id", "contentHash", ? FROM "Run" WHERE "id" = ? AND "contentHash" = ?
       ON CONFLICT ("runId") DO UPDATE SET "contentHash" = excluded."contentHash", "data" = excluded."data" WHERE "RunRanking"."contentHash" <> excluded."contentHash"`,
      [bytes, run.id, run.contentHash],
    );
  });
}

function storeInBackground(db: Db, run: TRun, bytes: Uint8Array): void {
  const writes = pendingWrites();
  const p = storePacked(db, run, bytes)
    .catch((e: unknown) =>
      console.warn(
        `[dashboard] run ${run.id}: could not store its packed ranking (it will be read from its entries again):`,
        e,
      ),
    )
    .finally(() => writes.delete(p));
  writes.add(p);
}

/** Waits for the packed rows being written in the background (tests, and before closing the database). */
export async function flushRankingWrites(): Promise<void> {
  while (pendingWrites().size) await Promise.all(pendingWrites());
}

async function loadRun(db: Db, run: TRun, data: TDashboardData): Promise<TRunRankings> {
  let packed = await readPacked(db, run);
  if (!packed) {
    const bytes = await packFromEntries(db, run.id, data);
    packed = decodeRanking(bytes);
    storeInBackground(db, run, bytes);
  }
  const out: TRunRankings = new Map();
  for (const [queryId, chunkIds] of packed) {
    const docids = new Array<string>(chunkIds.length);
    for (let i = 0; i < chunkIds.length; i++) docids[i] = data.chunks.get(chunkIds[i])?.docid ?? "";
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
      p = loadRun(db, run, data);
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
