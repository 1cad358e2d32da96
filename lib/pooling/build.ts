import { randomUUID } from "node:crypto";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { bulkTransaction, insertStamped, type BulkTx } from "../db/bulk.ts";
import { inIntList, listParam } from "../db/dialect.ts";
import { isUniqueViolation } from "../db/unique-violation.ts";
import { evaluatedOrder } from "../stats/order.ts";
import { findChunking } from "../chunkings/store.ts";
import { rollbackIf, withDryRun } from "../db/dry-run.ts";
import { action, field, say } from "../terms.ts";

export type TPoolOptions = {
  depth: number;
  runs?: string[];
  /**
   * Pool one chunking's runs for what label transfer leaves: only its runs, and
   * a pair with a transfer label (any judge `transfer:X->NAME`) is not added unless it is already
   * in the pool (the audit sample, or an earlier pool).
   */
  chunking?: string;
  /** Compute everything in the transaction, then roll it back (the preview; lib/db/dry-run.ts). */
  dryRun?: boolean;
};
export type TPoolResult = {
  depth: number;
  runs: string[];
  queries: number;
  /** (run, query, chunk) results in the pooled runs' top K. */
  pooledResults: number;
  newItems: number;
  newProvenance: number;
  movedProvenance: number;
  totalItems: number;
  /** With `chunking`: the chunking, and the transfer judges whose labels were taken as read. */
  chunking?: string;
  transferJudges?: string[];
  /** With `chunking`: distinct pairs in the pooled runs' top K that have a transfer label and were not pooled. */
  saved?: number;
};

type Candidate = { runId: number; queryId: number; chunkId: number; score: number; docid: string };

/**
 * Builds (or extends) the pool: for every query, the union of each chosen run's top `depth`
 * chunks in the evaluated order (score descending, ties by chunk external id descending:
 * lib/stats/order.ts), so that every top-K result of every pooled run is judged.
 *
 * Pool item ids are random UUIDs, never derived from order, system or rank. Each (item, run) pair
 * gets one PoolProvenance row with the run's evaluated rank (1-based). Running it again, with a
 * new run or a larger depth, adds only the pairs and provenance rows that are missing; nothing is
 * removed (a smaller depth later keeps what was pooled). The one change to existing rows: when a
 * run was replaced and now ranks a pooled chunk elsewhere in its top K, that provenance rank is
 * updated (returned as `movedProvenance`).
 *
 * The database narrows each (run, query) to the rows whose score is among the K highest
 * (RANK() ≤ K, so ties at the K-th score are all kept); the exact order, with its docid
 * tie-break in byte order, is then applied here by evaluatedOrder — one definition for pooling and
 * for the measures, independent of the database's collation.
 */
/** New pool items, each [id, projectId, queryId, chunkId]. */
export function insertPoolItems(tx: BulkTx, items: [string, number, number, number][]): Promise<void> {
  return insertStamped(
    tx,
    "PoolItem",
    [
      { name: "id", type: "text" },
      { name: "projectId", type: "int" },
      { name: "queryId", type: "int" },
      { name: "chunkId", type: "int" },
    ],
    items,
  );
}

