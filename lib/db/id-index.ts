import type { Db } from "./client.ts";
import { readDbConfig } from "./config.ts";
import { pgAll } from "./postgres.ts";
import { withSqlite } from "./sqlite.ts";

/** The tables whose rows an import names by external id. */
export type TIdTable = "Chunk" | "Query" | "Video";

/**
 * A read-only map from external id to internal id for a million rows, in ~40 bytes a row
 * instead of the ~120 a `Map<string, number>` takes (the run import must stay under 400 MB).
 * It keeps the one string the database returned ("id\x1fexternalId\x1e…", see loadIdIndex) and
 * an open-addressing hash table of offsets into it; lookups hash the key's characters and compare
 * in place, so nothing is allocated per row.
 */
export class IdIndex {
  readonly size: number;
  /** The largest internal id (0 when empty): sizes per-id arrays. */
  readonly maxId: number = 0;
  private readonly starts: Int32Array;
  private readonly lengths: Int32Array;
  private readonly ids: Int32Array;
  private readonly table: Int32Array;
  private readonly mask: number;

  constructor(private readonly text: string) {
    let n = 0;
    for (let i = text.indexOf("\x1f"); i >= 0; i = text.indexOf("\x1f", i + 1)) n++;
    this.size = n;
    this.starts = new Int32Array(n);
    this.lengths = new Int32Array(n);
    this.ids = new Int32Array(n);
    let cap = 16;
    while (cap < n * 2) cap *= 2;
    this.table = new Int32Array(cap);
    this.mask = cap - 1;
    let pos = 0;
    for (let e = 0; e < n; e++) {
      const sep = text.indexOf("\x1f", pos);
      let end = text.indexOf("\x1e", sep);
      if (end < 0) end = text.length;
      let id = 0;
      for (let i = pos; i < sep; i++) id = id * 10 + (text.charCodeAt(i) - 48);
      this.ids[e] = id;
      if (id > this.maxId) this.maxId = id;
      this.starts[e] = sep + 1;
      this.lengths[e] = end - sep - 1;
      let slot = IdIndex.hash(text, sep + 1, end) & this.mask;
      while (this.table[slot] !== 0) slot = (slot + 1) & this.mask;
      this.table[slot] = e + 1;
      pos = end + 1;
    }
  }

  /** FNV-1a over UTF-16 code units. */
  private static hash(s: string, from: number, to: number): number {
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  private byId: Int32Array | undefined;

  /**
   * The external id of an internal id, sliced from the kept string (a reverse table of 4 bytes a
   * possible id is built on first use).
   */
  externalIdOf(id: number): string | undefined {
    if (!this.byId) {
      this.byId = new Int32Array(this.maxId + 1);
      for (let e = 0; e < this.size; e++) this.byId[this.ids[e]] = e + 1;
    }
    const e = id >= 0 && id <= this.maxId ? this.byId[id] : 0;
    return e === 0 ? undefined : this.text.slice(this.starts[e - 1], this.starts[e - 1] + this.lengths[e - 1]);
  }

  get(key: string): number | undefined {
    let slot = IdIndex.hash(key, 0, key.length) & this.mask;
    for (;;) {
      const e = this.table[slot];
      if (e === 0) return undefined;
      if (this.lengths[e - 1] === key.length && this.text.startsWith(key, this.starts[e - 1])) return this.ids[e - 1];
      slot = (slot + 1) & this.mask;
    }
  }
}

/**
 * Every row of a project's table as one string, "id\x1fexternalId" joined by "\x1e", built by the
 * database: a million rows cost one call and one string instead of a million row objects.
 * (External ids never hold control characters: imports reject whitespace in ids.)
 */
async function idText(db: Db, table: TIdTable, projectId: number, chunkingId?: number): Promise<string> {
  const config = readDbConfig();
  // Chunk ids are unique within a chunking only: chunk look-ups name the chunking.
  const scope = chunkingId === undefined ? "" : ` AND "chunkingId" = ?`;
  const params = chunkingId === undefined ? [projectId] : [projectId, chunkingId];
  if (config.provider === "sqlite") {
    const sql = `SELECT group_concat("id" || char(31) || "externalId", char(30)) AS t FROM "${table}" WHERE "projectId" = ?${scope}`;
    return withSqlite(
      config.file,
      "readOnce",
      (conn) => (conn.prepare(sql).get(...params) as { t: string | null }).t ?? "",
    );
  }
  const sql = `SELECT string_agg("id"::text || chr(31) || "externalId", chr(30)) AS t FROM "${table}" WHERE "projectId" = ?${scope}`;
  const rows = await pgAll<{ t: string | null }>(db, sql, params);
  return rows[0]?.t ?? "";
}

/** External id -> internal id of a project's rows; for chunks, of one chunking (`chunkingId`). */
export async function loadIdIndex(db: Db, table: TIdTable, projectId: number, chunkingId?: number): Promise<IdIndex> {
  return new IdIndex(await idText(db, table, projectId, chunkingId));
}

/** External id -> internal id as a Map (for the smaller tables, where a Map's cost does not matter). */
export async function loadIdMap(
  db: Db,
  table: TIdTable,
  projectId: number,
  chunkingId?: number,
): Promise<Map<string, number>> {
  const text = await idText(db, table, projectId, chunkingId);
  const map = new Map<string, number>();
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\x1e", start);
    if (end < 0) end = text.length;
    const sep = text.indexOf("\x1f", start);
    map.set(text.slice(sep + 1, end), Number(text.slice(start, sep)));
    start = end + 1;
  }
  return map;
}
