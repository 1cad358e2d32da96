/**
 * The line scanner behind the TREC parsers: splits each line of a text into whitespace-separated
 * fields, held in memory or streamed from a file in chunks, and decodes bytes that must be UTF-8.
 *
 * Columns are split on any run of spaces, tabs, vertical tabs, form feeds or carriage returns;
 * blank lines are skipped but still counted, so line numbers match an editor's. The scanner works
 * on character codes over the whole text (no split or regex per line) because run files reach
 * millions of lines.
 */
import { open } from "node:fs/promises";
import { isAscii, isUtf8 } from "node:buffer";
import type { LocatedError } from "../errors.ts";

/** Fields whose bounds are kept per line; a line may have more (the sink gets their count). */
export const MAX_FIELDS = 8;

/** Receives each non-blank line as field boundaries into `text` (n may exceed the stored fields). */
export type LineSink = (text: string, line: number, n: number, starts: Int32Array, ends: Int32Array) => void;

/**
 * Calls `sink` for every non-blank line of `text`, the first being line `firstLine`; returns the
 * number of lines seen (blank included) and of non-blank ones. `ascii`, when given, holds the same
 * characters as bytes (an ASCII chunk) and is read instead of the string (faster).
 */
export function scanLines(
  text: string,
  firstLine: number,
  sink: LineSink,
  ascii: Uint8Array | null = null,
): { lines: number; nonBlank: number } {
  const starts = new Int32Array(MAX_FIELDS);
  const ends = new Int32Array(MAX_FIELDS);
  let line = firstLine;
  let n = 0;
  let inField = false;
  let nonBlank = 0;
  const len = text.length;
  let i = text.charCodeAt(0) === 0xfeff && firstLine === 1 ? 1 : 0; // a byte-order mark is not data
  for (; i < len; i++) {
    const c = ascii !== null ? ascii[i] : text.charCodeAt(i);
    if (c === 10) {
      if (inField && n <= MAX_FIELDS) ends[n - 1] = i;
      inField = false;
      if (n > 0) {
        nonBlank++;
        sink(text, line, n, starts, ends);
      }
      n = 0;
      line++;
    } else if (c === 32 || (c >= 9 && c <= 13)) {
      if (inField) {
        if (n <= MAX_FIELDS) ends[n - 1] = i;
        inField = false;
      }
    } else if (!inField) {
      inField = true;
      if (n < MAX_FIELDS) starts[n] = i;
      n++;
    }
  }
  if (inField && n <= MAX_FIELDS) ends[n - 1] = len;
  if (n > 0) {
    nonBlank++;
    sink(text, line, n, starts, ends);
  }
  // A final line without "\n" still counts; a trailing "\n" does not open a new line.
  const lines = line - firstLine + (len > 0 && text.charCodeAt(len - 1) !== 10 ? 1 : 0);
  return { lines, nonBlank };
}

/**
 * Scans a whole text held in memory: a string as it is, bytes decoded as UTF-8 first. Returns the
 * number of non-blank lines, or the decoding error (nothing scanned).
 */
export function scanText(
  input: string | Uint8Array,
  file: string,
  sink: LineSink,
): { nonBlank: number; error?: undefined } | { nonBlank?: undefined; error: LocatedError } {
  let text: string;
  if (typeof input === "string") {
    const nul = nulError(input, file);
    if (nul) return { error: nul };
    text = input;
  } else {
    const d = decodeUtf8(input, file);
    if (d.error) return d;
    text = d.text;
  }
  return { nonBlank: scanLines(text, 1, sink).nonBlank };
}

const CHUNK_BYTES = 8 << 20;

/**
 * Streams a file through `sink` in chunks that end on a line break, checking each is UTF-8. Memory
 * stays at a few chunks whatever the file size. `ok` is false (after reporting the error to
 * `onError`) when the bytes are not UTF-8; `nonBlank` counts the non-blank lines scanned.
 */
/** Scans one chunk of text (what scanLines does); a caller may pass a specialised one to scanFile. */
export type ChunkScanner = (
  text: string,
  firstLine: number,
  ascii: Uint8Array | null,
) => { lines: number; nonBlank: number };

