import type { Db } from "../db/client.ts";
import { readDbConfig } from "../db/config.ts";
import { toPg } from "../db/sql.ts";

/**
 * Read-only SQL for the dashboard's bulk reads (100,000s of narrow rows), where building a Prisma
 * object per row costs more than the query: on SQLite a read-only better-sqlite3 connection to
 * the same file returning plain arrays (as lib/imports/bulk.ts does for its id maps); on
 * PostgreSQL Prisma's raw query. SQL uses `?` placeholders and double-quoted identifiers.
 */
type Sqlite = { prepare(sql: string): { raw(on: boolean): { all(...params: unknown[]): unknown[][] } }; close(): void };

const globalSql = globalThis as unknown as { __assessorDashboardSql?: { file: string; conn: Sqlite } };

async function sqlite(file: string): Promise<Sqlite> {
  const cached = globalSql.__assessorDashboardSql;
  if (cached && cached.file === file) return cached.conn;
  cached?.conn.close();
  const { default: Database } = await import("better-sqlite3");
  const conn = new Database(file, { readonly: true, timeout: 15_000 }) as unknown as Sqlite;
  globalSql.__assessorDashboardSql = { file, conn };
  return conn;
}

export async function rows(db: Db, sql: string, params: unknown[] = []): Promise<unknown[][]> {
  const config = readDbConfig();
  if (config.provider === "sqlite")
    return (await sqlite(config.file))
      .prepare(sql)
      .raw(true)
      .all(...params);
  const out = await db.$queryRawUnsafe<Record<string, unknown>[]>(toPg(sql), ...params);
  return out.map((r) => Object.values(r));
}

/** Closes the read connection (tests and benchmarks that remove their database file). */
export function closeDashboardSql(): void {
  globalSql.__assessorDashboardSql?.conn.close();
  globalSql.__assessorDashboardSql = undefined;
}

export const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));
export const str = (v: unknown): string => (typeof v === "string" ? v : String(v));
