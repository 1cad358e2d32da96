/**
 * TREC run and qrels files, read the way trec_eval reads them, with every problem located.
 *
 * - qrels: `qid iter docid grade`, whitespace-separated; grades are integers 0–3 (or clipped into
 *   that range with `clip`, counting how many changed), or with `scale: "trec"` any relevance value
 *   trec_eval takes, from -127 to 127 (published qrels use 4 and above, and negative values such as
 *   TREC Web's -2; see lib/stats/evaluate.ts for what a negative value means). A (qid, docid) pair
 *   may appear once. A file whose first line is BEIR's header (`query-id corpus-id score`, as
 *   BEIR and MTEB publish qrels) is read as 3 columns: qid docid grade.
 * - run: `qid Q0 docid rank score tag`; columns after the sixth are ignored, as trec_eval 10.0's
 *   get_trec_results.c ignores them (its test file results.trunc has "more junk at end of lines");
 *   rank must be an integer (imports keep it; `assessor eval` passes `rank: "ignored"` and takes
 *   any text there, as trec_eval never reads it) and score a finite number (the rank is never used
 *   for ordering: see lib/stats/order.ts); a docid may appear once per query.
 *
 * Lines whose first field starts with `#` are comments and skipped, as trec_eval 10 skips them
 * (it takes a qrels comment only at the start of the line and a run comment after leading blanks;
 * both are read here the second way).
 *
 * Both reject an empty file and bytes that are not UTF-8 (when given bytes rather than a string).
 * Lines are split into columns by the scanner in lines.ts (any run of whitespace; blank lines
 * skipped but counted, so line numbers match an editor's).
 */
import type { LocatedError } from "../errors.ts";
import { decodeUtf8, scanFile, scanLines, scanText, type ChunkScanner, type LineSink } from "./lines.ts";
import { emptyFile } from "./text.ts";

export { decodeUtf8 };

export type QrelRow = { qid: string; docid: string; grade: number; line: number };
export type RunRow = { qid: string; docid: string; rank: number; score: number; tag: string; line: number };

/** '#': a line whose first field starts with it is a comment (trec_eval 10's get_qrels.c and get_trec_results.c). */
const HASH = 35;
const MIN_GRADE = 0;
const MAX_GRADE = 3;
/** trec_eval's relevance values as `assessor eval` keeps them (one signed byte per ranked chunk). */
const MIN_TREC_GRADE = -127;
const MAX_TREC_GRADE = 127;

/**
 * How qrels grades are read: "0-3", the labelling scale (imports, agreement); "trec", any relevance
 * value trec_eval evaluates (`assessor eval`).
 */
export type QrelsScale = "0-3" | "trec";

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
// qrels

const QRELS_COLUMNS = "4 columns: qid iter docid grade";
/** BEIR's qrels (BEIR, MTEB): a `query-id corpus-id score` header, then 3 tab-separated columns. */
const BEIR_HEADER = ["query-id", "corpus-id", "score"];
const BEIR_COLUMNS = "3 columns after the BEIR header: query-id corpus-id score";

/**
 * Scans a qrels file line by line (see the module comment), handing each valid line's qid, docid
 * and grade to `onRow` as it is read and each bad line's error to `errors` in between: no row
 * objects are kept (the label import resolves ids as it goes). Duplicate pairs are
 * the caller's to find (parseQrels by docid, the label import by resolved ids).
 */
