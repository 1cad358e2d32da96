import type { z } from "zod";
import type { DelimitedRecord } from "../formats/delimited.ts";
import { zodErrors } from "../formats/text.ts";
import type { LocatedError } from "../errors.ts";
import type { ErrorList } from "./input.ts";

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
