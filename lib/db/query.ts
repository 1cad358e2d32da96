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

/** A "cold" Kysely instance: it compiles for a dialect and never connects (DummyDriver). */
const cold = <D = DB>(dialect: "sqlite" | "postgres"): Kysely<D> =>
  new Kysely<D>({
    dialect: {
      createAdapter: () => (dialect === "sqlite" ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => (dialect === "sqlite" ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createQueryCompiler: () => (dialect === "sqlite" ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    },
  });

const builders: Record<TProvider, TBuilder> = { sqlite: cold("sqlite"), postgres: cold("postgres") };

/** The builder of a dialect (tests compare the SQL both compile to). */
export const builder = (provider: TProvider): TBuilder => builders[provider];

/**
 * Cold builders over a view `V` of the schema: the same tables and columns under other types,
 * e.g. lib/judge/task-table.ts, where the two task tables are one table name typed with only the
 * columns they share. They compile the same SQL as `builder`; create them once per view (module
 * level), and use the one of the body's dialect (sql.ts `provider`) inside a build.
 */
export const viewBuilders = <V>(): Record<TProvider, Kysely<V>> => ({
  sqlite: cold<V>("sqlite"),
  postgres: cold<V>("postgres"),
});

export function compileFor<R>(provider: TProvider, build: TBuild<R>): TCompiled {
  const compiled = build(builders[provider]).compile();
  return { sql: compiled.sql, params: [...compiled.parameters] };
}