export function scanQrels(
  input: string | Uint8Array,
  file: string,
  opts: { clip?: boolean; scale?: QrelsScale },
  onRow: (qid: string, docid: string, grade: number, line: number) => void,
  errors: LocatedError[],
): { clipped: number } {
  const trecScale = opts.scale === "trec" && !opts.clip;
  let clipped = 0;
  let valid = 0;
  let prevQid = "";
  // BEIR layout when the first non-blank line is its header; TREC's 4 columns otherwise.
  let beir = false;
  let first = true;
  const before = errors.length;
  const scanned = scanText(input, file, (t, line, n, s, e) => {
    if (n > 0 && t.charCodeAt(s[0]) === HASH) return; // a comment line, as trec_eval 10 reads qrels
    if (first) {
      first = false;
      if (n === 3 && BEIR_HEADER.every((h, i) => t.slice(s[i], e[i]) === h)) {
        beir = true;
        return;
      }
    }
    const columns = beir ? 3 : 4;
    if (n !== columns) {
      errors.push({
        file,
        line,
        message: `expected ${beir ? BEIR_COLUMNS : QRELS_COLUMNS}; found ${n} column${n === 1 ? "" : "s"}`,
      });
      return;
    }
    const [q, d, g] = beir ? [0, 1, 2] : [0, 2, 3];
    let grade = parseIntToken(t, s[g], e[g]);
    if (Number.isNaN(grade)) {
      errors.push({
        file,
        line,
        field: "grade",
        message: `expected an integer grade ${trecScale ? `(relevance value ${MIN_TREC_GRADE} to ${MAX_TREC_GRADE})` : "0–3"}, found ${describe(t, s[g], e[g])}`,
      });
      return;
    }
    if (trecScale) {
      if (grade < MIN_TREC_GRADE || grade > MAX_TREC_GRADE) {
        errors.push({
          file,
          line,
          field: "grade",
          message: `expected a relevance value from ${MIN_TREC_GRADE} to ${MAX_TREC_GRADE}, found ${grade}`,
        });
        return;
      }
    } else if (grade < MIN_GRADE || grade > MAX_GRADE) {
      if (!opts.clip) {
        errors.push({
          file,
          line,
          field: "grade",
          message: `expected a grade 0–3, found ${grade} (use --clip to map grades into 0–3)`,
        });
        return;
      }
      grade = Math.min(MAX_GRADE, Math.max(MIN_GRADE, grade));
      clipped++;
    }
    const qid = sliceOrReuse(t, s[q], e[q], prevQid);
    prevQid = qid;
    valid++;
    onRow(qid, t.slice(s[d], e[d]), grade, line);
  });
  if (scanned.error) {
    errors.push(scanned.error);
    return { clipped: 0 };
  }
  if (scanned.nonBlank === 0 && errors.length === before)
    errors.push(emptyFile(file, `qrels lines (${QRELS_COLUMNS})`));
  else if (beir && valid === 0 && errors.length === before)
    errors.push({
      file,
      line: 2,
      message: `the file holds only the BEIR header: expected qrels lines after it (${BEIR_COLUMNS})`,
    });
  return { clipped };
}

/** Parses a qrels file (see the module comment). `rows` holds every valid line; a caller writes nothing when `errors` is non-empty. */
export function parseQrels(
  input: string | Uint8Array,
  file: string,
  opts: { clip?: boolean; scale?: QrelsScale } = {},
): { rows: QrelRow[]; errors: LocatedError[]; clipped: number } {
  const errors: LocatedError[] = [];
  const rows: QrelRow[] = [];
  const seen = new Map<string, Map<string, number>>();
  const { clipped } = scanQrels(
    input,
    file,
    opts,
    (qid, docid, grade, line) => {
      let docs = seen.get(qid);
      if (!docs) seen.set(qid, (docs = new Map()));
      const firstLine = docs.get(docid);
      if (firstLine !== undefined) {
        errors.push({
          file,
          line,
          field: "docid",
          message: `docid "${docid}" is judged twice for query "${qid}" (first on line ${firstLine})`,
        });
        return;
      }
      docs.set(docid, line);
      rows.push({ qid, docid, grade, line });
    },
    errors,
  );
  return { rows, errors, clipped };
}

// ---------------------------------------------------------------------------------------------
// runs

const RUN_COLUMNS = "6 columns: qid Q0 docid rank score tag";

