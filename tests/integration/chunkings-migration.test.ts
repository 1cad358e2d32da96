import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, type OldDatabase } from "../helpers/migration-before.ts";

/**
 * The chunkings migration on the suite's database: a database is built at the
 * migration before it (a copy of prisma/ without the new migration, applied by `assessor migrate`
 * with ASSESSOR_ROOT pointing at the copy), filled with two projects' videos,
 * chunks, runs and entries by plain SQL, then migrated for real: each project must hold one
 * chunking named `default` with every one of its chunks and runs, and nothing else may change.
 */
const MIGRATION = "20261202030737_chunkings";
let old: OldDatabase;

beforeAll(async () => {
  old = await databaseBefore(MIGRATION);
  const sql = await old.connect();
  try {
    const now = old.postgres ? new Date().toISOString() : new Date().toISOString().replace("Z", "+00:00");
    for (const p of [1, 2]) {
      await sql.exec(`INSERT INTO "Project" ("id", "name", "createdAt") VALUES (?, ?, ?)`, [p, `project ${p}`, now]);
      await sql.exec(`INSERT INTO "Video" ("id", "projectId", "externalId", "title") VALUES (?, ?, 'v1', 'A video')`, [
        p,
        p,
      ]);
      await sql.exec(`INSERT INTO "Query" ("id", "projectId", "externalId", "text") VALUES (?, ?, 'q1', 'what?')`, [
        p,
        p,
      ]);
      // The same chunk ids in both projects: unique per project before, per chunking after.
      for (let c = 0; c < 3; c++)
        await sql.exec(
          `INSERT INTO "Chunk" ("id", "projectId", "externalId", "videoId", "startSeconds", "endSeconds", "text") VALUES (?, ?, ?, ?, ?, ?, ?)`,
          [p * 10 + c, p, `v1_${c}`, p, c * 20, c * 20 + 30, `chunk ${c}`],
        );
      for (const [r, system] of [
        [1, "bm25"],
        [2, "dense"],
      ] as const) {
        await sql.exec(
          `INSERT INTO "Run" ("id", "projectId", "system", "contentHash", "createdAt") VALUES (?, ?, ?, ?, ?)`,
          [p * 10 + r, p, system, `h${p}${r}`, now],
        );
        await sql.exec(
          `INSERT INTO "RunEntry" ("runId", "queryId", "chunkId", "rank", "score") VALUES (?, ?, ?, 1, 2.5)`,
          [p * 10 + r, p, p * 10 + r],
        );
      }
    }
    // A project with nothing in it still gets its `default` chunking.
    await sql.exec(`INSERT INTO "Project" ("id", "name", "createdAt") VALUES (3, 'empty', ?)`, [now]);
    if (old.postgres)
      for (const t of ["Project", "Video", "Query", "Chunk", "Run"])
        await sql.exec(`SELECT setval(pg_get_serial_sequence('"${t}"', 'id'), 100)`);
  } finally {
    await sql.close();
  }
}, 120_000);

afterAll(async () => {
  const { closeDb } = await import("../../lib/db/client.ts");
  await closeDb();
  await old?.cleanup();
});

describe("chunkings migration", () => {
  it("puts every existing chunk and run of a project into its `default` chunking", async () => {
    const { migrate } = await import("../../lib/db/migrate.ts");
    expect(await migrate()).toEqual(old.pending);
    expect(old.pending[0]).toBe(MIGRATION);
    const { getDb } = await import("../../lib/db/client.ts");
    const db = await getDb();
    const chunkings = await db.chunking.findMany({ orderBy: { projectId: "asc" } });
    expect(chunkings.map((c) => [c.projectId, c.name, c.method, c.size, c.overlap])).toEqual([
      [1, "default", "imported", null, null],
      [2, "default", "imported", null, null],
      [3, "default", "imported", null, null],
    ]);
    for (const p of [1, 2]) {
      const k = chunkings.find((c) => c.projectId === p)!;
      const chunks = await db.chunk.findMany({ where: { projectId: p }, orderBy: { id: "asc" } });
      expect(chunks.map((c) => [c.id, c.externalId, c.chunkingId, c.startSeconds, c.text])).toEqual([
        [p * 10, "v1_0", k.id, 0, "chunk 0"],
        [p * 10 + 1, "v1_1", k.id, 20, "chunk 1"],
        [p * 10 + 2, "v1_2", k.id, 40, "chunk 2"],
      ]);
      const runs = await db.run.findMany({
        where: { projectId: p },
        orderBy: { id: "asc" },
        include: { entries: true },
      });
      expect(runs.map((r) => [r.system, r.chunkingId, r.contentHash, r.entries.map((e) => e.chunkId)])).toEqual([
        ["bm25", k.id, `h${p}1`, [p * 10 + 1]],
        ["dense", k.id, `h${p}2`, [p * 10 + 2]],
      ]);
    }
    // The new uniqueness: a chunk id once per chunking, so a second chunking may repeat it.
    const second = await db.chunking.create({
      data: { projectId: 1, name: "c20o5", method: "seconds", size: 20, overlap: 5 },
    });
    await db.chunk.create({
      data: {
        projectId: 1,
        chunkingId: second.id,
        externalId: "v1_0",
        videoId: 1,
        startSeconds: 0,
        endSeconds: 20,
        text: "again",
      },
    });
    const k1 = chunkings[0].id;
    await expect(
      db.chunk.create({
        data: {
          projectId: 1,
          chunkingId: k1,
          externalId: "v1_0",
          videoId: 1,
          startSeconds: 0,
          endSeconds: 20,
          text: "twice",
        },
      }),
    ).rejects.toMatchObject({ code: "P2002" });
    expect(await migrate()).toEqual([]);
  });
});
