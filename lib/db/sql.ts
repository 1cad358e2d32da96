import type { Statement } from "better-sqlite3";
import type { Db } from "./client.ts";
import { readDbConfig } from "./config.ts";
import { sqliteValue, type TProvider } from "./dialect.ts";
import { pgAll, pgAllNumbered, pgRun, pgRunNumbered, type TPgClient } from "./postgres.ts";
import { compileStatement, type TBound, type TBuild, type TStatement as TTyped } from "./query.ts";
import { closeSharedSqlite, sharedSqlite, type TSqliteConn } from "./sqlite.ts";
import { isTransactionConflict } from "./unavailable.ts";

export { sqlDate, sqliteDate } from "./dialect.ts";
export { isUniqueViolation } from "./unique-violation.ts";

/**
 * Direct SQL for the app's hot paths (a grade submission, the per-request session check), where
 * Prisma's query layer costs more than the statements themselves.
 *
 * A transaction is written once, as a generator that yields statements (`yield* sql.get(…)`),
 * and run by one of two drivers:
 * - SQLite: the shared "write" connection of lib/db/sqlite.ts (WAL, so Prisma's connection
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
export type TSqlOp =
  { kind: "all" | "run"; sql: string; params: readonly TSqlParam[]; numbered?: true } | { kind: "provider" };
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

/** The rows of a typed statement (lib/db/query.ts: a build, or a cached statement), compiled for the database the body runs on. */
export function rowsOf<R>(build: TBuild<R>): Generator<TSqlOp, R[], unknown>;
export function rowsOf<R>(statement: TBound<R>): Generator<TSqlOp, R[], unknown>;
export function* rowsOf<R>(statement: TTyped<R>): Generator<TSqlOp, R[], unknown> {
  return (yield compiledOp("all", yield* provider(), statement)) as R[];
}

/** The first row of a typed statement, or undefined. */
export function firstOf<R>(build: TBuild<R>): Generator<TSqlOp, R | undefined, unknown>;
export function firstOf<R>(statement: TBound<R>): Generator<TSqlOp, R | undefined, unknown>;
export function* firstOf<R>(statement: TTyped<R>): Generator<TSqlOp, R | undefined, unknown> {
  const rows: R[] = (yield compiledOp("all", yield* provider(), statement)) as R[];
  return rows[0];
}

/** The id of the row an INSERT … RETURNING "id" wrote (one that returns no row is a bug). */
export function* insertedId(statement: TTyped<{ id: number | bigint | string }>): Generator<TSqlOp, number, unknown> {
  const rows = (yield compiledOp("all", yield* provider(), statement)) as { id: number | bigint | string }[];
  if (!rows[0]) throw new Error("INSERT … RETURNING gave no row");
  return Number(rows[0].id);
}

/** Runs a typed statement; returns the number of rows it changed. */
export function exec(build: TBuild<unknown>): Generator<TSqlOp, number, unknown>;
export function exec(statement: TBound<unknown>): Generator<TSqlOp, number, unknown>;
export function* exec(statement: TTyped<unknown>): Generator<TSqlOp, number, unknown> {
  return (yield compiledOp("run", yield* provider(), statement)) as number;
}

function compiledOp(kind: "all" | "run", p: TProvider, statement: TTyped<unknown>): TSqlOp {
  const { sql, params } = compileStatement(p, statement);
  return p === "postgres"
    ? { kind, sql, params: params as TSqlParam[], numbered: true }
    : { kind, sql, params: params as TSqlParam[] };
}

/**
 * Runs `statement`, a SELECT … FOR UPDATE, on PostgreSQL only: the rows it selects stay locked
 * until the transaction ends, so concurrent transactions on the same rows queue behind it. SQLite
 * needs nothing (a transaction holds the database's write lock from BEGIN IMMEDIATE), and the
 * statement is not even compiled there.
 */
export function* lockRows(statement: TTyped<unknown>): Generator<TSqlOp, void, unknown> {
  if ((yield* provider()) === "postgres") yield compiledOp("all", "postgres", statement);
}

/** Which database the body runs on (for the rare statement whose dialects differ). */
export function* provider(): Generator<TSqlOp, "sqlite" | "postgres", unknown> {
  return (yield { kind: "provider" }) as "sqlite" | "postgres";
}

