import { randomUUID } from "node:crypto";
import type { Db } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";
import { evaluatedOrder } from "../stats/order.ts";

export type TPoolOptions = { depth: number; runs?: string[] };
export type TPoolResult = {
  depth: number;
  runs: string[];
  queries: number;
  /** (run, query, chunk) results in the pooled runs' top K. */
  pooledResults: number;
  newItems: number;
  newProvenance: number;
  totalItems: number;
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
 * removed or renumbered.
 *
 * The database narrows each (run, query) to the rows whose score is among the K highest
 * (RANK() ≤ K, so ties at the K-th score are all kept); the exact order, with its docid
 * tie-break in byte order, is then applied here by evaluatedOrder — one definition for pooling and
 * for the measures, independent of the database's collation.
 */
export async function buildPool(db: Db, projectId: number, opts: TPoolOptions): Promise<TPoolResult> {
  const depth = opts.depth;
  if (!Number.isInteger(depth) || depth < 1) throw new AppError("bad_input", `--depth: expected a whole number ≥ 1, got ${depth}`);

  const allRuns = await db.run.findMany({ where: { projectId }, select: { id: true, system: true }, orderBy: { system: "asc" } });
  let runs = allRuns;
  if (opts.runs && opts.runs.length > 0) {
    const wanted = [...new Set(opts.runs.map((r) => r.trim()).filter(Boolean))];
    const unknown = wanted.filter((w) => !allRuns.some((r) => r.system === w));
    if (unknown.length) {
      throw new AppError("not_found", `unknown run${unknown.length > 1 ? "s" : ""}: ${unknown.join(", ")}; runs in this project: ${allRuns.map((r) => r.system).join(", ") || "none"}`);
    }
    runs = allRuns.filter((r) => wanted.includes(r.system));
  }
  if (runs.length === 0) throw new AppError("bad_input", "no runs to pool: import one with: npx assessor import run --system NAME FILE");

  const candidates = await topCandidates(db, runs.map((r) => r.id), depth);

  // (run, query) → its top K in the evaluated order.
  const groups = new Map<string, Candidate[]>();
  for (const c of candidates) {
    const key = `${c.runId}:${c.queryId}`;
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  type Pair = { queryId: number; chunkId: number; provenance: { runId: number; rank: number }[] };
  const pairs = new Map<string, Pair>();
  let pooledResults = 0;
  for (const group of groups.values()) {
    const top = evaluatedOrder(group).slice(0, depth);
    top.forEach((c, i) => {
      const key = `${c.queryId}:${c.chunkId}`;
      let pair = pairs.get(key);
      if (!pair) pairs.set(key, (pair = { queryId: c.queryId, chunkId: c.chunkId, provenance: [] }));
      pair.provenance.push({ runId: c.runId, rank: i + 1 });
      pooledResults++;
    });
  }

  try {
    return await db.$transaction(
      async (tx) => {
        const existing = await tx.poolItem.findMany({ where: { projectId }, select: { id: true, queryId: true, chunkId: true } });
        const idByPair = new Map(existing.map((p) => [`${p.queryId}:${p.chunkId}`, p.id]));
        const existingProv = await tx.poolProvenance.findMany({
          where: { runId: { in: runs.map((r) => r.id) } },
          select: { poolItemId: true, runId: true },
        });
        const provSeen = new Set(existingProv.map((p) => `${p.poolItemId}:${p.runId}`));

        const newItems: { id: string; projectId: number; queryId: number; chunkId: number }[] = [];
        const newProv: { poolItemId: string; runId: number; rank: number }[] = [];
        for (const [key, pair] of pairs) {
          let id = idByPair.get(key);
          if (!id) {
            id = randomUUID();
            newItems.push({ id, projectId, queryId: pair.queryId, chunkId: pair.chunkId });
          }
          for (const p of pair.provenance) {
            if (!provSeen.has(`${id}:${p.runId}`)) newProv.push({ poolItemId: id, runId: p.runId, rank: p.rank });
          }
        }
        if (newItems.length) await tx.poolItem.createMany({ data: newItems });
        if (newProv.length) await tx.poolProvenance.createMany({ data: newProv });
        return {
          depth,
          runs: runs.map((r) => r.system),
          queries: new Set([...pairs.values()].map((p) => p.queryId)).size,
          pooledResults,
          newItems: newItems.length,
          newProvenance: newProv.length,
          totalItems: existing.length + newItems.length,
        };
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("conflict", "the pool was changed by another command at the same time; run pool again");
    throw e;
  }
}

/** The rows of each (run, query) whose score is among the K highest, with the chunk's external id. */
async function topCandidates(db: Db, runIds: number[], depth: number): Promise<Candidate[]> {
  if (runIds.length === 0) return [];
  // Only integers are spliced in (validated depth, ids read from the database): placeholder
  // syntax differs between the two databases' raw queries ("?" vs "$1").
  if (![depth, ...runIds].every(Number.isSafeInteger)) throw new Error("pooling: non-integer id or depth");
  const sql = `SELECT r."runId" AS "runId", r."queryId" AS "queryId", r."chunkId" AS "chunkId", r."score" AS "score", c."externalId" AS "docid"
    FROM (
      SELECT "runId", "queryId", "chunkId", "score",
             RANK() OVER (PARTITION BY "runId", "queryId" ORDER BY "score" DESC) AS "pos"
      FROM "RunEntry" WHERE "runId" IN (${runIds.join(", ")})
    ) r JOIN "Chunk" c ON c."id" = r."chunkId"
    WHERE r."pos" <= ${depth}`;
  const rows = await db.$queryRawUnsafe<{ runId: number | bigint; queryId: number | bigint; chunkId: number | bigint; score: number; docid: string }[]>(sql);
  return rows.map((r) => ({ runId: Number(r.runId), queryId: Number(r.queryId), chunkId: Number(r.chunkId), score: Number(r.score), docid: r.docid }));
}
