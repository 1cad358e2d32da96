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
import { decodeUtf8, scanFile, scanText, type LineSink } from "./lines.ts";
import { describe, parseIntToken, parseNumberToken, sliceOrReuse } from "./trec-tokens.ts";
import { HASH, runChunkScanner, type RunRecordHandler } from "./trec-run-bytes.ts";
import { emptyFile } from "./text.ts";

export { decodeUtf8 };
export type { RunRecordHandler };

export type QrelRow = { qid: string; docid: string; grade: number; line: number };
export type RunRow = { qid: string; docid: string; rank: number; score: number; tag: string; line: number };

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
