import type { Db } from "../db/client.ts";
import { AppError, type LocatedError } from "../errors.ts";
import { forEachRunLine } from "../formats/trec.ts";
import { loadIdIndex } from "../db/id-index.ts";
import { ErrorList } from "../imports/input.ts";
import type { IdIndex } from "../db/id-index.ts";
import { findChunking, type ChunkingInfo } from "./store.ts";
import { field, say } from "../terms.ts";

/**
 * The one chunking a run file belongs to, recognised from its docids:
 * - `wanted` (--chunking) names it: its chunks resolve the docids (a docid outside it is then an
 *   unknown chunk, reported by the run import with file and line);
 * - a project with one chunking: that one;
 * - otherwise the file is read once for its docids: every docid must be a chunk of some
 *   chunking ("a chunk of none" is an error at its line), and one chunking must hold them all
 *   (the first line whose chunk is in none of the chunkings holding the earlier lines' chunks is
 *   reported as mixing chunkings); when several chunkings hold every docid (two chunkings cut
 *   alike give the same ids), the run is ambiguous and --chunking must choose.
 * Returns the chunking and the id index of its chunks.
 */
export async function recogniseRunChunking(
  db: Db,
  projectId: number,
  path: string,
  file: string,
  wanted?: string,
): Promise<{ chunking: ChunkingInfo; chunks: IdIndex }> {
  return recogniseChunking(db, projectId, file, wanted, "run", async (visit, errors) => {
    await forEachRunLine(
      path,
      (row) => visit(row.docid, row.line, "docid"),
      (e: LocatedError) => errors.push(e),
      { checkDuplicates: false, file },
    );
  });
}

/**
 * The same recognition over the chunk ids of any file (`what`: "run", "answer file"): `scan` calls
 * `visit` with each chunk id, its line and its field, in file order (and may report its own
 * parse errors to `errors`).
 */
export async function recogniseChunking(
  db: Db,
  projectId: number,
  file: string,
  wanted: string | undefined,
  what: string,
  scan: (visit: (docid: string, line: number, field: string) => void, errors: ErrorList) => Promise<void> | void,
): Promise<{ chunking: ChunkingInfo; chunks: IdIndex }> {
  if (wanted !== undefined) {
    const chunking = await findChunking(db, projectId, wanted);
    return { chunking, chunks: await loadIdIndex(db, "Chunk", projectId, chunking.id) };
  }
  const all = await db.chunking.findMany({
    where: { projectId },
    orderBy: { name: "asc" },
    select: { id: true, name: true, method: true, size: true, overlap: true },
  });
  if (all.length === 0)
    throw new AppError(
      "bad_input",
      `${file}: this project has no chunks yet; import chunks or transcripts before ${what === "run" ? "runs" : `an ${what}`}`,
    );
  if (all.length === 1) return { chunking: all[0], chunks: await loadIdIndex(db, "Chunk", projectId, all[0].id) };

  const indexes = await Promise.all(all.map((c) => loadIdIndex(db, "Chunk", projectId, c.id)));
  const names = (set: number[]) => set.map((k) => `"${all[k].name}"`).join(", ");
  const errors = new ErrorList();
  let candidates = all.map((_, k) => k);
  let mixed = false;
  await scan((docid, line, field) => {
    const holding = all.map((_, k) => k).filter((k) => indexes[k].get(docid) !== undefined);
    if (holding.length === 0) {
      errors.push({
        file,
        line,
        field,
        message: `unknown chunk "${docid}": no chunking of this project holds it (chunkings: ${names(all.map((_, k) => k))})`,
      });
      return;
    }
    if (mixed) return;
    const left = candidates.filter((k) => holding.includes(k));
    if (left.length === 0) {
      mixed = true;
      errors.push({
        file,
        line,
        field,
        message: `chunk "${docid}" belongs to chunking ${names(holding)}, but the earlier lines name chunks of ${names(candidates)}: a ${what} belongs to exactly one chunking (split the file by chunking)`,
      });
      return;
    }
    candidates = left;
  }, errors);
  errors.throwIfAny();
  if (candidates.length > 1)
    throw new AppError(
      "bad_input",
      say`${file}: every chunk id of this ${what} is found in several chunkings (${names(candidates)}); choose one with ${field("chunking", "NAME")}`,
    );
  const k = candidates[0];
  return { chunking: all[k], chunks: indexes[k] };
}
