import type { Db } from "../db/client.ts";
import { readDbConfig } from "../db/config.ts";
import { sqliteDate, toPg } from "../db/sql.ts";
import { IdIndex } from "./id-index.ts";

/**
 * The fast write path for large imports (run entries, chunks), one transaction on either
 * database. Prisma's createMany goes row by row through its query layer, far too slow for a
 * million-line run, so this speaks SQL:
 * - SQLite: a dedicated better-sqlite3 connection to the same file, `BEGIN IMMEDIATE`, and one
 *   prepared statement run per row (the fastest way into SQLite; WAL keeps readers unblocked).
 * - PostgreSQL: a Prisma interactive transaction; rows go in batches as arrays through
 *   `INSERT … SELECT … FROM unnest($1::int[], …)`, a handful of parameters per 10,000 rows, each
 *   an array literal written here (pgInsertBatch; a column with one value is sent once), the
 *   next batch written while the database inserts the previous one. What is left is the
 *   database's own work: on a 200,000-label import, three foreign-key checks and a unique index
 *   a label, four indexes an event.
 * SQL is written with `?` placeholders and double-quoted identifiers (valid on both).
 */
/** Column types of a bulk insert; "timestamp" takes an ISO string (SQLite: as Prisma stores a DateTime, sqliteNow). */
export type SqlType = "int" | "float" | "text" | "timestamp";
/** `pgType` names a PostgreSQL type the column needs instead of its SqlType's (an enum: `"LabelKind"`). */
export type Column = { name: string; type: SqlType; pgType?: string };

export interface BulkTx {
  readonly provider: "sqlite" | "postgres";
  all<T>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  /** Inserts `count` rows given column by column: `row(i)` returns row i's values in `columns` order. */
  insert(
    table: string,
    columns: Column[],
    count: number,
    row: (i: number) => unknown[],
    onProgress?: (done: number) => void,
  ): Promise<void>;
}

/** Now, as Prisma stores a DateTime on SQLite (lib/db/sql.ts sqliteDate). */
export const sqliteNow = () => sqliteDate(new Date());

const PG_TYPES: Record<SqlType, string> = { int: "int4", float: "float8", text: "text", timestamp: "timestamp(3)" };
const PG_BATCH = 10_000;
const PROGRESS_EVERY = 20_000;
const SQLITE_BATCH = 100;

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

export async function bulkTransaction<T>(db: Db, fn: (tx: BulkTx) => Promise<T>): Promise<T> {
  const config = readDbConfig();
  if (config.provider === "postgres") {
    return db.$transaction(
      async (p) => {
        const tx: BulkTx = {
          provider: "postgres",
          all: <R>(sql: string, params: unknown[] = []) => p.$queryRawUnsafe<R[]>(toPg(sql), ...params),
          run: async (sql, params = []) => {
            await p.$executeRawUnsafe(toPg(sql), ...params);
          },
          insert: async (table, columns, count, row, onProgress) => {
            // Each batch goes as one array literal a column, written here (Prisma's handling of a
            // 10,000-element array parameter costs more than the text itself), and the next batch
            // is written while the database inserts the previous one.
            let pending: Promise<unknown> | null = null;
            let pendingTo = 0;
            for (let from = 0; from < count; from += PG_BATCH) {
              const to = Math.min(count, from + PG_BATCH);
              const { sql, params } = pgInsertBatch(table, columns, from, to, row);
              if (pending) {
                await pending;
                onProgress?.(pendingTo);
              }
              const q = p.$executeRawUnsafe(sql, ...params);
              q.catch(() => undefined); // awaited below; a failure must not count as unhandled meanwhile
              pending = q;
              pendingTo = to;
              // Let the statement reach the connection before the next batch is written.
              await new Promise<void>((resolve) => setImmediate(resolve));
            }
            if (pending) {
              await pending;
              onProgress?.(pendingTo);
            }
          },
        };
        return fn(tx);
      },
      { timeout: 30 * 60_000, maxWait: 60_000 },
    );
  }
  const { default: Database } = await import("better-sqlite3");
  const conn = new Database(config.file, { timeout: 15_000 });
  try {
    conn.pragma("foreign_keys = ON");
    conn.pragma("synchronous = NORMAL");
    conn.pragma("cache_size = -8000"); // 8 MB: entries arrive grouped by query, so the index pages touched stay few
    const tx: BulkTx = {
      provider: "sqlite",
      all: async <R>(sql: string, params: unknown[] = []) => conn.prepare(sql).all(...params) as R[],
      run: async (sql, params = []) => {
        conn.prepare(sql).run(...params);
      },
      insert: async (table, columns, count, row, onProgress) => {
        // Rows go BATCH at a time through one multi-row statement: far fewer calls into SQLite.
        const head = `INSERT INTO "${table}" (${columns.map((c) => `"${c.name}"`).join(", ")}) VALUES `;
        const tuple = `(${columns.map(() => "?").join(", ")})`;
        const many = conn.prepare(head + Array.from({ length: SQLITE_BATCH }, () => tuple).join(", "));
        const one = conn.prepare(head + tuple);
        const params = new Array<unknown>(SQLITE_BATCH * columns.length);
        const w = columns.length;
        let i = 0;
        let nextReport = PROGRESS_EVERY;
        for (; i + SQLITE_BATCH <= count; i += SQLITE_BATCH) {
          for (let k = 0; k < SQLITE_BATCH; k++) {
            const r = row(i + k);
            for (let j = 0; j < w; j++) params[k * w + j] = r[j];
          }
          many.run(params);
          if (onProgress && i + SQLITE_BATCH >= nextReport) {
            onProgress(i + SQLITE_BATCH);
            nextReport += PROGRESS_EVERY;
          }
        }
        for (; i < count; i++) one.run(row(i));
        onProgress?.(count);
      },
    };
    conn.exec("BEGIN IMMEDIATE");
    try {
      const result = await fn(tx);
      conn.exec("COMMIT");
      return result;
    } catch (e) {
      if (conn.inTransaction) conn.exec("ROLLBACK");
      throw e;
    }
  } finally {
    conn.close();
  }
}

