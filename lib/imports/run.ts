import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { forEachRunLine } from "../formats/trec.ts";
import { bulkTransaction, insertImportRecord, loadIdMap, sqliteNow } from "./bulk.ts";
import { ErrorList, inputName, sha256File, type ImportInput, type ImportOptions, type ImportResult } from "./input.ts";

/** Growable columns of run entries: 20 bytes a line instead of an object per line. */
class EntryColumns {
  length = 0;
  query = new Int32Array(1 << 16);
  chunk = new Int32Array(1 << 16);
  rank = new Int32Array(1 << 16);
  score = new Float64Array(1 << 16);
  push(q: number, c: number, r: number, s: number) {
    if (this.length === this.query.length) {
      const grow = <A extends Int32Array | Float64Array>(a: A): A => {
        const b = new (a.constructor as new (n: number) => A)(a.length * 2);
        b.set(a);
        return b;
      };
      this.query = grow(this.query);
      this.chunk = grow(this.chunk);
      this.rank = grow(this.rank);
      this.score = grow(this.score);
    }
    const i = this.length++;
    this.query[i] = q;
    this.chunk[i] = c;
    this.rank[i] = r;
    this.score[i] = s;
  }
}

/**
 * A TREC run (`qid Q0 docid rank score tag`) of one system. The file is streamed: each line is
 * checked (columns, numbers, known query and chunk, a chunk once per query) into compact
 * columns; only a file without errors is written, in one transaction.
 *
 * The run's content hash is the file's sha256: importing the same file for the same system
 * again changes nothing; a different file for an existing system is refused unless `replace`,
 * which swaps the entries but keeps the run (and its pool provenance).
 */
export async function importRun(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: ImportOptions & { system: string; description?: string; replace?: boolean },
): Promise<ImportResult> {
  const name = inputName(input);
  let path: string;
  let tmp: string | undefined;
  if (typeof input === "string") path = input;
  else {
    tmp = await mkdtemp(join(tmpdir(), "assessor-run-"));
    path = join(tmp, "upload.run");
    await writeFile(path, input.bytes);
  }
  try {
    return await importRunFile(db, projectId, path, name, opts);
  } finally {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }
}

async function importRunFile(db: Db, projectId: number, path: string, name: string, opts: ImportOptions & { system: string; description?: string; replace?: boolean }): Promise<ImportResult> {
  const system = opts.system.trim();
  if (!system) throw new AppError("bad_input", "a run needs a system name (--system NAME)");
  const { sha256 } = await sha256File(path);
  const existing = await db.run.findUnique({ where: { projectId_system: { projectId, system } } });
  if (existing && existing.contentHash === sha256) {
    const rows = await db.runEntry.count({ where: { runId: existing.id } });
    await db.importRecord.create({ data: { projectId, kind: "run", fileName: name, sha256, rows: 0 } });
    return { kind: "run", file: name, sha256, rows, created: 0, updated: 0, unchanged: rows };
  }
  if (existing && !opts.replace)
    throw new AppError("conflict", `system "${system}" already has a run with different content (imported ${existing.createdAt.toISOString()}); use --replace to replace its entries`);

  const queries = await loadIdMap(db, "Query", projectId);
  const chunks = await loadIdMap(db, "Chunk", projectId);
  const errors = new ErrorList();
  const entries = new EntryColumns();
  // A chunk may appear once per query: per query, chunk id → first line.
  const seen = new Map<number, Map<number, number>>();
  await forEachRunLine(
    path,
    (row) => {
      const q = queries.get(row.qid);
      if (q === undefined) {
        errors.push({ file: name, line: row.line, field: "qid", message: `unknown query "${row.qid}"; expected the id of a query imported into this project` });
        return;
      }
      const c = chunks.get(row.docid);
      if (c === undefined) {
        errors.push({ file: name, line: row.line, field: "docid", message: `unknown chunk "${row.docid}"; expected the id of a chunk imported into this project` });
        return;
      }
      let perQuery = seen.get(q);
      if (!perQuery) seen.set(q, (perQuery = new Map()));
      const first = perQuery.get(c);
      if (first !== undefined) {
        errors.push({ file: name, line: row.line, field: "docid", message: `docid "${row.docid}" appears twice for query "${row.qid}" (first on line ${first}); expected each chunk once per query` });
        return;
      }
      perQuery.set(c, row.line);
      entries.push(q, c, row.rank, row.score);
    },
    errors.push,
    { checkDuplicates: false, file: name },
  );
  errors.throwIfAny();
  seen.clear();
  queries.clear();
  chunks.clear();

  const total = entries.length;
  await bulkTransaction(db, async (tx) => {
    let runId: number;
    if (existing) {
      runId = existing.id;
      await tx.run(`DELETE FROM "RunEntry" WHERE "runId" = ?`, [runId]);
      await tx.run(`UPDATE "Run" SET "contentHash" = ?, "description" = ? WHERE "id" = ?`, [sha256, opts.description ?? existing.description, runId]);
    } else {
      const created =
        tx.provider === "sqlite"
          ? await tx.all<{ id: number }>(`INSERT INTO "Run" ("projectId", "system", "description", "contentHash", "createdAt") VALUES (?, ?, ?, ?, ?) RETURNING "id"`, [projectId, system, opts.description ?? null, sha256, sqliteNow()])
          : await tx.all<{ id: number }>(`INSERT INTO "Run" ("projectId", "system", "description", "contentHash", "createdAt") VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP) RETURNING "id"`, [projectId, system, opts.description ?? null, sha256]);
      runId = created[0].id;
    }
    const { query, chunk, rank, score } = entries;
    await tx.insert(
      "RunEntry",
      [
        { name: "runId", type: "int" },
        { name: "queryId", type: "int" },
        { name: "chunkId", type: "int" },
        { name: "rank", type: "int" },
        { name: "score", type: "float" },
      ],
      total,
      (i) => [runId, query[i], chunk[i], rank[i], score[i]],
      (done) => opts.onProgress?.(done, total),
    );
    await insertImportRecord(tx, { projectId, kind: "run", fileName: name, sha256, rows: total });
  });
  return { kind: "run", file: name, sha256, rows: total, created: existing ? 0 : total, updated: existing ? total : 0, unchanged: 0 };
}
