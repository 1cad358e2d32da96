import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { forEachRunLine } from "../formats/trec.ts";
import { encodeRanking } from "../runs/packed.ts";
import { recogniseRunChunking } from "../chunkings/recognise.ts";
import { bulkTransaction } from "../db/bulk.ts";
import { dateValue } from "../db/dialect.ts";
import { loadIdMap } from "../db/id-index.ts";
import { insertImportRecord } from "./record.ts";
import { ErrorList, inputName, sha256File, type ImportInput, type ImportOptions, type ImportResult } from "./input.ts";
import { field, say } from "../terms.ts";

/** Growable columns of run entries: 24 bytes a line instead of an object per line. */
class EntryColumns {
  length = 0;
  query = new Int32Array(1 << 16);
  chunk = new Int32Array(1 << 16);
  rank = new Int32Array(1 << 16);
  score = new Float64Array(1 << 16);
  line = new Int32Array(1 << 16);
  push(q: number, c: number, r: number, s: number, line: number) {
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
      this.line = grow(this.line);
    }
    const i = this.length++;
    this.query[i] = q;
    this.chunk[i] = c;
    this.rank[i] = r;
    this.score[i] = s;
    this.line[i] = line;
  }
}

/**
 * Finds a chunk given twice for one query without a per-query set: in a run file each query's
 * lines are normally contiguous, so marking each chunk with the number of the current block of
 * lines detects a repeat in O(1) with two arrays. When a query's lines come back after another
 * query's, the marks are not enough, and `needsFullCheck` asks for a sort-based check at the end.
 */
class DuplicateFinder {
  private block = 0;
  private current = -1;
  private readonly finished = new Set<number>();
  private readonly mark: Int32Array;
  private readonly firstLine: Int32Array;
  needsFullCheck = false;
  constructor(maxChunkId: number) {
    this.mark = new Int32Array(maxChunkId + 1);
    this.firstLine = new Int32Array(maxChunkId + 1);
  }
  /** The line where this chunk was first given for this query, or 0. */
  check(q: number, c: number, line: number): number {
    if (q !== this.current) {
      if (this.current >= 0) this.finished.add(this.current);
      if (this.finished.has(q)) this.needsFullCheck = true;
      this.current = q;
      this.block++;
    }
    if (this.mark[c] === this.block) return this.firstLine[c];
    this.mark[c] = this.block;
    this.firstLine[c] = line;
    return 0;
  }
}

/** The sort-based check: every (query, chunk) pair given twice, at its later line. */
function duplicatesBySorting(e: EntryColumns): { index: number; first: number }[] {
  const order = new Uint32Array(e.length);
  for (let i = 0; i < e.length; i++) order[i] = i;
  order.sort((a, b) => e.query[a] - e.query[b] || e.chunk[a] - e.chunk[b] || e.line[a] - e.line[b]);
  const out: { index: number; first: number }[] = [];
  for (let k = 1; k < order.length; k++) {
    const a = order[k - 1];
    const b = order[k];
    if (e.query[a] === e.query[b] && e.chunk[a] === e.chunk[b]) out.push({ index: b, first: e.line[a] });
  }
  return out.sort((x, y) => e.line[x.index] - e.line[y.index]);
}

/** `chunking`: the chunking the run's docids belong to; when not given it is recognised (lib/chunkings/recognise.ts). */
export type RunImportOptions = ImportOptions & {
  system: string;
  description?: string;
  replace?: boolean;
  chunking?: string;
};

/**
 * A TREC run (`qid Q0 docid rank score tag`) of one system, of one chunking. The file is streamed: each line is
 * checked (columns, numbers, known query and chunk, a chunk once per query) into compact
 * columns; only a file without errors is written, in one transaction.
 *
 * The run's content hash is the file's sha256: importing the same file for the same system
 * again changes nothing; a different file for an existing system is refused unless `replace`,
 * which swaps the entries but keeps the run (and its pool provenance). The run's packed rankings
 * (RunRanking, read by the dashboard) are written in the same transaction.
 */
