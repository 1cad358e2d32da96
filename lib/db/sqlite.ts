/**
 * The one SQLite handle policy for direct SQL (Prisma keeps its own connection, lib/db/client.ts).
 * Every better-sqlite3 connection of the app is opened here, in one of three modes:
 * - "write": the shared connection of the statement runner (lib/db/sql.ts). timeout 0: a busy
 *   database fails at once and the runner retries asynchronously, so the event loop never blocks
 *   in SQLite's busy handler (that would deadlock against an in-process Prisma transaction).
 * - "read": the shared read-only connection of bulk reads (the dashboard's narrow rows); it
 *   waits up to 15 s for a lock.
 * - "bulk" and "readOnce": a connection of one import (its own transaction) or one read, closed
 *   by its caller; "bulk" writes with a larger page cache.
 * All writing connections use WAL (readers keep reading while one writer writes), synchronous
 * NORMAL (durable against an application crash in WAL mode) and foreign keys on.
 */
import type { Database as TDatabase } from "better-sqlite3";

export type TSqliteMode = "write" | "read" | "bulk" | "readOnce";
export type TSqliteConn = TDatabase;

const BUSY_TIMEOUT_MS = 15_000;

/** Opens a connection to `file` configured for `mode` (the caller owns and closes it). */
export async function openSqlite(file: string, mode: TSqliteMode): Promise<TSqliteConn> {
  const { default: Database } = await import("better-sqlite3");
  const readonly = mode === "read" || mode === "readOnce";
  const conn = new Database(file, { readonly, timeout: mode === "write" ? 0 : BUSY_TIMEOUT_MS });
  if (mode === "write") conn.pragma("journal_mode = WAL");
  if (!readonly) {
    conn.pragma("synchronous = NORMAL");
    conn.pragma("foreign_keys = ON");
  }
  // 8 MB: an import's rows arrive grouped by query, so the index pages it touches stay few.
  if (mode === "bulk") conn.pragma("cache_size = -8000");
  return conn;
}

/** Runs `fn` on a connection of its own, closed afterwards. */
export async function withSqlite<T>(file: string, mode: "bulk" | "readOnce", fn: (conn: TSqliteConn) => T): Promise<T> {
  const conn = await openSqlite(file, mode);
  try {
    return await fn(conn);
  } finally {
    conn.close();
  }
}

type TShared = { file: string; conn: TSqliteConn };
const globalSqlite = globalThis as unknown as { __assessorSqlite?: Partial<Record<"write" | "read", TShared>> };

/**
 * The shared connection of a mode, one per process (cached on globalThis: Next's hot reload and
 * the test suite reuse it); opened again when DATABASE_URL names another file.
 */
export async function sharedSqlite(file: string, mode: "write" | "read"): Promise<TSqliteConn> {
  const handles = (globalSqlite.__assessorSqlite ??= {});
  const cached = handles[mode];
  if (cached && cached.file === file) return cached.conn;
  cached?.conn.close();
  const conn = await openSqlite(file, mode);
  handles[mode] = { file, conn };
  return conn;
}

/** Closes a shared connection (all of them without a mode): tests and benchmarks that remove their file. */
export function closeSharedSqlite(mode?: "write" | "read"): void {
  const handles = globalSqlite.__assessorSqlite;
  if (!handles) return;
  for (const m of mode ? [mode] : (["write", "read"] as const)) {
    handles[m]?.conn.close();
    handles[m] = undefined;
  }
}
