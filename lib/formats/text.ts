/**
 * Helpers shared by the line-oriented parsers: decoding bytes that must be UTF-8, the empty-file
 * error, and turning zod issues into located errors.
 */
import { basename } from "node:path";
import type { z } from "zod";
import type { LocatedError } from "../errors.ts";
import { decodeUtf8, nulError } from "./lines.ts";

export { decodeUtf8 };

/** A string is taken as already decoded text; bytes must be UTF-8 (a byte-order mark is dropped); neither may hold a NUL. */
export function toText(
  input: string | Uint8Array,
  file: string,
): { text: string; error?: undefined } | { text?: undefined; error: LocatedError } {
  if (typeof input === "string") {
    const nul = nulError(input, file);
    if (nul) return { error: nul };
    return { text: input.charCodeAt(0) === 0xfeff ? input.slice(1) : input };
  }
  const d = decodeUtf8(input, file);
  if (d.error) return d;
  return { text: d.text.charCodeAt(0) === 0xfeff ? d.text.slice(1) : d.text };
}

export const emptyFile = (file: string, expected: string): LocatedError => ({
  file,
  line: 1,
  message: `the file is empty: expected ${expected}`,
});

/** One located error per zod issue; the field is the issue's path (e.g. "tags.2"). */
export function zodErrors(file: string, line: number, error: z.ZodError): LocatedError[] {
  return error.issues.flatMap((i): LocatedError[] => {
    const at = i.path.map(String);
    if (i.code === "unrecognized_keys")
      return i.keys.map((k) => ({
        file,
        line,
        field: [...at, k].join("."),
        message: `unknown field "${k}" (misspelt?); expected only the documented fields`,
      }));
    return [{ file, line, ...(at.length ? { field: at.join(".") } : {}), message: i.message }];
  });
}

/** Lines of a text with their 1-based numbers ("\r\n" and "\n" both end a line). */
export function* lines(text: string): Generator<{ line: number; text: string }> {
  let start = 0;
  let n = 1;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end);
    if (!(end === text.length && raw === "")) yield { line: n, text: raw.endsWith("\r") ? raw.slice(0, -1) : raw };
    start = end + 1;
    n++;
  }
}

/** A file's extension, lower case ("" when none). */
export function fileKind(name: string): string {
  return /\.([a-z0-9]+)$/i.exec(basename(name))?.[1]?.toLowerCase() ?? "";
}

/** First non-blank character of a text: tells JSONL from TREC/TSV when the extension does not. */
export function firstChar(bytes: Uint8Array): string {
  for (const b of bytes)
    if (b !== 32 && b !== 9 && b !== 10 && b !== 13 && b !== 0xef && b !== 0xbb && b !== 0xbf)
      return String.fromCharCode(b);
  return "";
}

/** A labels file (reference or judge labels) is JSONL by its extension, or by its first character where the extension does not say; qrels otherwise (imports and `assessor agreement`). */
export function isJsonlLabelFile(name: string, bytes: Uint8Array): boolean {
  const ext = fileKind(name);
  return ext === "jsonl" || ext === "json" || (ext !== "qrels" && ext !== "txt" && firstChar(bytes) === "{");
}
