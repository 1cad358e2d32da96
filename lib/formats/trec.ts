/**
 * TREC run and qrels files, read the way trec_eval reads them, with every problem located.
 *
 * - qrels: `qid iter docid grade`, whitespace-separated; grades are integers 0–3 (or clipped into
 *   that range with `clip`, counting how many changed). A (qid, docid) pair may appear once.
 * - run: `qid Q0 docid rank score tag`; rank must be an integer and score a finite number (the
 *   rank is kept but never used for ordering: see lib/stats/order.ts); a docid may appear once per
 *   query.
 *
 * Both reject an empty file and bytes that are not UTF-8 (when given bytes rather than a string).
 * Columns are split on any run of spaces, tabs or carriage returns; blank lines are skipped but
 * still counted, so line numbers match an editor's. The scanner works on character codes over the
 * whole text (no split or regex per line) because run files reach millions of lines.
 */
import { open } from "node:fs/promises";
import { isAscii, isUtf8 } from "node:buffer";
import type { LocatedError } from "../errors.ts";

export type QrelRow = { qid: string; docid: string; grade: number; line: number };
export type RunRow = { qid: string; docid: string; rank: number; score: number; tag: string; line: number };

const MAX_FIELDS = 8;
const MIN_GRADE = 0;
const MAX_GRADE = 3;

/** Receives each non-blank line as field boundaries into `text` (n may exceed the stored fields). */
type LineSink = (text: string, line: number, n: number, starts: Int32Array, ends: Int32Array) => void;

const isSpace = (c: number) => c === 32 || c === 9 || c === 13 || c === 11 || c === 12;

