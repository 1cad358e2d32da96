import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, type OldDatabase } from "../helpers/migration-before.ts";

/**
 * The questions migration on the suite's database: a database at the migration before
 * it (a copy of prisma/ without it and later ones, applied by `assessor migrate` with ASSESSOR_ROOT), filled by
 * plain SQL with queries that have a reference start and video, a start only, or neither; then
 * migrated for real: every query is accepted, without an author user, and has one answer place
 * per reference start (none without one); new questions may have several.
 */
const MIGRATION = "20261202070903_questions";
let old: OldDatabase;

beforeAll(async () => {
  old = await databaseBefore(MIGRATION);
  const sql = await old.connect();
  try {
    const now = old.postgres ? new Date().toISOString() : new Date().toISOString().replace("Z", "+00:00");
    await sql.exec(`INSERT INTO "Project" ("id", "name", "createdAt") VALUES (1, 'p', ?)`, [now]);
    await sql.exec(`INSERT INTO "Video" ("id", "projectId", "externalId", "title") VALUES (1, 1, 'v1', 'A video')`);
    await sql.exec(
      `INSERT INTO "Query" ("id", "projectId", "externalId", "text", "author", "referenceStartSeconds", "referenceVideoId") VALUES (1, 1, 'q1', 'with both', 'ana', 31.5, 1)`,
    );
    await sql.exec(
      `INSERT INTO "Query" ("id", "projectId", "externalId", "text", "referenceStartSeconds") VALUES (2, 1, 'q2', 'start only', 12)`,
    );
    await sql.exec(`INSERT INTO "Query" ("id", "projectId", "externalId", "text") VALUES (3, 1, 'q3', 'neither')`);
    await sql.exec(`INSERT INTO "QueryTag" ("queryId", "tag") VALUES (1, 'concept')`);
    if (old.postgres)
      for (const t of ["Project", "Video", "Query"])
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

describe("questions migration", () => {
  it("keeps every query, accepted, with one answer place per reference start", async () => {
    const { migrate } = await import("../../lib/db/migrate.ts");
    expect(await migrate()).toEqual(old.pending);
    expect(old.pending[0]).toBe(MIGRATION);
    const { getDb } = await import("../../lib/db/client.ts");
    const db = await getDb();
    const qs = await db.query.findMany({ orderBy: { id: "asc" }, include: { places: true, tags: true } });
    expect(
      qs.map((q) => [
        q.externalId,
        q.text,
        q.author,
        q.authorId,
        q.status,
        q.places.map((p) => [p.videoId, p.startSeconds, p.endSeconds]),
        q.tags.map((t) => t.tag),
      ]),
    ).toEqual([
      ["q1", "with both", "ana", null, "accepted", [[1, 31.5, null]], ["concept"]],
      ["q2", "start only", null, null, "accepted", [[null, 12, null]], []],
      ["q3", "neither", null, null, "accepted", [], []],
    ]);
    expect(await db.project.findUniqueOrThrow({ where: { id: 1 } })).toMatchObject({
      transcriptWhileWriting: false,
      annotatorsMayAuthor: false,
    });
    // Several places for one question now.
    await db.queryPlace.createMany({
      data: [
        { queryId: 3, videoId: 1, startSeconds: 5, endSeconds: 9 },
        { queryId: 3, videoId: 1, startSeconds: 50 },
      ],
    });
    expect(await db.queryPlace.count({ where: { queryId: 3 } })).toBe(2);
    expect(await migrate()).toEqual([]);
  });
});
