/**
 * Cuts caption cues into retrieval chunks, by time or by words, with overlap.
 *
 * - By seconds (`size` s, `overlap` s): windows start at 0, size − overlap apart; a window holds
 *   the cues whose start falls inside it. A chunk runs from its first cue's start to its last
 *   cue's end. Empty windows are skipped, and a window holding exactly the cues of the previous
 *   one (a long pause) is not repeated. A chunk is therefore never longer than the size plus the
 *   longest cue it holds; `longCues` lists the cues longer than the size, which the import reports
 *   (a 95 s cue makes a "20 s" chunk up to 115 s long: the caption file, not the chunker, decides).
 * - By words (`size` words, `overlap` words): the words of all cues in order, size − overlap
 *   apart; each word's time is interpolated evenly inside its cue.
 *
 * Chunk ids are `<videoId>_<startMs>-<endMs>` (start and end rounded to milliseconds): stable
 * for the same transcript and options, and distinct for distinct chunks of one video.
 */
import type { LocatedError } from "../errors.ts";
import type { Cue } from "./captions.ts";

export type ChunkOptions = { by: "seconds" | "words"; size: number; overlap: number };
export type TranscriptChunk = { id: string; start: number; end: number; text: string };

export const DEFAULT_CHUNKING: ChunkOptions = { by: "seconds", size: 60, overlap: 15 };

/** A message when the options cannot be used, else null. */
export function checkChunkOptions(o: ChunkOptions): string | null {
  const unit = o.by === "seconds" ? "seconds" : "words";
  if (!Number.isFinite(o.size) || o.size <= 0) return `expected a chunk size above 0 ${unit}, got ${o.size}`;
  if (o.by === "words" && !Number.isInteger(o.size)) return `expected a whole number of words per chunk, got ${o.size}`;
  if (!Number.isFinite(o.overlap) || o.overlap < 0) return `expected an overlap of 0 ${unit} or more, got ${o.overlap}`;
  if (o.by === "words" && !Number.isInteger(o.overlap))
    return `expected a whole number of overlap words, got ${o.overlap}`;
  if (o.overlap >= o.size)
    return `expected the overlap (${o.overlap} ${unit}) to be smaller than the chunk size (${o.size} ${unit})`;
  return null;
}

const ms = (s: number) => Math.round(s * 1000);
const chunkId = (videoId: string, start: number, end: number) => `${videoId}_${ms(start)}-${ms(end)}`;

function bySeconds(videoId: string, cues: Cue[], size: number, overlap: number): TranscriptChunk[] {
  const out: TranscriptChunk[] = [];
  if (cues.length === 0) return out;
  const step = size - overlap;
  const last = cues[cues.length - 1].start;
  let prev = "";
  let lo = 0; // first cue whose start >= window start
  for (let k = 0; k * step <= last; k++) {
    const ws = k * step;
    const we = ws + size;
    while (lo < cues.length && cues[lo].start < ws) lo++;
    let hi = lo;
    while (hi < cues.length && cues[hi].start < we) hi++;
    if (hi === lo) continue;
    const key = `${lo}:${hi}`;
    if (key === prev) continue;
    prev = key;
    const part = cues.slice(lo, hi);
    const start = part[0].start;
    const end = Math.max(...part.map((c) => c.end));
    out.push({ id: chunkId(videoId, start, end), start, end, text: part.map((c) => c.text).join(" ") });
  }
  return out;
}

function byWords(videoId: string, cues: Cue[], size: number, overlap: number): TranscriptChunk[] {
  const words: { w: string; start: number; end: number }[] = [];
  for (const c of cues) {
    const ws = c.text.split(/\s+/).filter(Boolean);
    const d = (c.end - c.start) / ws.length;
    ws.forEach((w, i) => words.push({ w, start: c.start + d * i, end: c.start + d * (i + 1) }));
  }
  const out: TranscriptChunk[] = [];
  const step = size - overlap;
  for (let i = 0; i < words.length; i += step) {
    const part = words.slice(i, i + size);
    const start = part[0].start;
    const end = part[part.length - 1].end;
    out.push({
      id: chunkId(videoId, start, end),
      start: ms(start) / 1000,
      end: ms(end) / 1000,
      text: part.map((p) => p.w).join(" "),
    });
    if (i + size >= words.length) break;
  }
  return out;
}

/** Cues lasting longer than a seconds-chunking's size, as warnings at their lines (none for words). */
export function longCues(cues: Cue[], opts: ChunkOptions, file: string): LocatedError[] {
  if (opts.by !== "seconds") return [];
  return cues
    .filter((c) => c.end - c.start > opts.size)
    .map((c) => ({
      file,
      line: c.line,
      field: "end",
      message: `cue lasts ${(c.end - c.start).toFixed(1)} s, longer than the chunk size (${opts.size} s): the chunks holding it run to its end`,
    }));
}

export function chunkCues(videoId: string, cues: Cue[], opts: ChunkOptions = DEFAULT_CHUNKING): TranscriptChunk[] {
  const problem = checkChunkOptions(opts);
  if (problem) throw new Error(problem);
  return opts.by === "seconds"
    ? bySeconds(videoId, cues, opts.size, opts.overlap)
    : byWords(videoId, cues, opts.size, opts.overlap);
}