export async function importRun(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: RunImportOptions,
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

async function importRunFile(
  db: Db,
  projectId: number,
  path: string,
  name: string,
  opts: RunImportOptions,
): Promise<ImportResult> {
  const system = opts.system.trim();
  if (!system) throw new AppError("bad_input", say`a run needs a system name (${field("system", "NAME")})`);
  const { sha256 } = await sha256File(path);
  const existing = await db.run.findUnique({ where: { projectId_system: { projectId, system } } });
  if (existing && existing.contentHash === sha256) {
    const rows = await db.runEntry.count({ where: { runId: existing.id } });
    await db.importRecord.create({ data: { projectId, kind: "run", fileName: name, sha256, rows: 0 } });
    return { kind: "run", file: name, sha256, rows, created: 0, updated: 0, unchanged: rows };
  }
  if (existing && !opts.replace)
    throw new AppError(
      "conflict",
      say`system "${system}" already has a run with different content (imported ${existing.createdAt.toISOString()}); use ${field("replace")} to replace its entries`,
    );

  const queries = await loadIdMap(db, "Query", projectId);
  const queryNames = new Map([...queries].map(([e, id]) => [id, e]));
  const { chunking, chunks } = await recogniseRunChunking(db, projectId, path, name, opts.chunking);
  const errors = new ErrorList();
  const entries = new EntryColumns();
  const dup = new DuplicateFinder(chunks.maxId);
  /** A line of the run that cannot be taken: its error, located. */
  const refuse = (row: { line: number }, field: string, message: string): void =>
    errors.push({ file: name, line: row.line, field, message });
  await forEachRunLine(
    path,
    (row) => {
      const q = queries.get(row.qid);
      if (q === undefined)
        return refuse(row, "qid", `unknown query "${row.qid}"; expected the id of a query imported into this project`);
      const c = chunks.get(row.docid);
      if (c === undefined)
        return refuse(
          row,
          "docid",
          `unknown chunk "${row.docid}"; expected the id of a chunk of chunking "${chunking.name}"`,
        );
      const first = dup.check(q, c, row.line);
      if (first)
        return refuse(
          row,
          "docid",
          `docid "${row.docid}" appears twice for query "${row.qid}" (first on line ${first}); expected each chunk once per query`,
        );
      entries.push(q, c, row.rank, row.score, row.line);
    },
    errors.push,
    { checkDuplicates: false, file: name },
  );
  if (dup.needsFullCheck) {
    for (const d of duplicatesBySorting(entries)) {
      const docid = chunks.externalIdOf(entries.chunk[d.index]);
      errors.push({
        file: name,
        line: entries.line[d.index],
        field: "docid",
        message: `docid "${docid}" appears twice for query "${queryNames.get(entries.query[d.index])}" (first on line ${d.first}); expected each chunk once per query`,
      });
    }
  }
  errors.throwIfAny();

  const total = entries.length;
  // The run's rankings in the evaluated order, packed (lib/runs/packed.ts), for the RunRanking row
  // written with the entries; score ties are broken by the chunks' names, which the id index holds.
  const ranking = encodeRanking(entries, (id) => chunks.externalIdOf(id) ?? "");
  await bulkTransaction(db, async (tx) => {
    let runId: number;
    if (existing) {
      runId = existing.id;
      const id = runId;
      await tx.query((k) => k.deleteFrom("RunEntry").where("runId", "=", id));
      await tx.query((k) => k.deleteFrom("RunRanking").where("runId", "=", id));
      await tx.query((k) =>
        k
          .updateTable("Run")
          .set({ contentHash: sha256, description: opts.description ?? existing.description, chunkingId: chunking.id })
          .where("id", "=", id),
      );
    } else {
      const created = await tx.query((k) =>
        k
          .insertInto("Run")
          .values({
            projectId,
            chunkingId: chunking.id,
            system,
            description: opts.description ?? null,
            contentHash: sha256,
            createdAt: dateValue(tx.provider),
          })
          .returning("id"),
      );
      runId = created[0].id;
    }
    const { query, chunk, rank, score } = entries;
    const values: number[] = [runId, 0, 0, 0, 0]; // reused for every row
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
      (i) => {
        values[1] = query[i];
        values[2] = chunk[i];
        values[3] = rank[i];
        values[4] = score[i];
        return values;
      },
      (done) => opts.onProgress?.(done, total),
    );
    const id = runId;
    await tx.query((k) => k.insertInto("RunRanking").values({ runId: id, contentHash: sha256, data: ranking }));
    await insertImportRecord(tx, { projectId, kind: "run", fileName: name, sha256, rows: total });
  });
  return {
    kind: "run",
    file: name,
    sha256,
    rows: total,
    created: existing ? 0 : total,
    updated: existing ? total : 0,
    unchanged: 0,
  };
}
