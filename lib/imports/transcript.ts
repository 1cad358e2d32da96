import type { Db } from "../db/client.ts";
import { AppError, type LocatedError } from "../errors.ts";
import { parseCaptions, type CaptionFormat, type Cue, type CueRepair } from "../formats/captions.ts";
import {
  checkChunkOptions,
  chunkCues,
  DEFAULT_CHUNKING,
  longCues,
  type ChunkOptions,
  type TranscriptChunk,
} from "../formats/chunker.ts";
import { DEFAULT_CHUNKING_NAME, ensureChunking } from "../chunkings/store.ts";
import { writeChunks } from "./chunks.ts";
import { hasNul, maxChunkChars, NUL_MESSAGE } from "../bounds.ts";
import { chunkTooLong } from "./schemas.ts";
import {
  ErrorList,
  importTally,
  inputName,
  readInput,
  type ImportInput,
  type ImportOptions,
  type ImportResult,
} from "./input.ts";

/**
 * Transcripts (WebVTT, SRT or YouTube json3; by extension, else sniffed) cut into chunks of their
 * videos (lib/formats/chunker.ts). Chunk ids are stable, so importing the same transcript with the
 * same options again changes nothing. Chunks from an earlier, differently cut import are kept.
 *
 * Several files go in one call: every file is read, parsed and cut first, and nothing is written
 * unless all of them are good (errors from every file are reported together); then each file is
 * written in its own transaction and reported on its own. Bad cues follow `repair`
 * (lib/formats/captions.ts); cues longer than a seconds-chunking's size are reported as warnings.
 */
export type TranscriptOptions = {
  chunking?: ChunkOptions;
  format?: CaptionFormat;
  repair?: CueRepair;
  /** The chunking's name (lib/chunkings); default `default`. */ chunkingName?: string;
};
export type TranscriptFile = { input: ImportInput; video: string };

type Prepared = {
  name: string;
  sha256: string;
  videoId: number;
  cues: Cue[];
  chunks: TranscriptChunk[];
  warnings: LocatedError[];
};

function chunkingOf(opts: TranscriptOptions): ChunkOptions {
  const chunking = opts.chunking ?? DEFAULT_CHUNKING;
  const problem = checkChunkOptions(chunking);
  if (problem) throw new AppError("bad_input", problem);
  return chunking;
}

async function prepare(
  db: Db,
  projectId: number,
  file: TranscriptFile,
  chunking: ChunkOptions,
  opts: TranscriptOptions,
  errors: ErrorList,
): Promise<Prepared | null> {
  const { name, bytes, sha256 } = await readInput(file.input);
  const video = await db.video.findUnique({ where: { projectId_externalId: { projectId, externalId: file.video } } });
  if (!video) {
    errors.push({
      file: name,
      line: 1,
      field: "video",
      message: `unknown video "${file.video}"; expected the id of a video imported into this project (import videos first)`,
    });
    return null;
  }
  const parsed = parseCaptions(bytes, name, opts.format, opts.repair ?? "fail");
  errors.push(...parsed.errors);
  // lib/bounds.ts: no NUL (a json3 "\u0000" escape), and no chunk text past the limit, named by the line of its first cue.
  const before = errors.count;
  for (const c of parsed.cues)
    if (hasNul(c.text)) errors.push({ file: name, line: c.line, field: "text", message: NUL_MESSAGE });
  if (errors.count > before || parsed.errors.length) return null;
  const chunks = chunkCues(video.externalId, parsed.cues, chunking);
  const max = maxChunkChars();
  for (const c of chunks)
    if (c.text.length > max)
      errors.push({
        file: name,
        line: parsed.cues.find((q) => q.end > c.start)?.line ?? 1,
        field: "text",
        message: chunkTooLong(c.text.length),
      });
  if (errors.count > before) return null;
  return {
    name,
    sha256,
    videoId: video.id,
    cues: parsed.cues,
    chunks,
    warnings: [...parsed.warnings, ...longCues(parsed.cues, chunking, name)],
  };
}

async function write(
  db: Db,
  projectId: number,
  chunkingId: number,
  p: Prepared,
  opts: ImportOptions,
): Promise<ImportResult> {
  const { created, updated } = await writeChunks(
    db,
    projectId,
    chunkingId,
    { kind: "transcript", fileName: p.name, sha256: p.sha256 },
    p.chunks.map((c) => ({ externalId: c.id, videoId: p.videoId, start: c.start, end: c.end, text: c.text })),
    opts,
  );
  // The cues are kept, so that other chunkings can be cut later without the file (chunking grid).
  const transcript = { fileName: p.name, sha256: p.sha256, cues: encodeCues(p.cues) };
  await db.transcript.upsert({
    where: { videoId: p.videoId },
    create: { projectId, videoId: p.videoId, ...transcript },
    update: transcript,
  });
  const rows = p.chunks.length;
  return {
    ...importTally("transcript", p.name, p.sha256, rows, created, updated),
    chunkIds: p.chunks.map((c) => c.id),
    warnings: p.warnings,
  };
}

/** A transcript's cues as stored in Transcript.cues: [start, end, text, line] per cue. */
export function encodeCues(cues: readonly Cue[]): string {
  return JSON.stringify(cues.map((c) => [c.start, c.end, c.text, c.line]));
}

export function decodeCues(json: string): Cue[] {
  return (JSON.parse(json) as [number, number, string, number][]).map(([start, end, text, line]) => ({
    start,
    end,
    text,
    line,
  }));
}

/** Several transcripts, all validated before any is written; one result per file, in order. */
export async function importTranscripts(
  db: Db,
  projectId: number,
  files: TranscriptFile[],
  opts: ImportOptions & TranscriptOptions = {},
): Promise<ImportResult[]> {
  const chunking = chunkingOf(opts);
  if (files.length === 0) throw new AppError("bad_input", "expected at least one transcript file");
  const seen = new Map<string, string>();
  const errors = new ErrorList();
  for (const f of files) {
    const other = seen.get(f.video);
    if (other !== undefined)
      errors.push({
        file: inputName(f.input),
        line: 1,
        field: "video",
        message: `video "${f.video}" already has a transcript in this import (${other}): expected one transcript per video`,
      });
    seen.set(f.video, inputName(f.input));
  }
  const prepared: Prepared[] = [];
  for (const f of files) {
    const p = await prepare(db, projectId, f, chunking, opts, errors);
    if (p) prepared.push(p);
  }
  errors.throwIfAny();
  const target = await ensureChunking(db, projectId, opts.chunkingName ?? DEFAULT_CHUNKING_NAME, {
    method: chunking.by,
    size: chunking.size,
    overlap: chunking.overlap,
  });
  const results: ImportResult[] = [];
  for (const p of prepared) results.push(await write(db, projectId, target.id, p, opts));
  return results;
}

/** One transcript of one video (the lead's upload, and the CLI with one file). */
export async function importTranscript(
  db: Db,
  projectId: number,
  input: ImportInput,
  opts: ImportOptions & TranscriptOptions & { video: string },
): Promise<ImportResult> {
  const [result] = await importTranscripts(db, projectId, [{ input, video: opts.video }], opts);
  return result;
}
