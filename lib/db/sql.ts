import type { Db } from "./client.ts";
import { readDbConfig } from "./config.ts";

/**
 * Direct SQL for the app's hot paths (a grade submission, the per-request session check), where
 * Prisma's query layer costs more than the statements themselves.
 *
 * A transaction is written once, as a generator that yields statements (`yield* sql.get(…)`),
 * and run by one of two drivers:
 * - SQLite: a dedicated better-sqlite3 connection to the same file (WAL, so Prisma's connection
 *   keeps reading), with cached prepared statements; the whole transaction runs synchronously
 *   between `BEGIN IMMEDIATE` and `COMMIT`, so nothing else in this process can interleave with
 *   it and it holds the write lock for microseconds. If another connection holds the lock
 *   (an import, or a Prisma transaction of this process that is waiting on an await), it retries
 *   after a short pause instead of blocking the event loop in SQLite's busy handler — which
 *   would deadlock against an in-process Prisma transaction.
 * - PostgreSQL: a Prisma interactive transaction with raw queries.
 * SQL uses `?` placeholders and double-quoted identifiers (valid on both). Date parameters are
 * stored the way Prisma stores them (ISO 8601 text with `+00:00` on SQLite).
 */
/** Bytes bind as a BLOB (better-sqlite3) or bytea (Prisma raw on PostgreSQL). */
export type TSqlParam = string | number | boolean | null | Date | Uint8Array;
export type TSqlOp = { kind: "all" | "run"; sql: string; params: readonly TSqlParam[] } | { kind: "provider" };
export type TSqlBody<T> = Generator<TSqlOp, T, unknown>;

/** The rows of a query. */
export function* all<R>(sql: string, params: readonly TSqlParam[] = []): Generator<TSqlOp, R[], unknown> {
  return (yield { kind: "all", sql, params }) as R[];
}

/** The first row of a query, or undefined. */
export function* get<R>(sql: string, params: readonly TSqlParam[] = []): Generator<TSqlOp, R | undefined, unknown> {
  const rows = yield* all<R>(sql, params);
  return rows[0];
}

/** Runs a statement; returns the number of rows it changed. */
export function* run(sql: string, params: readonly TSqlParam[] = []): Generator<TSqlOp, number, unknown> {
  return (yield { kind: "run", sql, params }) as number;
}

/** Which database the body runs on (for the rare statement whose dialects differ). */
export function* provider(): Generator<TSqlOp, "sqlite" | "postgres", unknown> {
  return (yield { kind: "provider" }) as "sqlite" | "postgres";
}

/** Prisma's stored form of a DateTime on SQLite (adapter-better-sqlite3, iso8601 format). */
export const sqliteDate = (d: Date) => d.toISOString().replace("Z", "+00:00");

/**
 * A DateTime column as direct SQL returns it — a Date from PostgreSQL; from SQLite the text Prisma
 * wrote (sqliteDate), a "YYYY-MM-DD HH:MM:SS" of SQLite's own functions, or milliseconds — as a
 * Date; null for NULL or what does not parse.
 */
export function sqlDate(v: unknown): Date | null {
  if (v === null || v === undefined) return null;
  const d = v instanceof Date ? v : typeof v === "number" ? new Date(v) : new Date(String(v).replace(" ", "T"));
  return Number.isNaN(d.getTime()) ? null : d;
}

/** True for a unique-constraint violation raised by either driver. */
export function isUniqueViolationError(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  const code = (e as { code?: unknown }).code;
  if (
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    code === "P2002" ||
    code === "23505"
  )
    return true;
  // Prisma wraps a raw query's driver error (P2010) with the database's own code in meta.
  const meta = (
    e as { meta?: { code?: unknown; driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } } }
  ).meta;
  const cause = meta?.driverAdapterError?.cause;
  return meta?.code === "23505" || cause?.kind === "UniqueConstraintViolation" || cause?.originalCode === "23505";
}

type TStatement = {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
  reader: boolean;
};
type TSqlite = {
  prepare(sql: string): TStatement;
  exec(sql: string): void;
  pragma(p: string): unknown;
  close(): void;
  inTransaction: boolean;
};
type TSqliteHandle = { file: string; conn: TSqlite; statements: Map<string, TStatement> };

const globalSql = globalThis as unknown as { __assessorSql?: TSqliteHandle };