export async function scanFile(
  path: string,
  file: string,
  sink: LineSink,
  onError: (e: LocatedError) => void,
  scanChunk?: ChunkScanner,
): Promise<{ ok: boolean; nonBlank: number }> {
  const fh = await open(path, "r");
  let nonBlank = 0;
  try {
    let buf = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry = 0; // bytes at the start of buf left over from the previous read
    let line = 1;
    for (;;) {
      if (carry === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2); // a line longer than the buffer
        buf.copy(bigger, 0, 0, carry);
        buf = bigger;
      }
      const { bytesRead } = await fh.read(buf, carry, buf.length - carry, null);
      const filled = carry + bytesRead;
      const eof = bytesRead === 0;
      if (eof && filled === 0) break;
      const end = eof ? filled : buf.lastIndexOf(10, filled - 1) + 1;
      if (end === 0) {
        carry = filled; // no line break yet: read more
        continue;
      }
      const d = decodeUtf8(buf.subarray(0, end), file, line);
      if (d.error) {
        onError(d.error);
        return { ok: false, nonBlank };
      }
      const chunk = buf.subarray(0, end);
      const ascii = d.text.length === end ? chunk : null;
      const r = scanChunk ? scanChunk(d.text, line, ascii) : scanLines(d.text, line, sink, ascii);
      nonBlank += r.nonBlank;
      line += r.lines;
      buf.copy(buf, 0, end, filled);
      carry = filled - end;
      if (eof) break;
    }
    return { ok: true, nonBlank };
  } finally {
    await fh.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Bytes → text

/** Offset of the first byte that breaks UTF-8, or -1. Only run when isUtf8() said no. */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    let need = 0;
    let min = 0;
    if (c < 0x80) {
      i++;
      continue;
    } else if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= b.length) return i;
    let cp = c & (0xff >> (need + 2));
    for (let k = 1; k <= need; k++) {
      const cc = b[i + k];
      if (cc === undefined || (cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

function utf8Error(b: Uint8Array, file: string, firstLine: number): LocatedError {
  const at = Math.max(0, firstInvalidUtf8(b));
  let line = firstLine;
  let lineStart = 0;
  for (let i = 0; i < at; i++)
    if (b[i] === 10) {
      line++;
      lineStart = i + 1;
    }
  return {
    file,
    line,
    message: `not valid UTF-8: byte 0x${b[at].toString(16).padStart(2, "0")} at column ${at - lineStart + 1} (save the file as UTF-8)`,
  };
}

/**
 * Where the first NUL (U+0000) of a text is, as an error naming its line and column, or null. No
 * text in Assessor may hold one (lib/bounds.ts: PostgreSQL cannot store it), so a file with one is
 * refused whatever its format.
 */
export function nulError(text: string | Uint8Array, file: string, firstLine = 1): LocatedError | null {
  const at = typeof text === "string" ? text.indexOf("\u0000") : text.indexOf(0);
  if (at < 0) return null;
  let line = firstLine;
  let lineStart = 0;
  for (let i = 0; i < at; i++)
    if ((typeof text === "string" ? text.charCodeAt(i) : text[i]) === 10) {
      line++;
      lineStart = i + 1;
    }
  return {
    file,
    line,
    message: `a NUL character (U+0000) at ${typeof text === "string" ? "character" : "byte"} ${at - lineStart + 1} of the line: text may not contain NUL (remove it)`,
  };
}

/** Decodes bytes that must be UTF-8 and hold no NUL; the error names the line of the first bad byte. */
export function decodeUtf8(
  bytes: Uint8Array,
  file: string,
  firstLine = 1,
): { text: string; error?: undefined } | { text?: undefined; error: LocatedError } {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const nul = nulError(buf, file, firstLine);
  if (nul) return { error: nul };
  if (isAscii(buf)) return { text: buf.toString("latin1") };
  if (!isUtf8(buf)) return { error: utf8Error(buf, file, firstLine) };
  return { text: buf.toString("utf8") };
}
