import type { Db } from "../db/client.ts";
import { forEachJsonl } from "../formats/jsonl.ts";
import { DEFAULT_CHUNKING_NAME, ensureChunking } from "../chunkings/store.ts";
import { bulkTransaction } from "../db/bulk.ts";
import { loadIdIndex, loadIdMap } from "../db/id-index.ts";
import { insertImportRecord } from "./record.ts";
import {
  ErrorList,
  importTally,
  readInput,
  type ImportInput,
  type ImportKind,
  type ImportOptions,
  type ImportResult,
} from "./input.ts";
import { duplicateIdError } from "./rows.ts";
import { ZChunkRow } from "./schemas.ts";

export type ChunkData = { externalId: string; videoId: number; start: number; end: number; text: string };

/**
 * Writes validated chunks of one chunking in one transaction: new ids inserted (bulk path), changed
 * ones updated, identical ones left alone; appends the ImportRecord. Shared by chunk and transcript imports.
 */
export async function writeChunks(
  db: Db,
  projectId: number,
  chunkingId: number,
  audit: { kind: ImportKind; fileName: string; sha256: string },
  chunks: ChunkData[],
  opts: ImportOptions,
): Promise<{ created: number; updated: number }> {
  // Which of the file's ids exist: the compact index first, then full rows only for those (a
  // transcript imported into a project of a million chunks must not load them all).
  const index = await loadIdIndex(db, "Chunk", projectId, chunkingId);
  const known: number[] = [];
  for (const c of chunks) {
    const id = index.get(c.externalId);
    if (id !== undefined) known.push(id);
  }
  const existing = new Map<
    string,
    { id: number; videoId: number; startSeconds: number; endSeconds: number; text: string }
  >();
  for (let i = 0; i < known.length; i += 5000) {
    const rows = await db.chunk.findMany({
      where: { id: { in: known.slice(i, i + 5000) } },
      select: { id: true, externalId: true, videoId: true, startSeconds: true, endSeconds: true, text: true },
    });
    for (const r of rows) existing.set(r.externalId, r);
  }
  const create: ChunkData[] = [];
  const update: (ChunkData & { id: number })[] = [];
  for (const c of chunks) {
    const old = existing.get(c.externalId);
    if (!old) create.push(c);
    else if (
      old.videoId !== c.videoId ||
      old.startSeconds !== c.start ||
      old.endSeconds !== c.end ||
      old.text !== c.text
    )
      update.push({ ...c, id: old.id });
  }
  existing.clear();
  const total = create.length + update.length;
  await bulkTransaction(db, async (tx) => {
    await tx.insert(
      "Chunk",
      [
        { name: "projectId", type: "int" },
        { name: "chunkingId", type: "int" },
        { name: "externalId", type: "text" },
        { name: "videoId", type: "int" },
        { name: "startSeconds", type: "float" },
        { name: "endSeconds", type: "float" },
        { name: "text", type: "text" },
      ],
      create.length,
      (i) => {
        const c = create[i];
        return [projectId, chunkingId, c.externalId, c.videoId, c.start, c.end, c.text];
      },
      (done) => opts.onProgress?.(done, total),
    );
    let done = create.length;
    for (const u of update) {
      await tx.query((k) =>
        k
          .updateTable("Chunk")
          .set({ videoId: u.videoId, startSeconds: u.start, endSeconds: u.end, text: u.text })
          .where("id", "=", u.id),
      );
      if (++done % 1000 === 0) opts.onProgress?.(done, total);
    }
    await insertImportRecord(tx, { projectId, ...audit, rows: total });
  });
  opts.onProgress?.(total, total);
  return { created: create.length, updated: update.length };
}

/**
 * Chunks from JSONL (id, video, start, end, text) into the chunking `opts.chunking` (method
 * "imported"; default `default`); the videos must already be imported. Each line
 * is turned into what is written as it is read (a million-chunk file is never held as parsed
 * objects as well).
 */
export async function importChunks(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: ImportOptions & { chunking?: string } = {},
): Promise<ImportResult> {
  const { name, bytes, sha256 } = await readInput(input);
  const errors = new ErrorList();
  const videos = await loadIdMap(db, "Video", projectId);
  const chunks: ChunkData[] = [];
  const firstLine = new Map<string, number>();
  let rows = 0;
  forEachJsonl(
    bytes,
    name,
    ZChunkRow,
    "one JSON object per line: id, video, start, end, text",
    (r, line) => {
      rows++;
      const first = firstLine.get(r.id);
      if (first !== undefined) {
        errors.push(duplicateIdError(name, line, r.id, first));
        return;
      }
      firstLine.set(r.id, line);
      const videoId = videos.get(r.video);
      if (videoId === undefined)
        errors.push({
          file: name,
          line,
          field: "video",
          message: `unknown video "${r.video}"; expected the id of a video imported into this project (import videos first)`,
        });
      else chunks.push({ externalId: r.id, videoId, start: r.start, end: r.end, text: r.text });
    },
    errors,
  );
  errors.throwIfAny();
  firstLine.clear();
  const chunking = await ensureChunking(db, projectId, opts.chunking ?? DEFAULT_CHUNKING_NAME, { method: "imported" });
  const { created, updated } = await writeChunks(
    db,
    projectId,
    chunking.id,
    { kind: "chunks", fileName: name, sha256 },
    chunks,
    opts,
  );
  return importTally("chunks", name, sha256, rows, created, updated);
}