/**
 * How the rank column is read: "integer" (the default: imports store it) or "ignored" (any text,
 * not read, handed on as NaN: trec_eval, and so `assessor eval`, never reads it).
 */
export type RunReadOptions = { rank?: "integer" | "ignored" };

type RunFields = { qid: string; docid: string; rank: number; score: number; tag: string; line: number };

/** A valid run line as positional values: no object per line for callers that keep only some fields. */
export type RunRecordHandler = (
  qid: string,
  docid: string,
  rank: number,
  score: number,
  tag: string,
  line: number,
) => void;

/**
 * Builds a line parser that validates one run line and hands valid rows to `onRecord`. It keeps the
 * previous qid and tag so repeated values share one string.
 */
function runLineParser(
  file: string,
  onRecord: RunRecordHandler,
  onError: (e: LocatedError) => void,
  opts: RunReadOptions = {},
): LineSink {
  let prevQid = "";
  let prevTag = "";
  const anyRank = opts.rank === "ignored";
  return (t, line, n, s, e) => {
    if (n > 0 && t.charCodeAt(s[0]) === HASH) return; // a comment line, as trec_eval 10 reads runs
    if (n < 6) {
      onError({ file, line, message: `expected ${RUN_COLUMNS}; found ${n} column${n === 1 ? "" : "s"}` });
      return;
    }
    const rank = anyRank ? NaN : parseIntToken(t, s[3], e[3]);
    if (Number.isNaN(rank) && !anyRank) {
      onError({ file, line, field: "rank", message: `expected an integer rank, found ${describe(t, s[3], e[3])}` });
      return;
    }
    const score = parseNumberToken(t, s[4], e[4]);
    if (Number.isNaN(score)) {
      onError({
        file,
        line,
        field: "score",
        message: `expected a finite number as score, found ${describe(t, s[4], e[4])}`,
      });
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
    if (first !== undefined)
      return {
        file,
        line: row.line,
        field: "docid",
        message: `docid "${row.docid}" appears twice for query "${row.qid}" (first on line ${first})`,
      };
    docs.set(row.docid, row.line);
    return null;
  };
}

/** Parses a whole run file held in memory. */
export function parseRun(
  input: string | Uint8Array,
  file: string,
  opts: RunReadOptions = {},
): { rows: RunRow[]; errors: LocatedError[] } {
  const errors: LocatedError[] = [];
  const rows: RunRow[] = [];
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
    opts,
  );
  const scanned = scanText(input, file, sink);
  if (scanned.error) return { rows, errors: [scanned.error] };
  if (scanned.nonBlank === 0 && errors.length === 0) errors.push(emptyFile(file, `run lines (${RUN_COLUMNS})`));
  return { rows, errors };
}

/**
 * Streams a run file without holding it in memory and without an object per line: the low-level
 * reader behind forEachRunLine, for callers that keep only some fields (eval on millions of lines).
 * It does not check duplicates. Returns counts.
 */
export async function scanRunFile(
  path: string,
  onRecord: RunRecordHandler,
  onError: (e: LocatedError) => void,
  opts: { file?: string } & RunReadOptions = {},
): Promise<{ rows: number; errors: number }> {
  const file = opts.file ?? path;
  let rows = 0;
  let errors = 0;
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
    opts,
  );
  const onPlain: RunRecordHandler = (qid, docid, rank, score, tag, line) => {
    rows++;
    onRecord(qid, docid, rank, score, tag, line);
  };
  const { ok, nonBlank } = await scanFile(
    path,
    file,
    sink,
    report,
    runChunkScanner(sink, onPlain, opts.rank === "ignored"),
  );
  if (ok && nonBlank === 0 && errors === 0) report(emptyFile(file, `run lines (${RUN_COLUMNS})`));
  return { rows, errors };
}

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
function runChunkScanner(sink: LineSink, onRecord: RunRecordHandler, anyRank: boolean): ChunkScanner {
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
