import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseBefore, type OldDatabase } from "../helpers/migration-before.ts";

/**
 * The guideline-revisions migration on the suite's database: a project with guidelines gets them
 * as revision 1 (no author) and its earlier grades and decisions count as revision 1; a project
 * without guidelines gets no revision and its grades count as revision 0.
 */
const MIGRATION = "20261205140814_guideline_revisions";
let old: OldDatabase;

beforeAll(async () => {
  old = await databaseBefore(MIGRATION);
  const sql = await old.connect();
  try {
    const now = old.postgres ? new Date().toISOString() : new Date().toISOString().replace("Z", "+00:00");
    await sql.exec(
      `INSERT INTO "User" ("id", "email", "name", "role", "passwordHash", "createdAt") VALUES ('u1', 'a@x.org', 'Ann', 'annotator', 'x', ?)`,
      [now],
    );
    await sql.exec(
      `INSERT INTO "Project" ("id", "name", "guidelines", "createdAt") VALUES (1, 'with', '# Grade 3', ?), (2, 'without', '', ?)`,
      [now, now],
    );
    for (const p of [1, 2]) {
      await sql.exec(`INSERT INTO "Video" ("id", "projectId", "externalId", "title") VALUES (?, ?, 'v', 'V')`, [p, p]);
      await sql.exec(
        `INSERT INTO "Chunking" ("id", "projectId", "name", "method", "createdAt") VALUES (?, ?, 'default', 'imported', ?)`,
        [p, p, now],
      );
      await sql.exec(
        `INSERT INTO "Chunk" ("id", "projectId", "chunkingId", "externalId", "videoId", "startSeconds", "endSeconds", "text") VALUES (?, ?, ?, 'c', ?, 0, 10, 't')`,
        [p, p, p, p],
      );
      await sql.exec(
        `INSERT INTO "Query" ("id", "projectId", "externalId", "text", "createdAt", "updatedAt") VALUES (?, ?, 'q', 'Q', ?, ?)`,
        [p, p, now, now],
      );
      await sql.exec(
        `INSERT INTO "PoolItem" ("id", "projectId", "queryId", "chunkId", "createdAt") VALUES (?, ?, ?, ?, ?)`,
        [`pi${p}`, p, p, p, now],
      );
      await sql.exec(
        `INSERT INTO "Judgement" ("poolItemId", "userId", "grade", "idempotencyKey", "createdAt", "updatedAt") VALUES (?, 'u1', 2, ?, ?, ?)`,
        [`pi${p}`, `k${p}`, now, now],
      );
    }
    await sql.exec(
      `INSERT INTO "Adjudication" ("poolItemId", "adjudicatorId", "grade", "createdAt") VALUES ('pi1', 'u1', 3, ?)`,
      [now],
    );
  } finally {
    await sql.close();
  }
}, 120_000);

afterAll(async () => {
  const { closeDb } = await import("../../lib/db/client.ts");
  await closeDb();
  await old?.cleanup();
});

describe("guideline revisions migration", () => {
  it("makes the current guidelines revision 1 and counts earlier grades under it", async () => {
    const { migrate } = await import("../../lib/db/migrate.ts");
    expect(await migrate()).toEqual(old.pending);
    expect(old.pending[0]).toBe(MIGRATION);
    const { getDb } = await import("../../lib/db/client.ts");
    const db = await getDb();
    const revisions = await db.guidelineRevision.findMany({ orderBy: { projectId: "asc" } });
    expect(revisions.map((r) => [r.projectId, r.revision, r.text, r.authorId])).toEqual([[1, 1, "# Grade 3", null]]);
    expect(revisions[0].createdAt).toBeInstanceOf(Date);
    expect(Number.isNaN(revisions[0].createdAt.getTime())).toBe(false);
    const judgements = await db.judgement.findMany({ orderBy: { poolItemId: "asc" } });
    expect(judgements.map((j) => [j.poolItemId, j.guidelineRevision])).toEqual([
      ["pi1", 1],
      ["pi2", 0],
    ]);
    expect((await db.adjudication.findUniqueOrThrow({ where: { poolItemId: "pi1" } })).guidelineRevision).toBe(1);
    expect(await db.assignment.count({ where: { regradeRequestedAt: { not: null } } })).toBe(0);
  });
});