export async function buildPool(db: Db, projectId: number, opts: TPoolOptions): Promise<TPoolResult> {
  const depth = opts.depth;
  if (!Number.isInteger(depth) || depth < 1)
    throw new AppError("bad_input", say`${field("depth")}: expected a whole number ≥ 1, got ${depth}`);

  const chunking = opts.chunking === undefined ? null : await findChunking(db, projectId, opts.chunking);
  const allRuns = await db.run.findMany({
    where: { projectId, ...(chunking ? { chunkingId: chunking.id } : {}) },
    select: { id: true, system: true },
    orderBy: { system: "asc" },
  });
  let runs = allRuns;
  if (opts.runs && opts.runs.length > 0) {
    const wanted = [...new Set(opts.runs.map((r) => r.trim()).filter(Boolean))];
    const unknown = wanted.filter((w) => !allRuns.some((r) => r.system === w));
    if (unknown.length) {
      const where = chunking ? `of chunking ${chunking.name}` : "in this project";
      throw new AppError(
        "not_found",
        `unknown run${unknown.length > 1 ? "s" : ""}${chunking ? ` of chunking ${chunking.name}` : ""}: ${unknown.join(", ")}; runs ${where}: ${allRuns.map((r) => r.system).join(", ") || "none"}`,
      );
    }
    runs = allRuns.filter((r) => wanted.includes(r.system));
  }
  if (runs.length === 0)
    throw new AppError(
      "bad_input",
      say`no runs to pool${chunking ? ` in chunking ${chunking.name}` : ""}: import one with: ${action("importRun")}`,
    );
  // Pairs with a transfer label onto the chunking: "queryId:chunkId".
  const transferJudges = chunking
    ? (
        await db.judgeLabel.findMany({
          where: { projectId, judge: { startsWith: "transfer:", endsWith: `->${chunking.name}` } },
          distinct: ["judge"],
          select: { judge: true },
          orderBy: { judge: "asc" },
        })
      ).map((j) => j.judge)
    : [];
  const transferred = new Set<string>();
  if (transferJudges.length) {
    for (const l of await db.judgeLabel.findMany({
      where: { projectId, judge: { in: transferJudges } },
      select: { queryId: true, chunkId: true },
    }))
      transferred.add(`${l.queryId}:${l.chunkId}`);
  }

  const runIds = runs.map((r) => r.id);
  try {
    return await withDryRun(
      bulkTransaction(db, async (tx) => {
        const candidates = await topCandidates(tx, runIds, depth);
        // (run, query) → its top K in the evaluated order. Maps keyed by number, nested, rather
        // than by "a:b" strings: this loop sees every candidate row.
        const groups = new Map<number, Map<number, Candidate[]>>();
        for (const c of candidates) {
          let byQuery = groups.get(c.runId);
          if (!byQuery) groups.set(c.runId, (byQuery = new Map()));
          const g = byQuery.get(c.queryId);
          if (g) g.push(c);
          else byQuery.set(c.queryId, [c]);
        }
        type Pair = { queryId: number; chunkId: number; provenance: { runId: number; rank: number }[] };
        const pairs = new Map<number, Map<number, Pair>>(); // queryId → chunkId → pair
        let pooledResults = 0;
        for (const byQuery of groups.values()) {
          for (const group of byQuery.values()) {
            const top = evaluatedOrder(group).slice(0, depth);
            for (let i = 0; i < top.length; i++) {
              const c = top[i];
              let byChunk = pairs.get(c.queryId);
              if (!byChunk) pairs.set(c.queryId, (byChunk = new Map()));
              let pair = byChunk.get(c.chunkId);
              if (!pair) byChunk.set(c.chunkId, (pair = { queryId: c.queryId, chunkId: c.chunkId, provenance: [] }));
              pair.provenance.push({ runId: c.runId, rank: i + 1 });
              pooledResults++;
            }
          }
        }

        const existing = await tx.all<{ id: string; queryId: number; chunkId: number }>(
          `SELECT "id", "queryId", "chunkId" FROM "PoolItem" WHERE "projectId" = ?`,
          [projectId],
        );
        const idByPair = new Map<number, Map<number, string>>();
        for (const p of existing) {
          const q = Number(p.queryId);
          let byChunk = idByPair.get(q);
          if (!byChunk) idByPair.set(q, (byChunk = new Map()));
          byChunk.set(Number(p.chunkId), p.id);
        }
        const provRank = new Map<string, number>();
        if (existing.length > 0) {
          const rows = await tx.all<{ poolItemId: string; runId: number; rank: number }>(
            `SELECT "poolItemId", "runId", "rank" FROM "PoolProvenance" WHERE ${inIntList(tx.provider, '"runId"')}`,
            [listParam(tx.provider, runIds)],
          );
          for (const p of rows) provRank.set(`${p.poolItemId}:${Number(p.runId)}`, Number(p.rank));
        }

        const newItems: [string, number, number, number][] = [];
        const newProv: [string, number, number][] = [];
        const movedProv: [number, string, number][] = [];
        let saved = 0;
        for (const byChunk of pairs.values()) {
          for (const pair of byChunk.values()) {
            const known = idByPair.get(pair.queryId)?.get(pair.chunkId);
            if (!known && transferred.has(`${pair.queryId}:${pair.chunkId}`)) {
              saved++;
              continue;
            }
            const id = known ?? randomUUID();
            if (!known) newItems.push([id, projectId, pair.queryId, pair.chunkId]);
            for (const p of pair.provenance) {
              const stored = known ? provRank.get(`${id}:${p.runId}`) : undefined;
              if (stored === undefined) newProv.push([id, p.runId, p.rank]);
              else if (stored !== p.rank) movedProv.push([p.rank, id, p.runId]);
            }
          }
        }
        // In id order, the B-tree inserts land next to each other: markedly faster on SQLite.
        newItems.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
        newProv.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
        await insertPoolItems(tx, newItems);
        await tx.insert(
          "PoolProvenance",
          [
            { name: "poolItemId", type: "text" },
            { name: "runId", type: "int" },
            { name: "rank", type: "int" },
          ],
          newProv.length,
          (i) => newProv[i],
        );
        // A run replaced since the last pooling (import run --replace) can rank a pooled chunk
        // differently: the provenance follows the run as it is now.
        for (const m of movedProv)
          await tx.run(`UPDATE "PoolProvenance" SET "rank" = ? WHERE "poolItemId" = ? AND "runId" = ?`, m);
        return rollbackIf(opts.dryRun, {
          depth,
          runs: runs.map((r) => r.system),
          queries: pairs.size,
          pooledResults,
          newItems: newItems.length,
          newProvenance: newProv.length,
          movedProvenance: movedProv.length,
          totalItems: existing.length + newItems.length,
          ...(chunking ? { chunking: chunking.name, transferJudges, saved } : {}),
        });
      }),
    );
  } catch (e) {
    if (isUniqueViolation(e))
      throw new AppError("conflict", "the pool was changed by another command at the same time; run pool again");
    throw e;
  }
}

/** The rows of each (run, query) whose score is among the K highest, with the chunk's external id; accepted questions only (drafts and rejected questions are never pooled). */
async function topCandidates(tx: BulkTx, runIds: number[], depth: number): Promise<Candidate[]> {
  if (runIds.length === 0) return [];
  const sql = `SELECT r."runId" AS "runId", r."queryId" AS "queryId", r."chunkId" AS "chunkId", r."score" AS "score", c."externalId" AS "docid"
    FROM (
      SELECT "runId", "queryId", "chunkId", "score",
             RANK() OVER (PARTITION BY "runId", "queryId" ORDER BY "score" DESC) AS "pos"
      FROM "RunEntry" WHERE ${inIntList(tx.provider, '"runId"')}
    ) r JOIN "Chunk" c ON c."id" = r."chunkId"
    JOIN "Query" q ON q."id" = r."queryId"
    WHERE r."pos" <= ? AND q."status" = 'accepted'`;
  const rows = await tx.all<{
    runId: number | bigint;
    queryId: number | bigint;
    chunkId: number | bigint;
    score: number;
    docid: string;
  }>(sql, [listParam(tx.provider, runIds), depth]);
  return rows.map((r) => ({
    runId: Number(r.runId),
    queryId: Number(r.queryId),
    chunkId: Number(r.chunkId),
    score: Number(r.score),
    docid: r.docid,
  }));
}
