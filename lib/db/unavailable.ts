/**
 * Whether an error means the database cannot be reached right now (server down, connection
 * refused or cut, pool exhausted), as opposed to a bug or bad data: such requests answer 503
 * with Retry-After (lib/http/route.ts) and the client retries; the pool reconnects by itself when
 * the database is back, so the app server needs no restart (tests/e2e/db-outage.test.ts).
 * Recognised by code along the error's cause chain (Prisma, the pg driver adapter, Node, the
 * PostgreSQL SQLSTATE class 08 and admin shutdowns), never by message, with one exception: the
 * pg driver reports a connection cut in the middle of a query as a plain Error with no code, only
 * the fixed texts below (pg/lib/client.js), so those two are matched exactly.
 */
const PG_CONNECTION_LOST = new Set(["Connection terminated unexpectedly", "Connection terminated"]);
const CODES = new Set([
  "P1001", // can't reach database server
  "P1002", // database server timed out
  "P1008", // operation timed out
  "P1017", // server closed the connection
  "P2024", // timed out fetching a connection from the pool
  "P2028", // transaction API error (the transaction's connection was lost)
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
]);
const KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TransactionAlreadyClosed",
  "TooManyConnections",
]);

function field(e: object, name: string): unknown {
  return (e as Record<string, unknown>)[name];
}

/** The objects along an error's cause chain (cause, meta, driverAdapterError, an aggregate's errors), each once. */
function* chain(error: unknown): Generator<object> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (typeof e !== "object" || e === null || seen.has(e)) continue;
    seen.add(e);
    yield e;
    queue.push(field(e, "cause"), field(e, "meta"), field(e, "driverAdapterError"));
    const errors = field(e, "errors");
    if (Array.isArray(errors)) queue.push(...errors);
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of chain(error)) {
    const code = field(e, "code");
    const kind = field(e, "kind");
    const originalCode = field(e, "originalCode");
    if (typeof code === "string" && (CODES.has(code) || code.startsWith("08"))) return true;
    if (typeof originalCode === "string" && (CODES.has(originalCode) || originalCode.startsWith("08"))) return true;
    if (typeof kind === "string" && KINDS.has(kind)) return true;
    if (e instanceof Error && code === undefined && PG_CONNECTION_LOST.has(e.message)) return true;
  }
  return false;
}

/**
 * PostgreSQL aborted the transaction so that another could go on: a deadlock (SQLSTATE 40P01) or a
 * serialization failure (40001); the pg adapter calls both TransactionWriteConflict, Prisma P2034.
 * Nothing of the transaction was written, and running it again is the documented remedy
 * (PostgreSQL manual, "Serialization Failure Handling").
 */
const CONFLICT_CODES = new Set(["40P01", "40001", "P2034"]);
export function isTransactionConflict(error: unknown): boolean {
  for (const e of chain(error)) {
    for (const name of ["code", "originalCode"]) {
      const code = field(e, name);
      if (typeof code === "string" && CONFLICT_CODES.has(code)) return true;
    }
    if (field(e, "kind") === "TransactionWriteConflict") return true;
  }
  return false;
}
