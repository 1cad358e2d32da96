/**
 * The run reader's fast path over bytes (lib/formats/trec.ts): for ASCII chunks, a line's first six
 * fields are read straight from the bytes (no per-line field arrays, no string parsing); a line it
 * does not read plainly goes to the ordinary parser, which reads or reports it the same way.
 */
import { POW10 } from "./trec-tokens.ts";
import { scanLines, type ChunkScanner, type LineSink } from "./lines.ts";

/** '#': a line whose first field starts with it is a comment (trec_eval 10's get_qrels.c and get_trec_results.c). */
export const HASH = 35;

/** A valid run line as positional values: no object per line for callers that keep only some fields. */
export type RunRecordHandler = (
  qid: string,
  docid: string,
  rank: number,
  score: number,
  tag: string,
  line: number,
) => void;

/** A plain decimal in bytes b[s, e) (optional sign, digits, one point, at most 15 digits), or NaN for anything else. */
function plainDecimal(b: Uint8Array, s: number, e: number): number {
  let i = s;
  let sign = 1;
  if (b[i] === 45 || b[i] === 43) {
    if (b[i] === 45) sign = -1;
    i++;
  }
  let mant = 0;
  let digits = 0;
  let frac = -1;
  for (; i < e; i++) {
    const c = b[i];
    if (c === 46 && frac < 0) {
      frac = 0;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) return NaN;
    mant = mant * 10 + d;
    digits++;
    if (frac >= 0) frac++;
  }
  if (digits === 0 || digits > 15 || frac > 22) return NaN;
  return frac > 0 ? (sign * mant) / POW10[frac] : sign * mant;
}

/** Bytes b[s, e) spell `prev`. */
function sameBytes(b: Uint8Array, s: number, e: number, prev: string): boolean {
  if (prev.length !== e - s) return false;
  for (let k = 0; k < prev.length; k++) if (b[s + k] !== prev.charCodeAt(k)) return false;
  return true;
}

/**
 * The run reader's chunk scanner for ASCII chunks (the common case): reads each line's first six
 * fields straight from the bytes (no per-line field arrays, no string parsing), for files of
 * millions of lines; the rest of a line (columns after the sixth) is skipped. A line it does not
 * read plainly (fewer than 6 fields, a comment, a rank or score that is not a plain integer or
 * decimal) goes to `sink`, the ordinary parser, through scanLines on that line alone, which reads
 * it or reports it the same way; other chunks go through scanLines whole.
 */
export function runChunkScanner(sink: LineSink, onRecord: RunRecordHandler, anyRank: boolean): ChunkScanner {
  const state: RunLineState = { prevQid: "", prevTag: "", sink, onRecord, anyRank };
  return (text, firstLine, b) =>
    b === null ? scanLines(text, firstLine, sink, b) : scanRunChunk(text, b, firstLine, state);
}

type RunLineState = { prevQid: string; prevTag: string; sink: LineSink; onRecord: RunRecordHandler; anyRank: boolean };

/** A field separator of lines.ts (space, tab, vertical tab, form feed, carriage return; a line feed ends the line). */
const isBlank = (c: number) => c === 32 || (c >= 9 && c <= 13);

/** lines.ts's count of lines and non-blank lines, over an ASCII chunk `b` whose text is `text`. */
function scanRunChunk(
  text: string,
  b: Uint8Array,
  firstLine: number,
  state: RunLineState,
): { lines: number; nonBlank: number } {
  const len = b.length;
  let line = firstLine;
  let nonBlank = 0;
  let i = 0;
  while (i < len) {
    let p = i;
    while (p < len && b[p] !== 10 && isBlank(b[p])) p++;
    if (p === len || b[p] === 10) {
      line++; // a blank line
      i = p + 1;
      continue;
    }
    nonBlank++;
    let eol = b.indexOf(10, p);
    if (eol < 0) eol = len;
    if (!readRunFields(text, b, p, eol, line, state)) scanLines(text.slice(i, eol), line, state.sink);
    line++;
    i = eol + 1;
  }
  return { lines: line - firstLine, nonBlank };
}

/**
 * Reads the line b[p, eol) (p at its first field) when it is plain; false to leave it to the
 * ordinary parser. Field bytes are above 32; a byte at or below 32 that is not a separator (a
 * control character inside a field) sends the line to the ordinary parser as well.
 */
function readRunFields(
  text: string,
  b: Uint8Array,
  p: number,
  eol: number,
  line: number,
  state: RunLineState,
): boolean {
  if (b[p] === HASH) return false;
  const f = FIELDS; // f[2k], f[2k + 1]: bounds of field k (qid, iter, docid, rank, score, tag)
  for (let k = 0; k < 6; k++) {
    if (k > 0) p = nextField(b, p, eol);
    f[2 * k] = p;
    while (p < eol && b[p] > 32) p++;
    f[2 * k + 1] = p;
  }
  if (f[10] === f[11] || p < 0 || (p < eol && !isBlank(b[p]))) return false; // fewer than six fields, or a control character
  const rank = state.anyRank ? NaN : plainDecimal(b, f[6], f[7]);
  if (!state.anyRank && (!Number.isInteger(rank) || indexOfByte(b, 46, f[6], f[7]) >= 0)) return false;
  const score = plainDecimal(b, f[8], f[9]);
  if (Number.isNaN(score)) return false;
  const qid = sameBytes(b, f[0], f[1], state.prevQid) ? state.prevQid : text.slice(f[0], f[1]);
  state.prevQid = qid;
  const tag = sameBytes(b, f[10], f[11], state.prevTag) ? state.prevTag : text.slice(f[10], f[11]);
  state.prevTag = tag;
  state.onRecord(qid, text.slice(f[4], f[5]), rank, score, tag, line);
  return true;
}

const FIELDS = new Int32Array(12);

/**
 * From the end of a field (p, or -1 once a line is given up) past the separators to the next
 * field's start; -1 when the byte ending the field is a control character that is not a separator.
 */
function nextField(b: Uint8Array, p: number, eol: number): number {
  if (p < 0 || (p < eol && !isBlank(b[p]))) return -1;
  while (p < eol && isBlank(b[p])) p++;
  return p;
}

function indexOfByte(b: Uint8Array, byte: number, s: number, e: number): number {
  for (let i = s; i < e; i++) if (b[i] === byte) return i;
  return -1;
}
