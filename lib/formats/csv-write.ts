/**
 * The delimited writers of Assessor: CSV (label exports, the dashboard's CSV downloads: csv-stringify)
 * and TSV (the questions export), with every cell that a spreadsheet would run as a formula
 * neutralised (TSV too: a spreadsheet opens a .tsv file the same way).
 *
 * OWASP, "CSV Injection" (https://owasp.org/www-community/attacks/CSV_Injection): a cell beginning
 * with `=`, `+`, `-`, `@`, TAB (0x09) or CR (0x0D) is read as a formula by Excel, LibreOffice and
 * Google Sheets. Such a text cell is written with a single quote in front (`'=1+1`), which the
 * spreadsheet shows as text, and quoted (`"'=1+1"`), as OWASP recommends.
 *
 * Numbers: a cell that is a JavaScript number (a grade, a measure, a negative difference such as
 * -0.25) is written as the number, unchanged: a spreadsheet reads it as a number, never as a
 * formula, and analyses keep their numeric columns. Only text cells are neutralised, also text
 * that looks like a number ("-1" given as a string), and a non-finite number (-Infinity) is written
 * as text, so neutralised too. Reading the file back, a text cell's value is the cell without its
 * leading `'` when the next character is one of the six above.
 */
import { stringify, type Options } from "csv-stringify/sync";

export type TCsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
/** A neutralised cell (always quoted, as OWASP recommends). */
const NEUTRALISED = /^'[=+\-@\t\r]/;

/** The cell as written: text beginning with a formula character gets a leading `'`. */
export function neutraliseCell(v: TCsvCell): TCsvCell {
  if (typeof v === "number") return Number.isFinite(v) ? v : neutraliseCell(String(v));
  return typeof v === "string" && FORMULA_START.test(v) ? `'${v}` : v;
}

/** Rows as CSV (RFC 4180 quoting, "\n" after each record; null and undefined are empty fields). */
export function safeCsv(rows: readonly (readonly TCsvCell[])[], options: Pick<Options, "quoted_match"> = {}): string {
  const extra =
    options.quoted_match === undefined || options.quoted_match === null
      ? []
      : Array.isArray(options.quoted_match)
        ? options.quoted_match
        : [options.quoted_match];
  return stringify(
    rows.map((r) => r.map(neutraliseCell)),
    { quoted_match: [...extra, NEUTRALISED] },
  );
}

/**
 * Rows as TSV ("\n" after each record; null and undefined are empty fields). TSV has no quoting,
 * so a tab or line break inside a cell becomes a space and the cell is trimmed (the TSV reader,
 * lib/formats/delimited.ts, trims cells too); then a text cell is neutralised as in `safeCsv`.
 */
export function safeTsv(rows: readonly (readonly TCsvCell[])[]): string {
  const cell = (v: TCsvCell) => {
    const c = neutraliseCell(typeof v === "string" ? v.replace(/[\t\r\n]+/g, " ").trim() : v);
    return c === null || c === undefined ? "" : String(c);
  };
  return rows.map((r) => `${r.map(cell).join("\t")}\n`).join("");
}
