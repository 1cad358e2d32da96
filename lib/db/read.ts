import type { Db } from "./client.ts";
import { readDbConfig } from "./config.ts";
import { sqliteValue } from "./dialect.ts";
import { pgAll, pgAllNumbered } from "./postgres.ts";
import { compileFor, type TBuild } from "./query.ts";
import { closeSharedSqlite, sharedSqlite } from "./sqlite.ts";

/**
 * The read path outside a transaction: bulk reads of narrow rows (the dashboard's 100,000s of
 * labels, the question list, the adjudication queue's labels), where building a Prisma object per
 * row costs more than the query. SQLite: the shared read-only connection of lib/db/sqlite.ts,
 * returning plain arrays; PostgreSQL: Prisma's raw query (lib/db/postgres.ts). SQL uses `?`
 * placeholders and double-quoted identifiers.
 */
export async function rows(db: Db, sql: string, params: unknown[] = []): Promise<unknown[][]> {
  const config = readDbConfig();
  if (config.provider === "sqlite")
    return (await sharedSqlite(config.file, "read"))
      .prepare(sql)
      .raw(true)
      .all(...params) as unknown[][];
  const out = await pgAll<Record<string, unknown>>(db, sql, params);
  return out.map((r) => Object.values(r));
}

/**
 * The rows of a typed statement (lib/db/query.ts: checked against the schema by `tsc`), as objects,
 * on the same read path: the shared read-only SQLite connection, or Prisma's raw query.
 */
export async function typedRows<R>(db: Db, build: TBuild<R>): Promise<R[]> {
  const config = readDbConfig();
  const { sql, params } = compileFor(config.provider, build);
  if (config.provider === "sqlite")
    return (await sharedSqlite(config.file, "read")).prepare(sql).all(...params.map(sqliteValue)) as R[];
  return pgAllNumbered<R>(db, sql, params);
}

/** Closes the read connection (tests and benchmarks that remove their database file). */
export function closeReadSql(): void {
  closeSharedSqlite("read");
}

export const num = (v: unknown): number => (typeof v === "number" ? v : Number(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : num(v));
export const str = (v: unknown): string => (typeof v === "string" ? v : String(v));
