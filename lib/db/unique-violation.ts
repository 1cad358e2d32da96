/**
 * The one unique-violation check, for every write path: Prisma (P2002), better-sqlite3
 * (SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY) and PostgreSQL (SQLSTATE 23505), also when a raw
 * query's driver error is wrapped by Prisma (P2010, the database's code in meta) or carried as
 * another error's cause.
 */
const UNIQUE_CODES = new Set(["P2002", "SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "23505"]);

type TWrapped = {
  code?: unknown;
  cause?: unknown;
  meta?: { code?: unknown; driverAdapterError?: { cause?: { kind?: unknown; originalCode?: unknown } } };
};

export function isUniqueViolation(e: unknown): boolean {
  for (let cur: unknown = e, depth = 0; typeof cur === "object" && cur !== null && depth < 5; depth++) {
    const w = cur as TWrapped;
    if (UNIQUE_CODES.has(String(w.code))) return true;
    const cause = w.meta?.driverAdapterError?.cause;
    if (w.meta?.code === "23505" || cause?.kind === "UniqueConstraintViolation" || cause?.originalCode === "23505")
      return true;
    cur = w.cause;
  }
  return false;
}
