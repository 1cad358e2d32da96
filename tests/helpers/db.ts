import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";

/**
 * A fresh, migrated database for one test file, on the engine the suite runs against:
 * TEST_DATABASE_URL=postgresql://… gives a new schema on that server (dropped afterwards);
 * otherwise a new SQLite file in a temp dir. Sets DATABASE_URL so that lib/db and the CLI use it.
 */
export type TestDb = { url: string; provider: "sqlite" | "postgres"; cleanup: () => Promise<void> };

export async function createTestDatabase(): Promise<TestDb> {
  const pgBase = process.env.TEST_DATABASE_URL;
  let db: TestDb;
  if (pgBase && /^postgres(ql)?:\/\//.test(pgBase)) {
    const schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
    const url = new URL(pgBase);
    url.searchParams.set("schema", schema);
    db = {
      url: url.toString(),
      provider: "postgres",
      cleanup: async () => {
        const { default: pg } = await import("pg");
        const client = new pg.Client({ connectionString: pgBase });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      },
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), "assessor-test-"));
    db = {
      url: `file:${join(dir, "test.db")}`,
      provider: "sqlite",
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  process.env.DATABASE_URL = db.url;
  const { migrate } = await import("../../lib/db/migrate.ts");
  await migrate();
  const original = db.cleanup;
  db.cleanup = async () => {
    const { closeDb } = await import("../../lib/db/client.ts");
    await closeDb();
    await original();
  };
  return db;
}
