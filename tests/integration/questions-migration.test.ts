import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { runCli } from "../helpers/cli.ts";

/**
 * The questions migration (issue 23) on the suite's database: a database at the migration before
 * it (a copy of prisma/ without it, applied by `assessor migrate` with ASSESSOR_ROOT), filled by
 * plain SQL with queries that have a reference start and video, a start only, or neither; then
 * migrated for real: every query is accepted, without an author user, and has one answer place
 * per reference start (none without one); new questions may have several.
 */
const MIGRATION = "20261202070903_questions";
const root = process.cwd();
const pgBase = process.env.TEST_DATABASE_URL;
const postgres = !!pgBase && /^postgres(ql)?:\/\//.test(pgBase);
let tmp: string;
let url: string;
let schema: string | undefined;

type Sql = { exec(sql: string, params?: unknown[]): Promise<void>; close(): Promise<void> };

async function connect(): Promise<Sql> {
  if (postgres) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: pgBase, options: `-c search_path="${schema}"` });
    await client.connect();
    return {
      exec: async (sql, params = []) => {
        let k = 0;
        await client.query(sql.replace(/\?/g, () => `$${++k}`), params);
      },
      close: () => client.end(),
    };
  }
  const { default: Database } = await import("better-sqlite3");
  const conn = new Database(url.slice("file:".length));
  return {
    exec: async (sql, params = []) => {
      conn.prepare(sql).run(...params);
    },
    close: async () => {
      conn.close();
    },
  };
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "assessor-migration-"));
  if (postgres) {
    schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
    const u = new URL(pgBase!);
    u.searchParams.set("schema", schema);
    url = u.toString();
  } else url = `file:${join(tmp, "old.db")}`;
  process.env.DATABASE_URL = url;
  // prisma/ as it was before the migration: every file, the new migration's folders left out.
  const old = join(tmp, "root");
  cpSync(join(root, "prisma"), join(old, "prisma"), { recursive: true, filter: (src) => !src.includes(MIGRATION) });
  expect(readdirSync(join(old, "prisma", "migrations", "sqlite")).some((n) => n.includes(MIGRATION))).toBe(false);
  // In a separate process (the CLI, as a user would run it): the schema engine is loaded once per process.
  const r = runCli(["migrate"], { env: { ASSESSOR_ROOT: old, DATABASE_URL: url } });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);

  const sql = await connect();
  try {
    const now = postgres ? new Date().toISOString() : new Date().toISOString().replace("Z", "+00:00");
    await sql.exec(`INSERT INTO "Project" ("id", "name", "createdAt") VALUES (1, 'p', ?)`, [now]);
    await sql.exec(`INSERT INTO "Video" ("id", "projectId", "externalId", "title") VALUES (1, 1, 'v1', 'A video')`);
    await sql.exec(`INSERT INTO "Query" ("id", "projectId", "externalId", "text", "author", "referenceStartSeconds", "referenceVideoId") VALUES (1, 1, 'q1', 'with both', 'ana', 31.5, 1)`);
    await sql.exec(`INSERT INTO "Query" ("id", "projectId", "externalId", "text", "referenceStartSeconds") VALUES (2, 1, 'q2', 'start only', 12)`);
    await sql.exec(`INSERT INTO "Query" ("id", "projectId", "externalId", "text") VALUES (3, 1, 'q3', 'neither')`);
    await sql.exec(`INSERT INTO "QueryTag" ("queryId", "tag") VALUES (1, 'concept')`);
    if (postgres) for (const t of ["Project", "Video", "Query"]) await sql.exec(`SELECT setval(pg_get_serial_sequence('"${t}"', 'id'), 100)`);
  } finally {
    await sql.close();
  }
}, 120_000);

afterAll(async () => {
  const { closeDb } = await import("../../lib/db/client.ts");
  await closeDb();
  if (postgres) {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: pgBase });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  rmSync(tmp, { recursive: true, force: true });
});

describe("questions migration", () => {
  it("keeps every query, accepted, with one answer place per reference start", async () => {
    const { migrate } = await import("../../lib/db/migrate.ts");
    expect(await migrate()).toEqual([MIGRATION]);
    const { getDb } = await import("../../lib/db/client.ts");
    const db = await getDb();
    const qs = await db.query.findMany({ orderBy: { id: "asc" }, include: { places: true, tags: true } });
    expect(qs.map((q) => [q.externalId, q.text, q.author, q.authorId, q.status, q.places.map((p) => [p.videoId, p.startSeconds, p.endSeconds]), q.tags.map((t) => t.tag)])).toEqual([
      ["q1", "with both", "ana", null, "accepted", [[1, 31.5, null]], ["concept"]],
      ["q2", "start only", null, null, "accepted", [[null, 12, null]], []],
      ["q3", "neither", null, null, "accepted", [], []],
    ]);
    expect(await db.project.findUniqueOrThrow({ where: { id: 1 } })).toMatchObject({ transcriptWhileWriting: false, annotatorsMayAuthor: false });
    // Several places for one question now.
    await db.queryPlace.createMany({ data: [{ queryId: 3, videoId: 1, startSeconds: 5, endSeconds: 9 }, { queryId: 3, videoId: 1, startSeconds: 50 }] });
    expect(await db.queryPlace.count({ where: { queryId: 3 } })).toBe(2);
    expect(await migrate()).toEqual([]);
  });
});
