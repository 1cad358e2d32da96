import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeProject, makeQueries, makeRun } from "../helpers/factories.ts";

/**
 * The systems table with two chunkings: each run is evaluated against the labels of its
 * own chunking. Query q1; chunking `default`: chunks a, b (a relevant, grade 3); chunking `c2`:
 * chunks x, y (x grade 3, y grade 2), the same speech cut otherwise.
 *   sysA (default) retrieves a, b: relevant in its chunking {a} → Recall@5 = 1/1 = 1 (with every
 *   chunking's labels it would be 1/3, the halved recall of the issue).
 *   sysX (c2) retrieves x: relevant in c2 {x, y} → Recall@5 = 1/2 (with every label: 1/3).
 */
useTestDatabase();
let db: Db;
let projectId: number;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  const p = await makeProject(db, { name: "dash-chunkings" });
  projectId = p.id;
  const chunks = await makeChunks(db, p.id, ["a", "b"]);
  const queries = await makeQueries(db, p.id, ["q1"]);
  await makeRun(
    db,
    p.id,
    "sysA",
    [
      ["q1", "a", 2],
      ["q1", "b", 1],
    ],
    { queries, chunks },
  );
  const a = await db.chunk.findUniqueOrThrow({ where: { id: chunks.get("a")!.id } });
  const c2 = await db.chunking.create({
    data: { projectId: p.id, name: "c2", method: "seconds", size: 20, overlap: 0 },
  });
  const x = await db.chunk.create({
    data: {
      projectId: p.id,
      chunkingId: c2.id,
      externalId: "x",
      videoId: a.videoId,
      startSeconds: 0,
      endSeconds: 20,
      text: "x",
    },
  });
  const y = await db.chunk.create({
    data: {
      projectId: p.id,
      chunkingId: c2.id,
      externalId: "y",
      videoId: a.videoId,
      startSeconds: 20,
      endSeconds: 40,
      text: "y",
    },
  });
  const q1 = queries.get("q1")!.id;
  await db.run.create({
    data: {
      projectId: p.id,
      chunkingId: c2.id,
      system: "sysX",
      contentHash: "hx",
      entries: { create: [{ queryId: q1, chunkId: x.id, rank: 1, score: 1 }] },
    },
  });
  const gold: [number, number][] = [
    [chunks.get("a")!.id, 3],
    [x.id, 3],
    [y.id, 2],
  ];
  await db.referenceLabel.createMany({
    data: gold.map(([chunkId, grade]) => ({ projectId: p.id, source: "gold", queryId: q1, chunkId, grade })),
  });
});

describe("systems table with several chunkings", () => {
  it("evaluates each run against its own chunking's labels", async () => {
    const { getSystems } = await import("../../lib/dashboard/panels.ts");
    const s = await getSystems(db, projectId, { source: "human", gain: "exponential" });
    const [human] = s.tables;
    const col = human.columns.findIndex((c) => c.id === "recall_5@1");
    const recall = (system: string) => human.rows.find((r) => r.system === system)!.cells[col].mean;
    expect(recall("sysA")).toBeCloseTo(1, 12);
    expect(recall("sysX")).toBeCloseTo(0.5, 12);
  });
});
