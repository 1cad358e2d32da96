/**
 * The tables labels do not change (queries and their tags, chunks, pool items, provenance, runs),
 * read together and kept as one object until one of them changes (TDashboardData.base).
 */
import type { Db } from "../../db/client.ts";
import type { TChunkInfo, TDashboardData, TQueryInfo } from "../model.ts";
import { num, numOrNull, rows, str } from "../../db/read.ts";

export type TBase = {
  queries: Map<number, TQueryInfo>;
  tags: string[];
  chunks: Map<number, TChunkInfo>;
  poolItems: Map<string, { queryId: number; chunkId: number }>;
  provenance: Map<string, number[]>;
  runs: TDashboardData["runs"];
  /** The project's chunkings (lib/chunkings), by id (the chunking report names them). */
  chunkings: { id: number; name: string }[];
};

export async function loadBase(db: Db, projectId: number): Promise<TBase> {
  const byProject = (cols: string, table: string, order = "") =>
    rows(db, `SELECT ${cols} FROM "${table}" WHERE "projectId" = ?${order}`, [projectId]);
  // Only accepted questions are evaluated: drafts and rejected ones are left out here.
  const accepted = `"queryId" IN (SELECT "id" FROM "Query" WHERE "projectId" = ? AND "status" = 'accepted')`;
  const [queryRows, tagRows, placeRows, chunkRows, itemRows, provRows, runRows, chunkingRows] = await Promise.all([
    rows(db, `SELECT "id", "externalId" FROM "Query" WHERE "projectId" = ? AND "status" = 'accepted'`, [projectId]),
    rows(db, `SELECT "queryId", "tag" FROM "QueryTag" WHERE ${accepted}`, [projectId]),
    rows(
      db,
      `SELECT "queryId", "startSeconds", "videoId", "endSeconds" FROM "QueryPlace" WHERE ${accepted} ORDER BY "id"`,
      [projectId],
    ),
    byProject(`"id", "externalId", "videoId", "startSeconds", "chunkingId", "endSeconds"`, "Chunk"),
    rows(db, `SELECT "id", "queryId", "chunkId" FROM "PoolItem" WHERE "projectId" = ? AND ${accepted}`, [
      projectId,
      projectId,
    ]),
    rows(
      db,
      `SELECT "poolItemId", "runId" FROM "PoolProvenance" WHERE "runId" IN (SELECT "id" FROM "Run" WHERE "projectId" = ?)`,
      [projectId],
    ),
    byProject(`"id", "system", "contentHash", "chunkingId"`, "Run", ` ORDER BY "system"`),
    byProject(`"id", "name"`, "Chunking", ` ORDER BY "id"`),
  ]);
  const queries = new Map<number, TQueryInfo>();
  for (const q of queryRows) queries.set(num(q[0]), { qid: str(q[1]), tags: [], places: [] });
  for (const p of placeRows)
    queries.get(num(p[0]))?.places.push({ start: num(p[1]), end: numOrNull(p[3]), videoId: numOrNull(p[2]) });
  const tags = new Set<string>();
  for (const t of tagRows) {
    queries.get(num(t[0]))?.tags.push(str(t[1]));
    tags.add(str(t[1]));
  }
  const chunks = new Map<number, TChunkInfo>();
  for (const c of chunkRows)
    chunks.set(num(c[0]), {
      docid: str(c[1]),
      videoId: num(c[2]),
      start: num(c[3]),
      chunkingId: num(c[4]),
      end: num(c[5]),
    });
  const poolItems = new Map<string, { queryId: number; chunkId: number }>();
  for (const it of itemRows) poolItems.set(str(it[0]), { queryId: num(it[1]), chunkId: num(it[2]) });
  const provenance = new Map<string, number[]>();
  for (const r of provRows) {
    const id = str(r[0]);
    const list = provenance.get(id);
    if (list) list.push(num(r[1]));
    else provenance.set(id, [num(r[1])]);
  }
  return {
    queries,
    tags: [...tags].sort(),
    chunks,
    poolItems,
    provenance,
    runs: runRows.map((r) => ({ id: num(r[0]), system: str(r[1]), contentHash: str(r[2]), chunkingId: num(r[3]) })),
    chunkings: chunkingRows.map((c) => ({ id: num(c[0]), name: str(c[1]) })),
  };
}