/** Calls `sink` for every non-blank line of `text`; returns the number of lines seen (blank included). */
function scanLines(text: string, firstLine: number, sink: LineSink): { lines: number; nonBlank: number } {
  const starts = new Int32Array(MAX_FIELDS);
  const ends = new Int32Array(MAX_FIELDS);
  let line = firstLine;
  let n = 0;
  let inField = false;
  let nonBlank = 0;
  const len = text.length;
  let i = text.charCodeAt(0) === 0xfeff && firstLine === 1 ? 1 : 0; // a byte-order mark is not data
  for (; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      if (inField && n <= MAX_FIELDS) ends[n - 1] = i;
      inField = false;
      if (n > 0) {
        nonBlank++;
        sink(text, line, n, starts, ends);
      }
      n = 0;
      line++;
    } else if (isSpace(c)) {
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

/** scanLines for an ASCII chunk: the same, reading character codes from the bytes (faster). */
function scanLinesAscii(bytes: Uint8Array, text: string, firstLine: number, sink: LineSink): { lines: number; nonBlank: number } {
  const starts = new Int32Array(MAX_FIELDS);
  const ends = new Int32Array(MAX_FIELDS);
  let line = firstLine;
  let n = 0;
  let inField = false;
  let nonBlank = 0;
  const len = bytes.length;
  for (let i = 0; i < len; i++) {
    const c = bytes[i];
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
  const lines = line - firstLine + (len > 0 && bytes[len - 1] !== 10 ? 1 : 0);
  return { lines, nonBlank };
}

/** Integer in text[s, e) or NaN; digits with an optional sign, nothing else. */
function parseIntToken(text: string, s: number, e: number): number {
  let i = s;
  let sign = 1;
  const c0 = text.charCodeAt(i);
  if (c0 === 45 /* - */ || c0 === 43 /* + */) {
    if (c0 === 45) sign = -1;
    i++;
  }
  if (i === e || e - i > 15) return e - i > 15 && /^[+-]?\d+$/.test(text.slice(s, e)) ? Number(text.slice(s, e)) : NaN;
  let v = 0;
  for (; i < e; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return NaN;
    v = v * 10 + d;
  }
  return sign * v;
}

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * A finite number in text[s, e) or NaN. Plain decimals with at most 15 significant digits take a
 * fast path: an exact integer divided by an exact power of ten is correctly rounded, so the result
 * is the same double as Number() gives. Anything else (exponents, long mantissas) goes to Number().
 */
function parseNumberToken(text: string, s: number, e: number): number {
  let i = s;
  let sign = 1;
  const c0 = text.charCodeAt(i);
  if (c0 === 45 || c0 === 43) {
    if (c0 === 45) sign = -1;
    i++;
  }
  let mant = 0;
  let digits = 0;
  let frac = -1;
  for (; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c === 46 /* . */ && frac < 0) {
      frac = 0;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9) return slowNumber(text, s, e);
    mant = mant * 10 + d;
    digits++;
    if (frac >= 0) frac++;
  }
  if (digits === 0) return NaN;
  if (digits > 15 || frac > 22) return slowNumber(text, s, e);
  return frac > 0 ? (sign * mant) / POW10[frac] : sign * mant;
}

function slowNumber(text: string, s: number, e: number): number {
  const tok = text.slice(s, e);
  if (/^0[xXbBoO]/.test(tok.replace(/^[+-]/, ""))) return NaN; // Number() would accept hex; trec_eval's atof would not
  const v = Number(tok);
  return Number.isFinite(v) ? v : NaN;
}

/** Reuses `prev` when text[s, e) spells the same string: qids and tags repeat on every line. */
function sliceOrReuse(text: string, s: number, e: number, prev: string): string {
  if (prev.length === e - s && text.startsWith(prev, s)) return prev;
  return text.slice(s, e);
}

function describe(text: string, s: number, e: number): string {
  const t = text.slice(s, Math.min(e, s + 40));
  return JSON.stringify(e - s > 40 ? `${t}…` : t);
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
  return { file, line, message: `not valid UTF-8: byte 0x${b[at].toString(16).padStart(2, "0")} at column ${at - lineStart + 1} (save the file as UTF-8)` };
}

/** Decodes bytes that must be UTF-8; the error names the line of the first bad byte. */
export function decodeUtf8(bytes: Uint8Array, file: string, firstLine = 1): { text: string; error?: undefined } | { text?: undefined; error: LocatedError } {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isAscii(buf)) return { text: buf.toString("latin1") };
  if (!isUtf8(buf)) return { error: utf8Error(buf, file, firstLine) };
  return { text: buf.toString("utf8") };
}

const emptyFileError = (file: string, what: string): LocatedError => ({ file, line: 1, message: `the file is empty: expected ${what}` });

// ---------------------------------------------------------------------------------------------
// qrels

const QRELS_COLUMNS = "4 columns: qid iter docid grade";

/** Parses a qrels file (see the module comment). `rows` holds every valid line; a caller writes nothing when `errors` is non-empty. */
export function parseQrels(input: string | Uint8Array, file: string, opts: { clip?: boolean } = {}): { rows: QrelRow[]; errors: LocatedError[]; clipped: number } {
  const errors: LocatedError[] = [];
  const rows: QrelRow[] = [];
  let text: string;
  if (typeof input === "string") text = input;
  else {
    const d = decodeUtf8(input, file);
    if (d.error) return { rows, errors: [d.error], clipped: 0 };
    text = d.text;
  }
  let clipped = 0;
  let prevQid = "";
  const seen = new Map<string, Map<string, number>>();
  const { nonBlank } = scanLines(text, 1, (t, line, n, s, e) => {
    if (n !== 4) {
      errors.push({ file, line, message: `expected ${QRELS_COLUMNS}; found ${n} column${n === 1 ? "" : "s"}` });
      return;
    }
    let grade = parseIntToken(t, s[3], e[3]);
    if (Number.isNaN(grade)) {
      errors.push({ file, line, field: "grade", message: `expected an integer grade 0–3, found ${describe(t, s[3], e[3])}` });
      return;
    }
    if (grade < MIN_GRADE || grade > MAX_GRADE) {
      if (!opts.clip) {
        errors.push({ file, line, field: "grade", message: `expected a grade 0–3, found ${grade} (use --clip to map grades into 0–3)` });
        return;
      }
      grade = Math.min(MAX_GRADE, Math.max(MIN_GRADE, grade));
      clipped++;
    }
    const qid = sliceOrReuse(t, s[0], e[0], prevQid);
    prevQid = qid;
    const docid = t.slice(s[2], e[2]);
    let docs = seen.get(qid);
    if (!docs) seen.set(qid, (docs = new Map()));
    const first = docs.get(docid);
    if (first !== undefined) {
      errors.push({ file, line, field: "docid", message: `docid "${docid}" is judged twice for query "${qid}" (first on line ${first})` });
      return;
    }
    docs.set(docid, line);
    rows.push({ qid, docid, grade, line });
  });
  if (nonBlank === 0 && errors.length === 0) errors.push(emptyFileError(file, `qrels lines (${QRELS_COLUMNS})`));
  return { rows, errors, clipped };
}

// ---------------------------------------------------------------------------------------------
// runs

const RUN_COLUMNS = "6 columns: qid Q0 docid rank score tag";

type RunFields = { qid: string; docid: string; rank: number; score: number; tag: string; line: number };

/** A valid run line as positional values: no object per line for callers that keep only some fields. */
export type RunRecordHandler = (qid: string, docid: string, rank: number, score: number, tag: string, line: number) => void;

/**
 * Builds a line parser that validates one run line and hands valid rows to `onRecord`. It keeps the
 * previous qid and tag so repeated values share one string.
 */
function runLineParser(file: string, onRecord: RunRecordHandler, onError: (e: LocatedError) => void): LineSink {
  let prevQid = "";
  let prevTag = "";
  return (t, line, n, s, e) => {
    if (n !== 6) {
      onError({ file, line, message: `expected ${RUN_COLUMNS}; found ${n} column${n === 1 ? "" : "s"}` });
      return;
    }
    const rank = parseIntToken(t, s[3], e[3]);
    if (Number.isNaN(rank)) {
      onError({ file, line, field: "rank", message: `expected an integer rank, found ${describe(t, s[3], e[3])}` });
      return;
    }
    const score = parseNumberToken(t, s[4], e[4]);
    if (Number.isNaN(score)) {
      onError({ file, line, field: "score", message: `expected a finite number as score, found ${describe(t, s[4], e[4])}` });
      return;
    }
    const qid = sliceOrReuse(t, s[0], e[0], prevQid);
    prevQid = qid;
    const tag = sliceOrReuse(t, s[5], e[5], prevTag);
    prevTag = tag;
    onRecord(qid, t.slice(s[2], e[2]), rank, score, tag, line);
  };
}

/** Detects a docid given twice for one query (first occurrence's line in the message). */
function duplicateChecker(file: string) {
  const seen = new Map<string, Map<string, number>>();
  return (row: RunFields): LocatedError | null => {
    let docs = seen.get(row.qid);
    if (!docs) seen.set(row.qid, (docs = new Map()));
    const first = docs.get(row.docid);
    if (first !== undefined) return { file, line: row.line, field: "docid", message: `docid "${row.docid}" appears twice for query "${row.qid}" (first on line ${first})` };
    docs.set(row.docid, row.line);
    return null;
  };
}

/** Parses a whole run file held in memory. */
export function parseRun(input: string | Uint8Array, file: string): { rows: RunRow[]; errors: LocatedError[] } {
  const errors: LocatedError[] = [];
  const rows: RunRow[] = [];
  let text: string;
  if (typeof input === "string") text = input;
  else {
    const d = decodeUtf8(input, file);
    if (d.error) return { rows, errors: [d.error] };
    text = d.text;
  }
  const dup = duplicateChecker(file);
  const sink = runLineParser(
    file,
    (qid, docid, rank, score, tag, line) => {
      const row = { qid, docid, rank, score, tag, line };
      const err = dup(row);
      if (err) errors.push(err);
      else rows.push(row);
    },
    (err) => errors.push(err),
  );
  const { nonBlank } = scanLines(text, 1, sink);
  if (nonBlank === 0 && errors.length === 0) errors.push(emptyFileError(file, `run lines (${RUN_COLUMNS})`));
  return { rows, errors };
}

const CHUNK_BYTES = 8 << 20;

/**
 * Reads a file in chunks that end on a line break, checks each is UTF-8, and calls `onText` with
 * the decoded text and the line number of its first line. Memory stays at a few chunks whatever
 * the file size. Returns false (after reporting) when the bytes are not UTF-8.
 */
async function readChunkedLines(path: string, file: string, onText: (text: string, firstLine: number, ascii: Uint8Array | null) => number, onError: (e: LocatedError) => void): Promise<boolean> {
  const fh = await open(path, "r");
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
        return false;
      }
      const chunk = buf.subarray(0, end);
      line += onText(d.text, line, d.text.length === end ? chunk : null);
      buf.copy(buf, 0, end, filled);
      carry = filled - end;
      if (eof) break;
    }
    return true;
  } finally {
    await fh.close();
  }
}

