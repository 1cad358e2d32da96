import { beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeProject, makeQueries } from "../helpers/factories.ts";

/**
 * Packed run rankings (RunRanking, lib/runs/packed.ts): the importer writes them with the entries;
 * the dashboard reads them, or falls back to RunEntry and writes them; figures are the same.
 */
useTestDatabase();
let db: Db;
let projectId: number;

// Docids whose byte order differs from locale order, so score ties test trec_eval's tie-break.
const DOCIDS = ["a", "B", "b", "b10", "b9", "Z", "c", "d"];
const line = (q: string, d: string, rank: number, score: number) => `${q} Q0 ${d} ${rank} ${score} sys`;
const runFile = (rows: [string, string, number][]) =>
  Buffer.from(rows.map(([q, d, s], i) => line(q, d, i + 1, s)).join("\n") + "\n");
// Ties at 1 in q1 (b10, b9, a, B) and at 0 in q2; lines not grouped by query, ranks not the order.
const RUN_A = runFile([
  ["q1", "a", 1],
  ["q2", "c", 0],
  ["q1", "B", 1],
  ["q1", "Z", 2.5],
  ["q2", "d", 0],
  ["q1", "b10", 1],
  ["q2", "a", 0.5],
  ["q1", "b9", 1],
  ["q1", "c", -1],
]);
const RUN_B = runFile([
  ["q1", "c", 3],
  ["q1", "a", 2],
  ["q1", "b", 2],
  ["q2", "Z", 1],
  ["q2", "B", 1],
]);
const RUN_B2 = runFile([
  ["q1", "d", 1],
  ["q1", "b", 1],
  ["q2", "a", 5],
  ["q2", "b10", 4],
]);

async function importRun(system: string, bytes: Buffer, replace = false) {
  const { importRun } = await import("../../lib/imports/run.ts");
  return importRun(db, projectId, { name: `${system}.run`, bytes }, { system, replace });
}

async function packedRows() {
  const { rows } = await import("../../lib/db/read.ts");
  const { decodeRanking } = await import("../../lib/runs/packed.ts");
  const { clearDashboardCache } = await import("../../lib/dashboard/data.ts");
  clearDashboardCache(); // a fresh read connection
  const found = await rows(db, `SELECT "runId", "contentHash", "data" FROM "RunRanking" ORDER BY "runId"`);
  const names = new Map((await db.chunk.findMany({ where: { projectId } })).map((c) => [c.id, c.externalId]));
  const qnames = new Map((await db.query.findMany({ where: { projectId } })).map((q) => [q.id, q.externalId]));
  return found.map((r) => ({
    runId: Number(r[0]),
    contentHash: r[1] as string,
    bytes: r[2] as Uint8Array,
    order: Object.fromEntries(
      [...decodeRanking(r[2] as Uint8Array)].map(([q, ids]) => [
        qnames.get(q)!,
        Array.from(ids, (id) => names.get(id)),
      ]),
    ),
  }));
}

/** The systems panel computed from scratch (no cached data, no cached rankings). */
async function systemsFromScratch() {
  const { clearDashboardCache } = await import("../../lib/dashboard/data.ts");
  const { clearRunCache, flushRankingWrites } = await import("../../lib/dashboard/rankings.ts");
  const { getSystems } = await import("../../lib/dashboard/panels.ts");
  clearDashboardCache();
  clearRunCache();
  const panel = await getSystems(db, projectId, { source: "human", gain: "exponential" });
  await flushRankingWrites();
  return panel;
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  projectId = (await makeProject(db, { name: "packed" })).id;
  const chunks = await makeChunks(db, projectId, DOCIDS);
  const queries = await makeQueries(db, projectId, ["q1", "q2"]);
  const grades: [string, string, number][] = [
    ["q1", "a", 3],
    ["q1", "B", 1],
    ["q1", "b9", 2],
    ["q1", "c", 1],
    ["q2", "c", 2],
    ["q2", "a", 1],
    ["q2", "B", 3],
  ];
  await db.referenceLabel.createMany({
    data: grades.map(([q, c, grade]) => ({
      projectId,
      source: "gold",
      queryId: queries.get(q)!.id,
      chunkId: chunks.get(c)!.id,
      grade,
    })),
  });
  await importRun("sysA", RUN_A);
  await importRun("sysB", RUN_B);
});