/**
 * Every row of a project's table as one string, "id\x1fexternalId" joined by "\x1e", built by the
 * database: a million rows cost one call and one string instead of a million row objects.
 * (External ids never hold control characters: imports reject whitespace in ids.)
 */
async function idText(
  db: Db,
  table: "Chunk" | "Query" | "Video",
  projectId: number,
  chunkingId?: number,
): Promise<string> {
  const config = readDbConfig();
  // Chunk ids are unique within a chunking only: chunk look-ups name the chunking.
  const scope = chunkingId === undefined ? "" : ` AND "chunkingId" = ${Math.trunc(chunkingId)}`;
  if (config.provider === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const conn = new Database(config.file, { readonly: true, timeout: 15_000 });
    try {
      const row = conn
        .prepare(
          `SELECT group_concat("id" || char(31) || "externalId", char(30)) AS t FROM "${table}" WHERE "projectId" = ?${scope}`,
        )
        .get(projectId) as { t: string | null };
      return row.t ?? "";
    } finally {
      conn.close();
    }
  }
  const rows = await db.$queryRawUnsafe<{ t: string | null }[]>(
    `SELECT string_agg("id"::text || chr(31) || "externalId", chr(30)) AS t FROM "${table}" WHERE "projectId" = $1${scope}`,
    projectId,
  );
  return rows[0]?.t ?? "";
}

/** External id -> internal id of a project's rows; for chunks, of one chunking (`chunkingId`). */
export async function loadIdIndex(
  db: Db,
  table: "Chunk" | "Query" | "Video",
  projectId: number,
  chunkingId?: number,
): Promise<IdIndex> {
  return new IdIndex(await idText(db, table, projectId, chunkingId));
}

async function forEachExternalId(
  db: Db,
  table: "Chunk" | "Query" | "Video",
  projectId: number,
  onRow: (externalId: string, id: number) => void,
  chunkingId?: number,
): Promise<void> {
  const text = await idText(db, table, projectId, chunkingId);
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\x1e", start);
    if (end < 0) end = text.length;
    const sep = text.indexOf("\x1f", start);
    onRow(text.slice(sep + 1, end), Number(text.slice(start, sep)));
    start = end + 1;
  }
}

export async function loadIdMap(
  db: Db,
  table: "Chunk" | "Query" | "Video",
  projectId: number,
  chunkingId?: number,
): Promise<Map<string, number>> {
  const map = new Map<string, number>();
  await forEachExternalId(db, table, projectId, (e, id) => map.set(e, id), chunkingId);
  return map;
}

/** Appends the audit row of an import inside a bulk transaction. */
export async function insertImportRecord(
  tx: BulkTx,
  r: { projectId: number; kind: string; fileName: string; sha256: string; rows: number },
): Promise<void> {
  if (tx.provider === "sqlite")
    await tx.run(
      `INSERT INTO "ImportRecord" ("projectId", "kind", "fileName", "sha256", "rows", "createdAt") VALUES (?, ?, ?, ?, ?, ?)`,
      [r.projectId, r.kind, r.fileName, r.sha256, r.rows, sqliteNow()],
    );
  else
    await tx.run(
      `INSERT INTO "ImportRecord" ("projectId", "kind", "fileName", "sha256", "rows", "createdAt") VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP)`,
      [r.projectId, r.kind, r.fileName, r.sha256, r.rows],
    );
}
