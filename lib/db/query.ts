import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Compilable,
} from "kysely";
import type { TProvider } from "./dialect.ts";
import type { DB } from "./schema.ts";

/**
 * Typed statements: Kysely builds and compiles them (a "cold" instance per dialect, DummyDriver:
 * Kysely never connects), and the runners of this folder execute the compiled SQL — the
 * generator transactions of sql.ts (sql.ts rowsOf/firstOf/exec) and the bulk transactions of
 * bulk.ts (tx.query) — so the synchronous SQLite transaction and Prisma's PostgreSQL transaction
 * stay as they are. A statement is written once as `(k) => k.selectFrom("Judgement")…`, and
 * compiled for the database it runs on.
 */
export type TBuilder = Kysely<DB>;
export type TBuild<R> = (k: TBuilder) => Compilable<R>;
/** Compiled SQL: `?` placeholders on SQLite, numbered (`$1`) on PostgreSQL. */
export type TCompiled = { sql: string; params: unknown[] };

const builders: Record<TProvider, TBuilder> = {
  sqlite: new Kysely<DB>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }),
  postgres: new Kysely<DB>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }),
};

/** The builder of a dialect (tests compare the SQL both compile to). */
export const builder = (provider: TProvider): TBuilder => builders[provider];

export function compileFor<R>(provider: TProvider, build: TBuild<R>): TCompiled {
  const compiled = build(builders[provider]).compile();
  return { sql: compiled.sql, params: [...compiled.parameters] };
}
