import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { parseCaptions, type CaptionFormat } from "../formats/captions.ts";
import { checkChunkOptions, chunkCues, DEFAULT_CHUNKING, type ChunkOptions } from "../formats/chunker.ts";
import { writeChunks } from "./chunks.ts";
import { hasNul, maxChunkChars, NUL_MESSAGE } from "../bounds.ts";
import { chunkTooLong } from "./schemas.ts";
import { ErrorList, readInput, type ImportInput, type ImportOptions, type ImportResult } from "./input.ts";

/**
 * A transcript (WebVTT, SRT or YouTube json3; by extension, else sniffed) cut into chunks of one
 * video (lib/formats/chunker.ts). Chunk ids are stable, so importing the same transcript with the
 * same options again changes nothing. Chunks from an earlier, differently cut import are kept.
 */
export async function importTranscript(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: ImportOptions & { video: string; chunking?: ChunkOptions; format?: CaptionFormat },
): Promise<ImportResult> {
  const chunking = opts.chunking ?? DEFAULT_CHUNKING;
  const problem = checkChunkOptions(chunking);
  if (problem) throw new AppError("bad_input", problem);
  const { name, bytes, sha256 } = await readInput(input);
  const video = await db.video.findUnique({ where: { projectId_externalId: { projectId, externalId: opts.video } } });
  if (!video) throw new AppError("bad_input", `unknown video "${opts.video}": expected the id of a video imported into this project (import videos first)`);
  const errors = new ErrorList();
  const { cues, errors: parseErrors } = parseCaptions(bytes, name, opts.format);
  errors.push(...parseErrors);
  // lib/bounds.ts: no NUL (a json3 "\u0000" escape), and no chunk text past the limit, named by the line of its first cue.
  for (const c of cues) if (hasNul(c.text)) errors.push({ file: name, line: c.line, field: "text", message: NUL_MESSAGE });
  errors.throwIfAny();
  const chunks = chunkCues(video.externalId, cues, chunking);
  const max = maxChunkChars();
  for (const c of chunks) if (c.text.length > max) errors.push({ file: name, line: cues.find((q) => q.end > c.start)?.line ?? 1, field: "text", message: chunkTooLong(c.text.length) });
  errors.throwIfAny();
  const { created, updated } = await writeChunks(
    db,
    projectId,
    { kind: "transcript", fileName: name, sha256 },
    chunks.map((c) => ({ externalId: c.id, videoId: video.id, start: c.start, end: c.end, text: c.text })),
    opts,
  );
  return { kind: "transcript", file: name, sha256, rows: chunks.length, created, updated, unchanged: chunks.length - created - updated, chunkIds: chunks.map((c) => c.id) };
}
