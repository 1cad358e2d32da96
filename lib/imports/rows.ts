import type { z } from "zod";
import { parseDelimited, type DelimitedRecord } from "../formats/delimited.ts";
import { parseJsonl } from "../formats/jsonl.ts";
import { fileKind, firstChar, zodErrors } from "../formats/text.ts";
import type { LocatedError } from "../errors.ts";
import { ErrorList, readInput, type ImportInput } from "./input.ts";

/**
 * CSV/TSV records → the JSONL row shape, validated by the same schema. Numeric columns are
 * converted when they look like numbers; otherwise the text is kept so the schema reports it
 * ("expected the duration as a number of seconds"). `lists` columns are split on commas.
 */
export function fromRecords<S extends z.ZodType>(
  records: DelimitedRecord[],
  file: string,
  schema: S,
  opts: { numbers?: string[]; lists?: string[] },
  errors: ErrorList,
): (z.output<S> & { line: number })[] {
  const rows: (z.output<S> & { line: number })[] = [];
  for (const { line, values } of records) {
    const obj: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) continue;
      if (opts.numbers?.includes(k)) obj[k] = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v) ? Number(v) : v;
      else if (opts.lists?.includes(k))
        obj[k] = v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean);
      else obj[k] = v;
    }
    const parsed = schema.safeParse(obj);
    if (!parsed.success) errors.push(...zodErrors(file, line, parsed.error));
    else rows.push({ ...(parsed.data as object), line } as z.output<S> & { line: number });
  }
  return rows;
}

/**
 * The rows of a file that is a table (`table.ext`: CSV or TSV) or JSONL, validated by `schema`
 * either way. A table by its extension, or when the extension is neither and the file does not
 * start with "{"; otherwise JSONL (`what`: what its lines hold, for the error of an empty file).
 */
export function tableOrJsonlRows<S extends z.ZodType<Record<string, unknown>>>(
  file: { name: string; bytes: Uint8Array },
  schema: S,
  table: {
    ext: "csv" | "tsv";
    columns: readonly string[];
    required: readonly string[];
    numbers?: string[];
    lists?: string[];
  },
  what: string,
  errors: ErrorList,
): (z.output<S> & { line: number })[] {
  const { name, bytes } = file;
  const ext = fileKind(name);
  const first = firstChar(bytes);
  if (ext === table.ext || (ext !== "jsonl" && ext !== "json" && first !== "{" && first !== "")) {
    const delimiter = table.ext === "csv" ? "," : "\t";
    const d = parseDelimited(bytes, name, { delimiter, columns: table.columns, required: table.required });
    errors.push(...d.errors);
    return fromRecords(d.records, name, schema, { numbers: table.numbers, lists: table.lists }, errors);
  }
  const j = parseJsonl(bytes, name, schema, what);
  errors.push(...j.errors);
  return j.rows;
}

/** A duplicate id inside one file is an error at its second line, naming the first. */
/** The error for an id seen again on `line` (first on line `first`). */
export function duplicateIdError(file: string, line: number, id: string, first: number): LocatedError {
  return {
    file,
    line,
    field: "id",
    message: `duplicate id "${id}" (first on line ${first}); expected each id once per file`,
  };
}

export function rejectDuplicateIds(rows: { id: string; line: number }[], file: string, errors: ErrorList): void {
  const seen = new Map<string, number>();
  for (const r of rows) {
    const first = seen.get(r.id);
    if (first !== undefined) errors.push(duplicateIdError(file, r.line, r.id, first));
    else seen.set(r.id, r.line);
  }
}

/**
 * An import file of records each with its own id (videos, queries): read whole, its rows validated
 * as tableOrJsonlRows does, an id repeated in the file an error. The errors are collected, not thrown.
 */
export async function readIdRows<S extends z.ZodType<Record<string, unknown> & { id: string }>>(
  input: ImportInput,
  schema: S,
  table: Parameters<typeof tableOrJsonlRows>[2],
  what: string,
): Promise<{ name: string; sha256: string; rows: (z.output<S> & { line: number })[]; errors: ErrorList }> {
  const { name, bytes, sha256 } = await readInput(input);
  const errors = new ErrorList();
  const rows = tableOrJsonlRows({ name, bytes }, schema, table, what, errors);
  rejectDuplicateIds(rows, name, errors);
  return { name, sha256, rows, errors };
}
