import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { buildPool } from "../../lib/pooling/build.ts";
import { makeChunks, makeProject, makeQueries, makeRun } from "../helpers/factories.ts";

useTestDatabase();
let db: Db;
let projectId: number;
let chunks: Map<string, { id: number }>;
let queries: Map<string, { id: number }>;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  projectId = (await makeProject(db)).id;
  chunks = await makeChunks(db, projectId, ["d1", "d2", "d3", "d4", "d5", "d6", "d10"]);
  queries = await makeQueries(db, projectId, ["q1", "q2"]);
  const ids = { queries, chunks };
  // Run A. q1: scores d1 3, d2 2, d3 2, d4 1. Evaluated order (score desc, ties docid desc):
  // d1, d3, d2, d4 — the rank column (given as d1 1, d2 2, d3 3, d4 4) is ignored.
  // q2: all tied at 1.0 → docid descending in byte order: "d6" > "d2" > "d10".
  await makeRun(
    db,
    projectId,
    "A",
    [
      ["q1", "d1", 3],
      ["q1", "d2", 2],
      ["q1", "d3", 2],
      ["q1", "d4", 1],
      ["q2", "d10", 1],
      ["q2", "d2", 1],
      ["q2", "d6", 1],
    ],
    ids,
  );
  // Run B. q1: d5 10, d3 5, d1 1 → order d5, d3, d1. Nothing for q2.
  await makeRun(
    db,
    projectId,
    "B",
    [
      ["q1", "d5", 10],
      ["q1", "d3", 5],
      ["q1", "d1", 1],
    ],
    ids,
  );
});

async function poolState() {
  const items = await db.poolItem.findMany({
    where: { projectId },
    include: { chunk: true, query: true, provenance: { include: { run: true } } },
  });
  return items
    .map(
      (i) =>
        `${i.query.externalId} ${i.chunk.externalId} ${i.provenance
          .map((p) => `${p.run.system}${p.rank}`)
          .sort()
          .join(",")}`,
    )
    .sort();
}

describe("buildPool", () => {
  it("pools run A's top 2 in the evaluated order, with provenance ranks", async () => {
    const r = await buildPool(db, projectId, { depth: 2, runs: ["A"] });
    expect(r).toMatchObject({
      depth: 2,
      runs: ["A"],
      queries: 2,
      pooledResults: 4,
      newItems: 4,
      newProvenance: 4,
      totalItems: 4,
    });
    expect(await poolState()).toEqual(["q1 d1 A1", "q1 d3 A2", "q2 d2 A2", "q2 d6 A1"]);
  });

  it("adding run B later adds only its new pair and its provenance rows", async () => {
    const before = await db.poolItem.findMany({ where: { projectId }, select: { id: true }, orderBy: { id: "asc" } });
    const r = await buildPool(db, projectId, { depth: 2, runs: ["B"] });
    expect(r).toMatchObject({ newItems: 1, newProvenance: 2, totalItems: 5 });
    expect(await poolState()).toEqual(["q1 d1 A1", "q1 d3 A2,B2", "q1 d5 B1", "q2 d2 A2", "q2 d6 A1"]);
    const after = await db.poolItem.findMany({
      where: { projectId, id: { in: before.map((b) => b.id) } },
      select: { id: true },
    });
    expect(after).toHaveLength(before.length);
  });

  it("running again changes nothing; a larger depth adds the next ranks", async () => {
    expect(await buildPool(db, projectId, { depth: 2 })).toMatchObject({
      runs: ["A", "B"],
      newItems: 0,
      newProvenance: 0,
      totalItems: 5,
    });
    const r = await buildPool(db, projectId, { depth: 3 });
    // New: q1 d2 (A3), q2 d10 (A3); new provenance also for q1 d1 from B (B3).
    expect(r).toMatchObject({ newItems: 2, newProvenance: 3, totalItems: 7 });
    expect(await poolState()).toEqual([
      "q1 d1 A1,B3",
      "q1 d2 A3",
      "q1 d3 A2,B2",
      "q1 d5 B1",
      "q2 d10 A3",
      "q2 d2 A2",
      "q2 d6 A1",
    ]);
  });

  it("follows a replaced run's ranks without adding or removing items", async () => {
    // Run B replaced: q1 now d1 10 (rank 1), d5 9 (rank 2), d3 1 (rank 3).
    const b = await db.run.findFirstOrThrow({ where: { projectId, system: "B" } });
    await db.runEntry.deleteMany({ where: { runId: b.id } });
    const q1 = queries.get("q1")!.id;
    await db.runEntry.createMany({
      data: [
        { runId: b.id, queryId: q1, chunkId: chunks.get("d1")!.id, rank: 1, score: 10 },
        { runId: b.id, queryId: q1, chunkId: chunks.get("d5")!.id, rank: 2, score: 9 },
        { runId: b.id, queryId: q1, chunkId: chunks.get("d3")!.id, rank: 3, score: 1 },
      ],
    });
    const r = await buildPool(db, projectId, { depth: 3, runs: ["B"] });
    expect(r).toMatchObject({ newItems: 0, newProvenance: 0, movedProvenance: 3, totalItems: 7 });
    expect(await poolState()).toEqual([
      "q1 d1 A1,B1",
      "q1 d2 A3",
      "q1 d3 A2,B3",
      "q1 d5 B2",
      "q2 d10 A3",
      "q2 d2 A2",
      "q2 d6 A1",
    ]);
  });

  it("gives pool items random UUIDs", async () => {
    const ids = (await db.poolItem.findMany({ where: { projectId }, select: { id: true } })).map((p) => p.id);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("rejects an unknown run and a bad depth, naming what exists", async () => {
    await expect(buildPool(db, projectId, { depth: 2, runs: ["A", "nope"] })).rejects.toThrow(
      "unknown run: nope; runs in this project: A, B",
    );
    await expect(buildPool(db, projectId, { depth: 0 })).rejects.toThrow("--depth: expected a whole number ≥ 1, got 0");
    const empty = await makeProject(db);
    await expect(buildPool(db, empty.id, { depth: 2 })).rejects.toThrow("no runs to pool");
  });
});
