/**
 * CSV and TSV with a header row, read by csv-parse. CSV follows RFC 4180 quoting; TSV has no
 * quoting (a tab or line break cannot occur inside a field). Every record must have as many
 * fields as the header; values are strings, cells are trimmed, and an empty cell is absent.
 */
import { parse } from "csv-parse/sync";
import type { LocatedError } from "../errors.ts";
import { emptyFile, toText } from "./text.ts";

export type DelimitedRecord = { line: number; values: Record<string, string | undefined> };

export function parseDelimited(
  input: string | Uint8Array,
  file: string,
  opts: { delimiter: "," | "\t"; columns: readonly string[]; required: readonly string[] },
): { records: DelimitedRecord[]; errors: LocatedError[] } {
  const errors: LocatedError[] = [];
  const records: DelimitedRecord[] = [];
  const t = toText(input, file);
  if (t.error) return { records, errors: [t.error] };
  const kind = opts.delimiter === "," ? "CSV" : "TSV";
  let raw: { record: string[]; info: { lines: number } }[];
  try {
    // csv-parse's typings do not reflect `info: true`, which wraps each record with its line.
    raw = parse(t.text, {
      delimiter: opts.delimiter,
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      quote: opts.delimiter === "," ? '"' : false,
    }) as unknown as typeof raw;
  } catch (e) {
    const line = typeof e === "object" && e !== null && "lines" in e && typeof e.lines === "number" ? e.lines : 1;
    return {
      records,
      errors: [{ file, line, message: `not valid ${kind}: ${e instanceof Error ? e.message : String(e)}` }],
    };
  }
  if (raw.length === 0)
    return { records, errors: [emptyFile(file, `a ${kind} header row (${opts.columns.join(", ")}) and data rows`)] };
  const header = raw[0].record.map((h) => h.trim());
  const headerLine = raw[0].info.lines;
  for (const h of header)
    if (!opts.columns.includes(h))
      errors.push({
        file,
        line: headerLine,
        field: h,
        message: `unknown column "${h}"; expected columns: ${opts.columns.join(", ")}`,
      });
  for (const r of opts.required)
    if (!header.includes(r))
      errors.push({ file, line: headerLine, field: r, message: `missing column "${r}" in the header row` });
  if (errors.length) return { records, errors };
  if (raw.length === 1) return { records, errors: [emptyFile(file, `data rows after the ${kind} header`)] };
  for (const { record, info } of raw.slice(1)) {
    if (record.length !== header.length) {
      errors.push({
        file,
        line: info.lines,
        message: `expected ${header.length} columns (${header.join(", ")}); found ${record.length}`,
      });
      continue;
    }
    const values: Record<string, string | undefined> = {};
    header.forEach((h, i) => {
      const v = record[i].trim();
      values[h] = v === "" ? undefined : v;
    });
    records.push({ line: info.lines, values });
  }
  return { records, errors };
}
