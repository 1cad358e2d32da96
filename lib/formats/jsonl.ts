/**
 * JSON Lines: one JSON object per line, each validated by a zod schema. Blank lines are skipped
 * but counted, so line numbers match an editor's.
 */
import type { z } from "zod";
import type { LocatedError } from "../errors.ts";
import { emptyFile, lines, toText, zodErrors } from "./text.ts";

export type Located<T> = T & { line: number };

export function parseJsonl<S extends z.ZodType<Record<string, unknown>>>(
  input: string | Uint8Array,
  file: string,
  schema: S,
  what = "one JSON object per line",
): { rows: Located<z.output<S>>[]; errors: LocatedError[] } {
  const rows: Located<z.output<S>>[] = [];
  const errors: LocatedError[] = [];
  const t = toText(input, file);
  if (t.error) return { rows, errors: [t.error] };
  let nonBlank = 0;
  for (const { line, text } of lines(t.text)) {
    if (text.trim() === "") continue;
    nonBlank++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      errors.push({ file, line, message: `expected a JSON object (${what}): ${e instanceof Error ? e.message : String(e)}` });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      errors.push({ file, line, message: `expected a JSON object (${what}), found ${Array.isArray(value) ? "an array" : JSON.stringify(value)}` });
      continue;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) errors.push(...zodErrors(file, line, parsed.error));
    else rows.push({ ...parsed.data, line });
  }
  if (nonBlank === 0 && errors.length === 0) errors.push(emptyFile(file, what));
  return { rows, errors };
}