describe("packed run rankings", () => {
  it("an import writes the run's packed rankings in the evaluated order, with its content hash", async () => {
    const runs = await db.run.findMany({ where: { projectId }, orderBy: { id: "asc" } });
    const packed = await packedRows();
    expect(packed.map((p) => [p.runId, p.contentHash])).toEqual(runs.map((r) => [r.id, r.contentHash]));
    expect(packed[0].order).toEqual({ q1: ["Z", "b9", "b10", "a", "B", "c"], q2: ["a", "d", "c"] });
    expect(packed[1].order).toEqual({ q1: ["c", "b", "a"], q2: ["Z", "B"] });
  });

  it("the dashboard's systems figures are the same from the packed rows and from the entries (which then writes the rows again)", async () => {
    const warn = vi.spyOn(console, "warn");
    const before = await packedRows();
    const packedPath = await systemsFromScratch();
    expect(packedPath.tables[0].rows.length).toBe(2);

    await db.runRanking.deleteMany({});
    const fallback = await systemsFromScratch();
    expect(fallback).toEqual(packedPath);
    // The fallback wrote the rows back, byte for byte what the importer wrote.
    expect(await packedRows()).toEqual(before);

    // Two loads at once (as two processes): the second write meets the first one's row.
    await db.runRanking.deleteMany({});
    const { clearRunCache, runRankings, flushRankingWrites } = await import("../../lib/dashboard/rankings.ts");
    const { dashboardData } = await import("../../lib/dashboard/data.ts");
    const { data } = await dashboardData(db, projectId);
    clearRunCache();
    const first = runRankings(db, data);
    clearRunCache();
    const second = runRankings(db, data);
    expect(await second).toEqual(await first);
    await flushRankingWrites();
    expect(await packedRows()).toEqual(before);

    // A stale row (another content hash) is ignored and replaced.
    await db.runRanking.updateMany({ data: { contentHash: "stale" } });
    expect(await systemsFromScratch()).toEqual(packedPath);
    expect(await packedRows()).toEqual(before);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it("--replace replaces the packed row with the new file's rankings and hash", async () => {
    const r = await importRun("sysB", RUN_B2, true);
    const run = await db.run.findUniqueOrThrow({ where: { projectId_system: { projectId, system: "sysB" } } });
    expect(run.contentHash).toBe(r.sha256);
    const packed = (await packedRows()).find((p) => p.runId === run.id)!;
    expect(packed.contentHash).toBe(r.sha256);
    expect(packed.order).toEqual({ q1: ["d", "b"], q2: ["a", "b10"] });
    // And the dashboard agrees with its own reading of the new entries.
    const fromPacked = await systemsFromScratch();
    await db.runRanking.deleteMany({});
    expect(await systemsFromScratch()).toEqual(fromPacked);
  });

  it("the packed rows are what the dashboard reads: without the entries, the figures stay", async () => {
    const fromPacked = await systemsFromScratch();
    const run = await db.run.findUniqueOrThrow({ where: { projectId_system: { projectId, system: "sysA" } } });
    const entries = await db.runEntry.findMany({ where: { runId: run.id } });
    await db.runEntry.deleteMany({ where: { runId: run.id } });
    try {
      expect(await systemsFromScratch()).toEqual(fromPacked);
    } finally {
      await db.runEntry.createMany({ data: entries });
    }
  });

  it("deleting a run or its project deletes its packed row", async () => {
    const run = await db.run.findUniqueOrThrow({ where: { projectId_system: { projectId, system: "sysA" } } });
    await db.run.delete({ where: { id: run.id } });
    expect((await packedRows()).map((p) => p.runId)).not.toContain(run.id);
    expect(await db.runRanking.count()).toBe(1);
    await db.project.delete({ where: { id: projectId } });
    expect(await db.runRanking.count()).toBe(0);
  });
});