/**
 * Streams a run file without holding it in memory and without an object per line: the low-level
 * reader behind forEachRunLine, for callers that keep only some fields (eval on millions of lines).
 * It does not check duplicates. Returns counts.
 */
export async function scanRunFile(path: string, onRecord: RunRecordHandler, onError: (e: LocatedError) => void, opts: { file?: string } = {}): Promise<{ rows: number; errors: number }> {
  const file = opts.file ?? path;
  let rows = 0;
  let errors = 0;
  let nonBlankTotal = 0;
  const report = (e: LocatedError) => {
    errors++;
    onError(e);
  };
  const sink = runLineParser(
    file,
    (qid, docid, rank, score, tag, line) => {
      rows++;
      onRecord(qid, docid, rank, score, tag, line);
    },
    report,
  );
  const ok = await readChunkedLines(
    path,
    file,
    (text, firstLine, ascii) => {
      const r = ascii ? scanLinesAscii(ascii, text, firstLine, sink) : scanLines(text, firstLine, sink);
      nonBlankTotal += r.nonBlank;
      return r.lines;
    },
    report,
  );
  if (ok && nonBlankTotal === 0 && errors === 0) report(emptyFileError(file, `run lines (${RUN_COLUMNS})`));
  return { rows, errors };
}

/**
 * Streams a run file line by line without holding it in memory (imports of large runs).
 * `checkDuplicates` (default true) keeps every (qid, docid) seen to report a docid twice in one
 * query; a caller that checks per query itself can turn it off. Returns the counts.
 */
export async function forEachRunLine(
  path: string,
  onRow: (row: RunRow) => void,
  onError: (e: LocatedError) => void,
  opts: { checkDuplicates?: boolean; file?: string } = {},
): Promise<{ rows: number; errors: number }> {
  const dup = opts.checkDuplicates === false ? null : duplicateChecker(opts.file ?? path);
  let rows = 0;
  let dupErrors = 0;
  const r = await scanRunFile(
    path,
    (qid, docid, rank, score, tag, line) => {
      const row = { qid, docid, rank, score, tag, line };
      const err = dup ? dup(row) : null;
      if (err) {
        dupErrors++;
        onError(err);
      } else {
        rows++;
        onRow(row);
      }
    },
    onError,
    opts,
  );
  return { rows, errors: r.errors + dupErrors };
}
