import { getDb, type Db } from "../db/client.ts";
import { run as runSql, sqlTransaction } from "../db/sql.ts";
import { dashboardCaches } from "./data.ts";
import { cacheOf } from "./load/cache.ts";
import { loadRankings, packFromEntries } from "./load/rankings.ts";
import type { TDashboardData } from "./model.ts";
import { num, rows, str } from "../db/read.ts";

/**
 * Runs' rankings as the panels read them (loaded by lib/dashboard/load/rankings.ts, kept in the
 * project's lineage of cache objects), and the prepare step that writes a run's packed row
 * (RunRanking, lib/runs/packed.ts) where the importer did not: a database imported before that
 * table existed, or a stale row. The dashboard's reads never write; the prepare step runs at
 * server start (lib/dashboard/warm.ts), before the warm-up's loads.
 */
export type TRanking = { chunkIds: Int32Array; docids: string[] };
export type TRunRankings = Map<number, TRanking>;

/** Rankings of every run of the project, by run id (read once per run and content hash). */
export function runRankings(db: Db, data: TDashboardData): Promise<Map<number, TRunRankings>> {
  return loadRankings(db, data, cacheOf(data).lineage);
}

/** Forget every run's rankings read so far (tests and benchmarks measuring a cold start). */
export function clearRunCache(): void {
  for (const cache of dashboardCaches()) cache.lineage.rankings.clear();
}

/**
 * Stores the packed row if the run still has the content hash it was read for (a run replaced
 * meanwhile gets nothing: its importer wrote its own row). Two processes may do this at once:
 * the second one's row conflicts and replaces an identical one, or none if the hashes agree.
 */
async function storePacked(db: Db, run: { id: number; contentHash: string }, bytes: Uint8Array): Promise<void> {
  await sqlTransaction(db, function* () {
    yield* runSql(
      `INSERT INTO "RunRanking" ("runId", "contentHash", "data") SELECT "id", "contentHash", ? FROM "Run" WHERE "id" = ? AND "contentHash" = ?
       ON CONFLICT ("runId") DO UPDATE SET "contentHash" = excluded."contentHash", "data" = excluded."data" WHERE "RunRanking"."contentHash" <> excluded."contentHash"`,
      [bytes, run.id, run.contentHash],
    );
  });
}

/**
 * The prepare step: packs and stores the rankings of every run (of one project, or all) whose
 * packed row is missing or stale, from its entries, as the importer packs them. A failure is only
 * logged (a read-only or busy database must not stop the server: the dashboard then reads those
 * runs from their entries). Returns the ids of the runs written.
 */
export async function packMissingRankings(db: Db, projectId?: number): Promise<number[]> {
  const missing = await rows(
    db,
    `SELECT r."id", r."contentHash", r."projectId" FROM "Run" r LEFT JOIN "RunRanking" k ON k."runId" = r."id" AND k."contentHash" = r."contentHash" WHERE k."runId" IS NULL${projectId === undefined ? "" : ` AND r."projectId" = ?`} ORDER BY r."id"`,
    projectId === undefined ? [] : [projectId],
  );
  const docids = new Map<number, Map<number, string>>();
  const written: number[] = [];
  for (const r of missing) {
    const run = { id: num(r[0]), contentHash: str(r[1]) };
    const project = num(r[2]);
    try {
      let names = docids.get(project);
      if (!names) {
        const chunkRows = await rows(db, `SELECT "id", "externalId" FROM "Chunk" WHERE "projectId" = ?`, [project]);
        docids.set(project, (names = new Map(chunkRows.map((c) => [num(c[0]), str(c[1])]))));
      }
      const known = names;
      await storePacked(db, run, await packFromEntries(db, run.id, (id) => known.get(id) ?? ""));
      written.push(run.id);
    } catch (e) {
      console.warn(
        `[dashboard] run ${run.id}: could not store its packed ranking (it will be read from its entries again):`,
        e,
      );
    }
  }
  return written;
}

/** The prepare step on the process's database (tests and benchmarks that remove packed rows). */
export async function flushRankingWrites(): Promise<void> {
  await packMissingRankings(await getDb());
}
