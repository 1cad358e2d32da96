/**
 * JSON Lines: one JSON object per line, each validated by a zod schema. Blank lines are skipped
 * but counted, so line numbers match an editor's.
 */
import type { z } from "zod";
import type { LocatedError } from "../errors.ts";
import { emptyFile, lines, toText, zodErrors } from "./text.ts";

export type Located<T> = T & { line: number };

/** Where located errors go (an array, or lib/imports' ErrorList), in line order. */
export type ErrorSink = { push: (...errors: LocatedError[]) => unknown };

/**
 * Calls `onRow` with each valid line's object (validated by `schema`) as it is read, and pushes
 * each bad line's errors to `errors` in between, so a caller that reports its own errors from
 * `onRow` to the same sink keeps them in line order. A caller that keeps only what it needs of
 * each row never holds the whole file as objects.
 */
export function forEachJsonl<S extends z.ZodType<Record<string, unknown>>>(
  input: string | Uint8Array,
  file: string,
  schema: S,
  what: string,
  onRow: (row: z.output<S>, line: number) => void,
  errors: ErrorSink,
): void {
  const t = toText(input, file);
  if (t.error) {
    errors.push(t.error);
    return;
  }
  let reported = false;
  const push = (...e: LocatedError[]) => {
    reported = true;
    errors.push(...e);
  };
  let nonBlank = 0;
  for (const { line, text } of lines(t.text)) {
    if (text.trim() === "") continue;
    nonBlank++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      push({ file, line, message: `expected a JSON object (${what}): ${e instanceof Error ? e.message : String(e)}` });
      continue;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      push({
        file,
        line,
        message: `expected a JSON object (${what}), found ${Array.isArray(value) ? "an array" : JSON.stringify(value)}`,
      });
      continue;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) push(...zodErrors(file, line, parsed.error));
    else onRow(parsed.data, line);
  }
  if (nonBlank === 0 && !reported) errors.push(emptyFile(file, what));
}

/** Every valid line's object with its line number, and the located errors. */
export function parseJsonl<S extends z.ZodType<Record<string, unknown>>>(
  input: string | Uint8Array,
  file: string,
  schema: S,
  what = "one JSON object per line",
): { rows: Located<z.output<S>>[]; errors: LocatedError[] } {
  const rows: Located<z.output<S>>[] = [];
  const errors: LocatedError[] = [];
  forEachJsonl(input, file, schema, what, (row, line) => rows.push({ ...row, line }), errors);
  return { rows, errors };
}
