import type { Db } from "./client.ts";

/**
 * The one PostgreSQL path for direct SQL: Prisma's raw queries, on the shared client or inside a
 * Prisma interactive transaction. Statements are written with `?` placeholders (as on SQLite)
 * and numbered here; parameters are always bound, never spliced into the text.
 */
export type TPgClient = Pick<Db, "$queryRawUnsafe" | "$executeRawUnsafe">;

/** `?` placeholders → PostgreSQL's numbered `$1, $2, …`. */
export const toPg = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** The rows of a `?`-placeholder query. */
export const pgAll = <R>(client: TPgClient, sql: string, params: readonly unknown[] = []): Promise<R[]> =>
  client.$queryRawUnsafe<R[]>(toPg(sql), ...params);

/** Runs a `?`-placeholder statement; the number of rows it changed. */
export const pgRun = (client: TPgClient, sql: string, params: readonly unknown[] = []): Promise<number> =>
  client.$executeRawUnsafe(toPg(sql), ...params);

/** The rows of a statement already numbered (`$1`), as Kysely compiles for PostgreSQL. */
export const pgAllNumbered = <R>(client: TPgClient, sql: string, params: readonly unknown[]): Promise<R[]> =>
  client.$queryRawUnsafe<R[]>(sql, ...params);

/** Runs a statement already numbered (`$1`), such as an array batch (dialect.ts pgInsertBatch). */
export const pgRunNumbered = (client: TPgClient, sql: string, params: readonly unknown[]): Promise<number> =>
  client.$executeRawUnsafe(sql, ...params);
