import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { runCli } from "./cli.ts";

/** Plain SQL on the old database (`?` placeholders on both databases). */
export type Sql = { exec(sql: string, params?: unknown[]): Promise<void>; close(): Promise<void> };

export type OldDatabase = {
  postgres: boolean;
  /** `migration` and every later one (names start with their timestamp), in order: what `migrate()` applies next. */
  pending: string[];
  connect(): Promise<Sql>;
  /** Drops the PostgreSQL schema and the temporary folder (close the app's client first). */
  cleanup(): Promise<void>;
};

/**
 * A database on the suite's engine (TEST_DATABASE_URL: a fresh PostgreSQL schema; else an SQLite
 * file) at the migration before `migration`: a copy of prisma/ without it and without every later
 * one (as on a real upgrade), applied by `assessor migrate` with ASSESSOR_ROOT in a separate
 * process (the schema engine is loaded once per process). DATABASE_URL is set to it, so the app's
 * own `migrate()` then applies `pending` for real.
 */
export async function databaseBefore(migration: string): Promise<OldDatabase> {
  const root = process.cwd();
  const pending = readdirSync(join(root, "prisma", "migrations", "sqlite"))
    .filter((n) => /^\d{14}_/.test(n) && n >= migration)
    .sort();
  const pgBase = process.env.TEST_DATABASE_URL;
  const postgres = !!pgBase && /^postgres(ql)?:\/\//.test(pgBase);
  const tmp = mkdtempSync(join(tmpdir(), "assessor-migration-"));
  let schema: string | undefined;
  let url: string;
  if (postgres) {
    schema = `t_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
    const u = new URL(pgBase!);
    u.searchParams.set("schema", schema);
    url = u.toString();
  } else url = `file:${join(tmp, "old.db")}`;
  process.env.DATABASE_URL = url;
  const old = join(tmp, "root");
  cpSync(join(root, "prisma"), join(old, "prisma"), {
    recursive: true,
    filter: (src) => !pending.some((m) => src.includes(m)),
  });
  expect(readdirSync(join(old, "prisma", "migrations", "sqlite")).some((n) => n.includes(migration))).toBe(false);
  const r = runCli(["migrate"], { env: { ASSESSOR_ROOT: old, DATABASE_URL: url } });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);

  async function connect(): Promise<Sql> {
    if (postgres) {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: pgBase, options: `-c search_path="${schema}"` });
      await client.connect();
      return {
        exec: async (sql, params = []) => {
          let k = 0;
          await client.query(
            sql.replace(/\?/g, () => `$${++k}`),
            params,
          );
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

  async function cleanup(): Promise<void> {
    if (postgres) {
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString: pgBase });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    }
    rmSync(tmp, { recursive: true, force: true });
  }

  return { postgres, pending, connect, cleanup };
}
