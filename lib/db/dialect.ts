/**
 * Every difference between the two databases that direct SQL meets, named once. Statements are
 * written once with `?` placeholders and double-quoted identifiers (valid on both); where the
 * dialects differ they call one of these instead of testing the provider inline.
 */
export type TProvider = "sqlite" | "postgres";

/** Prisma's stored form of a DateTime on SQLite (adapter-better-sqlite3, iso8601 format). */
export const sqliteDate = (d: Date) => d.toISOString().replace("Z", "+00:00");

/** A parameter as better-sqlite3 binds it: a Date in Prisma's stored form, a boolean as 0/1. */
export const sqliteValue = (p: unknown): unknown =>
  p instanceof Date ? sqliteDate(p) : typeof p === "boolean" ? (p ? 1 : 0) : p;

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

/**
 * A DateTime parameter in the stored form: on SQLite the text Prisma stores, on PostgreSQL a Date
 * (a VALUES list binds it as a timestamp; an array batch writes its ISO text). Now by default.
 */
export const dateValue = (provider: TProvider, at: Date = new Date()): string | Date =>
  provider === "sqlite" ? sqliteDate(at) : at;

/**
 * A placeholder for a DateTime parameter where PostgreSQL cannot infer its type (in CASE, in
 * arithmetic, in a VALUES list): cast there; bare on SQLite (a cast would make it numeric).
 */
export const timestampParam = (provider: TProvider): string =>
  provider === "postgres" ? "CAST(? AS TIMESTAMP(3))" : "?";

/** A placeholder for a floating-point parameter in arithmetic (PostgreSQL would take it as text). */
export const floatParam = (provider: TProvider): string =>
  provider === "postgres" ? "CAST(? AS DOUBLE PRECISION)" : "?";

/** A placeholder for an integer parameter in arithmetic or a shift (PostgreSQL: BIGINT). */
export const bigintParam = (provider: TProvider): string => (provider === "postgres" ? "CAST(? AS BIGINT)" : "?");

/** The smaller (`least`) or larger (`greatest`) of two values: LEAST/GREATEST or SQLite's MIN/MAX. */
export const least = (provider: TProvider): string => (provider === "postgres" ? "LEAST" : "MIN");
export const greatest = (provider: TProvider): string => (provider === "postgres" ? "GREATEST" : "MAX");

/**
 * Milliseconds from the DateTime `column` to a DateTime parameter (one `?`), never negative.
 * SQLite computes it on julian days (the text Prisma stores parses there), PostgreSQL on epochs.
 */
export const elapsedMsSince = (provider: TProvider, column: string): string =>
  provider === "postgres"
    ? `GREATEST(0, EXTRACT(EPOCH FROM (CAST(? AS TIMESTAMP(3)) - ${column})) * 1000)`
    : `MAX(0, ROUND((julianday(?) - julianday(${column})) * 86400000.0))`;

/**
 * A DateTime parameter (one `?`, in epoch milliseconds on SQLite) plus an integer expression of
 * milliseconds, as a DateTime in the stored form.
 */
export const timestampPlusMs = (provider: TProvider, ms: string): string =>
  provider === "postgres"
    ? `(CAST(? AS TIMESTAMP(3)) + ${ms} * INTERVAL '1 millisecond')`
    : `strftime('%Y-%m-%dT%H:%M:%f+00:00', (? + ${ms}) / 1000.0, 'unixepoch')`;
/** The parameter timestampPlusMs takes for `at`. */
export const timestampPlusMsParam = (provider: TProvider, at: Date): Date | number =>
  provider === "postgres" ? at : at.getTime();

/**
 * `column IN (a list given as ONE parameter)`: a text array on PostgreSQL (`= ANY(?::text[])`),
 * a JSON array read by json_each on SQLite; `textListParam` makes the parameter. One placeholder
 * whatever the length, so a long list neither reaches SQLite's parameter limit nor changes the
 * statement's text (the prepared statement is reused).
 */
export const inTextList = (provider: TProvider, column: string): string =>
  provider === "postgres" ? `${column} = ANY(?::text[])` : `${column} IN (SELECT "value" FROM json_each(?))`;
/** `column IN (…)` over integers, as inTextList. */
export const inIntList = (provider: TProvider, column: string): string =>
  provider === "postgres" ? `${column} = ANY(?::int[])` : `${column} IN (SELECT "value" FROM json_each(?))`;
export const listParam = (provider: TProvider, values: readonly (string | number)[]): string | (string | number)[] =>
  provider === "postgres" ? [...values] : JSON.stringify(values);