async function sqliteHandle(file: string): Promise<TSqliteHandle> {
  const cached = globalSql.__assessorSql;
  if (cached && cached.file === file) return cached;
  cached?.conn.close();
  const { default: Database } = await import("better-sqlite3");
  // timeout 0: a busy database fails at once and is retried asynchronously (see above).
  const conn = new Database(file, { timeout: 0 }) as unknown as TSqlite;
  conn.pragma("journal_mode = WAL");
  conn.pragma("synchronous = NORMAL");
  conn.pragma("foreign_keys = ON");
  const handle = { file, conn, statements: new Map<string, TStatement>() };
  globalSql.__assessorSql = handle;
  return handle;
}

function statement(h: TSqliteHandle, sql: string): TStatement {
  let s = h.statements.get(sql);
  if (!s) {
    s = h.conn.prepare(sql);
    h.statements.set(sql, s);
  }
  return s;
}

const sqliteParam = (p: TSqlParam) => (p instanceof Date ? sqliteDate(p) : typeof p === "boolean" ? (p ? 1 : 0) : p);

function runSqliteBody<T>(h: TSqliteHandle, body: TSqlBody<T>): T {
  let step = body.next();
  while (!step.done) {
    const op = step.value;
    let result: unknown;
    if (op.kind === "provider") result = "sqlite";
    else {
      const s = statement(h, op.sql);
      const params = op.params.map(sqliteParam);
      result = op.kind === "all" ? s.all(...params) : s.run(...params).changes;
    }
    step = body.next(result);
  }
  return step.value;
}

const isBusy = (e: unknown) =>
  typeof e === "object" &&
  e !== null &&
  ((e as { code?: unknown }).code === "SQLITE_BUSY" || (e as { code?: unknown }).code === "SQLITE_LOCKED");
const BUSY_DEADLINE_MS = 15_000;

async function sqliteTransaction<T>(file: string, makeBody: () => TSqlBody<T>): Promise<T> {
  const h = await sqliteHandle(file);
  const started = Date.now();
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      h.conn.exec("BEGIN IMMEDIATE");
    } catch (e) {
      if (!isBusy(e) || Date.now() - started > BUSY_DEADLINE_MS) throw e;
      await new Promise((r) => setTimeout(r, pause));
      continue;
    }
    try {
      const result = runSqliteBody(h, makeBody());
      h.conn.exec("COMMIT");
      return result;
    } catch (e) {
      if (h.conn.inTransaction) h.conn.exec("ROLLBACK");
      throw e;
    }
  }
}

/** `?` placeholders → PostgreSQL's numbered `$1, $2, …`. */
export const toPg = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

type TRawClient = Pick<Db, "$queryRawUnsafe" | "$executeRawUnsafe">;

async function runPgBody<T>(tx: TRawClient, body: TSqlBody<T>): Promise<T> {
  let step = body.next();
  while (!step.done) {
    const op = step.value;
    let result: unknown;
    if (op.kind === "provider") result = "postgres";
    else if (op.kind === "all") result = await tx.$queryRawUnsafe(toPg(op.sql), ...op.params);
    else result = await tx.$executeRawUnsafe(toPg(op.sql), ...op.params);
    step = body.next(result);
  }
  return step.value;
}

/**
 * Runs `makeBody()` as one transaction. On SQLite the body may be started again if the database
 * was busy before it began, so it must not have side effects outside the database.
 */
export async function sqlTransaction<T>(db: Db, makeBody: () => TSqlBody<T>): Promise<T> {
  const config = readDbConfig();
  if (config.provider === "sqlite") return sqliteTransaction(config.file, makeBody);
  return db.$transaction((tx) => runPgBody(tx, makeBody()));
}

/** Runs a read-only body outside a transaction (one statement or a few independent ones). */
export async function sqlRead<T>(db: Db, makeBody: () => TSqlBody<T>): Promise<T> {
  const config = readDbConfig();
  if (config.provider === "sqlite") return runSqliteBody(await sqliteHandle(config.file), makeBody());
  return runPgBody(db, makeBody());
}

/** Closes the direct SQLite connection (lib/db/client.ts closeDb calls this). */
export function closeSql(): void {
  globalSql.__assessorSql?.conn.close();
  globalSql.__assessorSql = undefined;
}
