import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
  type Compilable,
  type RawBuilder,
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

/** A statement the runners compile: a build (built and compiled at each use), or a cached one with its values. */
export type TStatement<R> = TBuild<R> | TBound<R>;

export function compileFor<R>(provider: TProvider, build: TBuild<R>): TCompiled {
  const compiled = build(builders[provider]).compile();
  return { sql: compiled.sql, params: [...compiled.parameters] };
}

/** `compileFor` for either kind of statement (the runners of sql.ts). */
export const compileStatement = <R>(provider: TProvider, statement: TStatement<R>): TCompiled =>
  typeof statement === "function" ? compileFor(provider, statement) : statement.compiled(provider);

/** A value a cached statement binds (what the runners pass to the database). */
export type TBindValue = string | number | boolean | null | Date | Uint8Array;
/** A cached statement's values by name; a list is an IN list, whose length is part of the statement's shape. */
export type TBindValues = Record<string, TBindValue | readonly TBindValue[]>;
/**
 * What else decides a cached statement's SQL (a direction, an optional condition, a column set):
 * one compiled entry per distinct shape, so keep the shapes few. Strings must not contain U+0000.
 */
export type TShape = Record<string, string | number | boolean>;
/** A cached statement with its values (`cachedStatement`): `compiled` fills in the parameters of the dialect's entry. */
export type TBound<R> = { readonly compiled: (provider: TProvider) => TCompiled; readonly row?: R };

/** Stands for value `name` (item `index` of a list, -1 for a single value) while a cached statement is built. */
class Slot {
  constructor(
    readonly name: string,
    readonly index: number,
  ) {}
}
type TEntry = { sql: string; params: unknown[]; slots: { at: number; name: string; index: number }[] };

const isList = (v: TBindValue | readonly TBindValue[]): v is readonly TBindValue[] => Array.isArray(v);

/**
 * The values a cached statement is built with: each replaced by a Slot (a list by one Slot per
 * item), found again by identity among the compiled parameters. The one cast of this module: a
 * Slot is not a value of the declared type, but the build only passes it to Kysely as a value,
 * which Kysely binds as a parameter without looking at it (a build that reads a value in
 * JavaScript — a condition, arithmetic — is caught: its value then has no parameter, see `compile`).
 */
function slotsFor<V extends TBindValues>(values: V): V {
  const out: Record<string, Slot | Slot[]> = {};
  for (const [name, v] of Object.entries(values))
    out[name] = isList(v) ? v.map((_, i) => new Slot(name, i)) : new Slot(name, -1);
  return out as unknown as V;
}

/**
 * A statement whose SQL depends only on its shape (`shape`, and the length of each list value),
 * not on its values: built and compiled once per dialect and shape, with a Slot standing for each
 * value; a use copies the compiled parameters and puts its values at the Slots' positions. The
 * same SQL and parameters as building it each time (tests/unit/db/cached-statement.test.ts),
 * without Kysely's building and compiling on the hot paths (the annotator's queue runs about ten
 * statements a page). Define it once, at module level: the cache lives with the returned function.
 * The build must use values only as values (`where("id", "=", v.id)`), never in JavaScript: what
 * changes the SQL belongs in the shape. A value that ends up in no parameter is an error.
 */
export function cachedStatement<V extends TBindValues, R>(
  build: (k: TBuilder, values: V) => Compilable<R>,
): (values: V) => TBound<R> {
  const shaped = cachedShapes<V, R, Record<string, never>>((k, values) => build(k, values));
  return (values) => shaped(values, {});
}

/** `cachedStatement` for a statement whose SQL also depends on `shape` (one entry per distinct shape). */
export function cachedShapes<V extends TBindValues, R, S extends TShape>(
  build: (k: TBuilder, values: V, shape: S) => Compilable<R>,
): (values: V, shape: S) => TBound<R> {
  const entries = new Map<string, TEntry>();
  const compile = (provider: TProvider, values: V, shape: S): TEntry => {
    const compiled = build(builders[provider], slotsFor(values), shape).compile();
    const params: unknown[] = [...compiled.parameters];
    const slots: TEntry["slots"] = [];
    params.forEach((p, at) => {
      if (!(p instanceof Slot)) return;
      slots.push({ at, name: p.name, index: p.index });
      params[at] = null;
    });
    for (const [name, v] of Object.entries(values))
      if (!(isList(v) && v.length === 0) && !slots.some((s) => s.name === name))
        throw new Error(
          `cached statement: value "${name}" is in no parameter of its SQL (a value that changes the SQL belongs in the shape)`,
        );
    return { sql: compiled.sql, params, slots };
  };
  return (values, shape) => {
    return {
      compiled: (provider) => {
        let key: string = provider;
        for (const [name, v] of Object.entries(shape)) key += `\u0000${name}\u0000${typeof v}:${v}`;
        for (const [name, v] of Object.entries(values)) if (isList(v)) key += `\u0000${name}#${v.length}`;
        let entry = entries.get(key);
        if (!entry) entries.set(key, (entry = compile(provider, values, shape)));
        const params = entry.params.slice();
        for (const s of entry.slots) {
          const v = values[s.name];
          params[s.at] = isList(v) ? v[s.index] : v;
        }
        return { sql: entry.sql, params };
      },
    };
  };
}

/**
 * A timestamp bound where its type cannot be inferred (a branch of CASE): PostgreSQL would take a
 * bare parameter there as text, so it is cast to timestamp(3); SQLite must not cast (TIMESTAMP
 * would make it numeric there) and stores the value as Prisma does.
 */
export const timestampValue = (provider: TProvider, at: Date): RawBuilder<Date> =>
  provider === "postgres" ? sql<Date>`CAST(${at} AS timestamp(3))` : sql<Date>`${at}`;