/**
 * `outer` has no match in `subquery`: PostgreSQL plans NOT EXISTS as an anti-join (a NOT IN list
 * larger than work_mem would be scanned again for every row); SQLite builds a NOT IN list once (an
 * ephemeral index). `subquery` selects `inner` and ends in a WHERE clause, which the correlation
 * `inner = outer` extends on PostgreSQL; its parameters are the same on both.
 */
export const notIn = (provider: TProvider, outer: string, subquery: string, inner: string): string =>
  provider === "postgres" ? `NOT EXISTS (${subquery} AND ${inner} = ${outer})` : `${outer} NOT IN (${subquery})`;

/**
 * A claim query that several workers run at once: PostgreSQL locks the rows it selects and skips
 * those another worker holds (FOR UPDATE SKIP LOCKED); SQLite has no row locks (one writer at a
 * time), so the query stays as it is.
 */
export const skippingLocked = <Q extends { forUpdate(): Q; skipLocked(): Q }>(provider: TProvider, query: Q): Q =>
  provider === "postgres" ? query.forUpdate().skipLocked() : query;

/** `?, ?, …` for `n` parameters (a short list whose length is bounded by the caller). */
export const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");

/**
 * The tail of an upsert, the same on both (SQLite ≥ 3.24): `ON CONFLICT (keys) DO NOTHING`, or
 * `DO UPDATE SET` the columns given their `excluded` value (or an expression of one's own).
 */
export function onConflict(keys: readonly string[], set?: Readonly<Record<string, string | true>>): string {
  const target = `ON CONFLICT (${keys.map((k) => `"${k}"`).join(", ")})`;
  if (!set) return `${target} DO NOTHING`;
  const assignments = Object.entries(set).map(([c, v]) => `"${c}" = ${v === true ? `excluded."${c}"` : v}`);
  return `${target} DO UPDATE SET ${assignments.join(", ")}`;
}

/** Now, as Prisma stores a DateTime on SQLite (for a column PostgreSQL fills in by its default). */
export const sqliteNow = () => sqliteDate(new Date());

/** Column types of an array batch; "timestamp" takes an ISO string (SQLite: as Prisma stores a DateTime, sqliteNow). */
export type SqlType = "int" | "float" | "text" | "timestamp";
/** `pgType` names a PostgreSQL type the column needs instead of its SqlType's (an enum: `"LabelKind"`). */
export type Column = { name: string; type: SqlType; pgType?: string };

const PG_TYPES: Record<SqlType, string> = { int: "int4", float: "float8", text: "text", timestamp: "timestamp(3)" };

/** One PostgreSQL array element: NULL, a number as written by JavaScript, or a quoted string. */
function pgElement(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
  const text = v instanceof Date ? v.toISOString() : String(v);
  return `"${text.replace(/[\\"]/g, "\\$&")}"`;
}

/**
 * Rows from…to-1 of a bulk insert as one PostgreSQL statement: each column an array literal
 * ('{1,2,NULL}', '{"a","b\\"c"}'), the arrays unnested together; a column holding the same value
 * in every row of the batch (the project, the source, the time of the import) is sent once,
 * as a one-element array, and not parsed again for each row.
 */
export function pgInsertBatch(
  table: string,
  columns: Column[],
  from: number,
  to: number,
  row: (i: number) => unknown[],
): { sql: string; params: string[] } {
  const width = columns.length;
  const parts: string[][] = Array.from({ length: width }, () => new Array<string>(to - from));
  const same = new Array<boolean>(width).fill(true);
  for (let i = from; i < to; i++) {
    const r = row(i);
    for (let k = 0; k < width; k++) {
      const e = pgElement(r[k]);
      parts[k][i - from] = e;
      if (same[k] && e !== parts[k][0]) same[k] = false;
    }
  }
  const params: string[] = [];
  const select: string[] = [];
  const arrays: string[] = [];
  const names: string[] = [];
  columns.forEach((c, k) => {
    const type = `${c.pgType ?? PG_TYPES[c.type]}[]`;
    params.push(same[k] ? `{${parts[k][0]}}` : `{${parts[k].join(",")}}`);
    if (same[k]) select.push(`($${params.length}::${type})[1]`);
    else {
      arrays.push(`$${params.length}::${type}`);
      names.push(`c${k}`);
      select.push(`u.c${k}`);
    }
  });
  const source = arrays.length
    ? `unnest(${arrays.join(", ")}) AS u(${names.join(", ")})`
    : `generate_series(1, ${to - from}) AS u`;
  return {
    sql: `INSERT INTO "${table}" (${columns.map((c) => `"${c.name}"`).join(", ")}) SELECT ${select.join(", ")} FROM ${source}`,
    params,
  };
}