type TStatement = Statement<unknown[]>;
const statements = new WeakMap<TSqliteConn, Map<string, TStatement>>();

/** The cached prepared statement of `sql` on the shared write connection. */
function statement(conn: TSqliteConn, sql: string): TStatement {
  let cache = statements.get(conn);
  if (!cache) statements.set(conn, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) {
    s = conn.prepare<unknown[]>(sql);
    cache.set(sql, s);
  }
  return s;
}

function runSqliteBody<T>(h: TSqliteConn, body: TSqlBody<T>): T {
  let step = body.next();
  while (!step.done) {
    const op = step.value;
    let result: unknown;
    if (op.kind === "provider") result = "sqlite";
    else {
      const s = statement(h, op.sql);
      const params: unknown[] = op.params.map(sqliteValue);
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
  const h = await sharedSqlite(file, "write");
  const started = Date.now();
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      h.exec("BEGIN IMMEDIATE");
    } catch (e) {
      if (!isBusy(e) || Date.now() - started > BUSY_DEADLINE_MS) throw e;
      await new Promise((r) => setTimeout(r, pause));
      continue;
    }
    try {
      const result = runSqliteBody(h, makeBody());
      h.exec("COMMIT");
      return result;
    } catch (e) {
      if (h.inTransaction) h.exec("ROLLBACK");
      throw e;
    }
  }
}

async function runPgBody<T>(tx: TPgClient, body: TSqlBody<T>): Promise<T> {
  let step = body.next();
  while (!step.done) {
    const op = step.value;
    let result: unknown;
    if (op.kind === "provider") result = "postgres";
    else if (op.numbered)
      result = await (op.kind === "all" ? pgAllNumbered(tx, op.sql, op.params) : pgRunNumbered(tx, op.sql, op.params));
    else result = await (op.kind === "all" ? pgAll(tx, op.sql, op.params) : pgRun(tx, op.sql, op.params));
    step = body.next(result);
  }
  return step.value;
}

/**
 * PostgreSQL: how long a transaction may wait for a connection and run. Prisma's defaults (2 s and
 * 5 s) abort a short transaction that merely queued behind others on a busy server.
 */
const PG_TX_OPTIONS = { maxWait: 10_000, timeout: 60_000 } as const;
/** Times a transaction that PostgreSQL aborted as a deadlock or serialization failure is run again. */
const PG_CONFLICT_RETRIES = 5;

/**
 * Runs `makeBody()` as one transaction. The body may be started again (SQLite: the database was
 * busy before it began; PostgreSQL: the server aborted it as a deadlock or a serialization
 * failure, so nothing of it was written), so it must not have side effects outside the database.
 */
export async function sqlTransaction<T>(db: Db, makeBody: () => TSqlBody<T>): Promise<T> {
  const config = readDbConfig();
  if (config.provider === "sqlite") return sqliteTransaction(config.file, makeBody);
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction((tx) => runPgBody(tx, makeBody()), PG_TX_OPTIONS);
    } catch (e) {
      if (attempt > PG_CONFLICT_RETRIES || !isTransactionConflict(e)) throw e;
      // A random pause, so that the transactions that collided do not meet again in step.
      await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** attempt));
    }
  }
}

/**
 * One write statement that needs no transaction around it (a conditional upsert with RETURNING):
 * PostgreSQL runs it autocommitted (a transaction would add two round trips); SQLite runs it on the
 * shared write connection, retrying while another connection holds the write lock.
 */
export async function sqlStatement<R>(db: Db, sql: string, params: readonly TSqlParam[]): Promise<R[]> {
  const config = readDbConfig();
  if (config.provider === "postgres") return pgAll<R>(db, sql, params);
  return sqliteTransaction(config.file, function* () {
    return yield* all<R>(sql, params);
  });
}

/** Runs a read-only body outside a transaction (one statement or a few independent ones). */
export async function sqlRead<T>(db: Db, makeBody: () => TSqlBody<T>): Promise<T> {
  const config = readDbConfig();
  if (config.provider === "sqlite") return runSqliteBody(await sharedSqlite(config.file, "write"), makeBody());
  return runPgBody(db, makeBody());
}

/** Closes the shared direct SQLite connections (lib/db/client.ts closeDb calls this). */
export function closeSql(): void {
  closeSharedSqlite();
}
