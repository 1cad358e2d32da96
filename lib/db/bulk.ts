import type { Db } from "./client.ts";
import { readDbConfig } from "./config.ts";
import { pgInsertBatch, sqliteNow, sqliteValue, type Column, type TProvider } from "./dialect.ts";
import { pgAll, pgAllNumbered, pgRun, pgRunNumbered } from "./postgres.ts";
import { compileFor, type TBuild } from "./query.ts";
import { withSqlite } from "./sqlite.ts";

/**
 * The fast write path for large writes (run entries, chunks, labels, pools, assignments), one
 * transaction on either database. Prisma's createMany goes row by row through its query layer,
 * far too slow for a million-line run, so this speaks SQL:
 * - SQLite: a connection of its own (lib/db/sqlite.ts, mode "bulk"), `BEGIN IMMEDIATE`, and
 *   multi-row prepared statements (the fastest way into SQLite; WAL keeps readers unblocked).
 * - PostgreSQL: a Prisma interactive transaction; rows go in batches as arrays through
 *   `INSERT … SELECT … FROM unnest($1::int[], …)` (lib/db/dialect.ts pgInsertBatch), a handful of
 *   parameters per 10,000 rows, the next batch written while the database inserts the previous
 *   one. What is left is the database's own work: on a 200,000-label import, three foreign-key
 *   checks and a unique index a label, four indexes an event.
 * SQL is written with `?` placeholders and double-quoted identifiers (valid on both).
 */
export interface BulkTx {
  readonly provider: TProvider;
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  /** The rows of a typed statement (lib/db/query.ts). */
  query<T>(build: TBuild<T>): Promise<T[]>;
  /** Inserts `count` rows given column by column: `row(i)` returns row i's values in `columns` order. */
  insert(
    table: string,
    columns: Column[],
    count: number,
    row: (i: number) => unknown[],
    onProgress?: (done: number) => void,
  ): Promise<void>;
}

const PG_BATCH = 10_000;
const PROGRESS_EVERY = 20_000;
const SQLITE_BATCH = 100;

export async function bulkTransaction<T>(db: Db, fn: (tx: BulkTx) => Promise<T>): Promise<T> {
  const config = readDbConfig();
  if (config.provider === "postgres") {
    return db.$transaction(
      async (p) => {
        const tx: BulkTx = {
          provider: "postgres",
          all: <R>(sql: string, params: unknown[] = []) => pgAll<R>(p, sql, params),
          run: async (sql, params = []) => {
            await pgRun(p, sql, params);
          },
          query: <R>(build: TBuild<R>) => {
            const { sql, params } = compileFor("postgres", build);
            return pgAllNumbered<R>(p, sql, params);
          },
          insert: async (table, columns, count, row, onProgress) => {
            // Each batch goes as one array literal a column, written here (Prisma's handling of a
            // 10,000-element array parameter costs more than the text itself), and the next batch
            // is written while the database inserts the previous one.
            let pending: Promise<unknown> | null = null;
            let pendingTo = 0;
            for (let from = 0; from < count; from += PG_BATCH) {
              const to = Math.min(count, from + PG_BATCH);
              const { sql, params } = pgInsertBatch(table, columns, from, to, row);
              if (pending) {
                await pending;
                onProgress?.(pendingTo);
              }
              const q = pgRunNumbered(p, sql, params);
              q.catch(() => undefined); // awaited below; a failure must not count as unhandled meanwhile
              pending = q;
              pendingTo = to;
              // Let the statement reach the connection before the next batch is written.
              await new Promise<void>((resolve) => setImmediate(resolve));
            }
            if (pending) {
              await pending;
              onProgress?.(pendingTo);
            }
          },
        };
        return fn(tx);
      },
      { timeout: 30 * 60_000, maxWait: 60_000 },
    );
  }
  return withSqlite(config.file, "bulk", async (conn) => {
    const tx: BulkTx = {
      provider: "sqlite",
      all: async <R>(sql: string, params: unknown[] = []) => conn.prepare(sql).all(...params) as R[],
      run: async (sql, params = []) => {
        conn.prepare(sql).run(...params);
      },
      query: async <R>(build: TBuild<R>) => {
        const { sql, params } = compileFor("sqlite", build);
        const s = conn.prepare(sql);
        // better-sqlite3 refuses all() on a statement that returns no rows (an INSERT without RETURNING).
        if (s.reader) return s.all(...params.map(sqliteValue)) as R[];
        s.run(...params.map(sqliteValue));
        return [];
      },
      insert: async (table, columns, count, row, onProgress) => {
        // Rows go BATCH at a time through one multi-row statement: far fewer calls into SQLite.
        const head = `INSERT INTO "${table}" (${columns.map((c) => `"${c.name}"`).join(", ")}) VALUES `;
        const tuple = `(${columns.map(() => "?").join(", ")})`;
        const many = conn.prepare(head + Array.from({ length: SQLITE_BATCH }, () => tuple).join(", "));
        const one = conn.prepare(head + tuple);
        const params = new Array<unknown>(SQLITE_BATCH * columns.length);
        const w = columns.length;
        let i = 0;
        let nextReport = PROGRESS_EVERY;
        for (; i + SQLITE_BATCH <= count; i += SQLITE_BATCH) {
          for (let k = 0; k < SQLITE_BATCH; k++) {
            const r = row(i + k);
            for (let j = 0; j < w; j++) params[k * w + j] = r[j];
          }
          many.run(params);
          if (onProgress && i + SQLITE_BATCH >= nextReport) {
            onProgress(i + SQLITE_BATCH);
            nextReport += PROGRESS_EVERY;
          }
        }
        for (; i < count; i++) one.run(row(i));
        onProgress?.(count);
      },
    };
    conn.exec("BEGIN IMMEDIATE");
    try {
      const result = await fn(tx);
      conn.exec("COMMIT");
      return result;
    } catch (e) {
      if (conn.inTransaction) conn.exec("ROLLBACK");
      throw e;
    }
  });
}

/**
 * Inserts `rows` (values in `columns` order) into a table whose `createdAt` has a column default:
 * PostgreSQL fills it in; on SQLite it is written in the form Prisma itself stores (the SQL
 * default would be a different text format).
 */
export async function insertStamped(
  tx: BulkTx,
  table: string,
  columns: Column[],
  rows: readonly unknown[][],
): Promise<void> {
  if (tx.provider !== "sqlite") return tx.insert(table, columns, rows.length, (i) => rows[i]);
  const now = sqliteNow();
  return tx.insert(table, [...columns, { name: "createdAt", type: "text" }], rows.length, (i) => [...rows[i], now]);
}
