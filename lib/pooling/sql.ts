import { isUniqueViolation } from "../errors.ts";

/**
 * An integer spliced into SQL text. Only integers we validated or read from the database go in
 * this way (the two databases' raw placeholders differ, "?" and "$1"); anything else is a bug.
 */
export function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`expected an integer for SQL, got ${n}`);
  return String(n);
}

/**
 * A unique or primary-key violation from any of the write paths: Prisma (P2002), better-sqlite3
 * (SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY) or PostgreSQL (SQLSTATE 23505, possibly wrapped).
 */
export function isConstraintViolation(e: unknown): boolean {
  if (isUniqueViolation(e)) return true;
  for (let cur: unknown = e, depth = 0; cur && typeof cur === "object" && depth < 5; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "23505") return true;
    const meta = (cur as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } } })
      .meta;
    const cause = meta?.driverAdapterError?.cause;
    if (cause && (cause.originalCode === "23505" || cause.kind === "UniqueConstraintViolation")) return true;
    cur = (cur as { cause?: unknown }).cause;
  }
  return false;
}
