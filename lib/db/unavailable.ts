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

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length) {
    const e = queue.shift();
    if (typeof e !== "object" || e === null || seen.has(e)) continue;
    seen.add(e);
    const code = field(e, "code");
    const kind = field(e, "kind");
    const originalCode = field(e, "originalCode");
    if (typeof code === "string" && (CODES.has(code) || code.startsWith("08"))) return true;
    if (typeof originalCode === "string" && (CODES.has(originalCode) || originalCode.startsWith("08"))) return true;
    if (typeof kind === "string" && KINDS.has(kind)) return true;
    if (e instanceof Error && code === undefined && PG_CONNECTION_LOST.has(e.message)) return true;
    queue.push(field(e, "cause"), field(e, "meta"), field(e, "driverAdapterError"));
    const errors = field(e, "errors");
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}
