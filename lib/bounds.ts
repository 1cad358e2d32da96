/**
 * The bounds every input is held to, so that what passes validation fits the
 * columns of both databases (SQLite and PostgreSQL) and bad input gets a 422 naming the field,
 * never a 500 from the database:
 *
 * - Text never contains NUL (U+0000): PostgreSQL cannot store it in text columns. It is refused,
 *   not stripped (a silently changed note or name is worse than a clear error): in API bodies and
 *   query strings with a 422 naming the field (lib/http/route.ts), in imported files with the file,
 *   line and column (lib/formats/lines.ts, lib/formats/text.ts), and for JSONL string escapes
 *   ("\u0000") with the field too (lib/imports/schemas.ts).
 * - Integer columns are 32-bit: ids in URLs are 1 … 2^31 − 1 (anything else, non-numeric
 *   included, is a 404: no such row can exist); every integer in a body (ids, versions,
 *   revisions, positions, counts, durations such as timeSpentMs) is at most 2^31 − 1 (zInt32).
 * - JSON bodies nest at most MAX_JSON_DEPTH levels (a 422), checked without recursion.
 * - Times in seconds are finite and at most MAX_SECONDS (10^7 s, about 116 days: far longer than
 *   any video), so 1e308 start times are refused.
 * - Chunk text is at most maxChunkChars() characters (100,000 unless ASSESSOR_MAX_CHUNK_CHARS says
 *   otherwise): a larger chunk is refused at import with its file and line.
 *
 * Pure: no database, no Next; used by the server, the CLI and zod schemas shared with the client.
 */
import { z } from "zod";

export const INT32_MAX = 2_147_483_647;
/** The longest email address (RFC 5321's 256-octet path less its angle brackets). */
export const MAX_EMAIL_CHARS = 254;
export const MAX_SECONDS = 10_000_000;
export const DEFAULT_MAX_CHUNK_CHARS = 100_000;
export const NUL_MESSAGE = "must not contain a NUL character (U+0000)";

/** The largest chunk text accepted at import (ASSESSOR_MAX_CHUNK_CHARS, a positive integer; default 100,000). */
export function maxChunkChars(env: Record<string, string | undefined> = process.env): number {
  const raw = env.ASSESSOR_MAX_CHUNK_CHARS;
  if (raw === undefined || raw === "") return DEFAULT_MAX_CHUNK_CHARS;
  const n = /^[1-9][0-9]{0,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(n))
    throw new Error(`ASSESSOR_MAX_CHUNK_CHARS: expected a positive whole number of characters, got "${raw}"`);
  return n;
}

export const hasNul = (s: string): boolean => s.includes("\u0000");

type TWalk = { value: unknown; key: string; parent: TWalk | null };
const pathOf = (w: TWalk): string[] => {
  const out: string[] = [];
  for (let n: TWalk | null = w; n && n.parent; n = n.parent) out.push(n.key);
  return out.reverse();
};

/**
 * The path ("notes", "tags.2", "flags") of the first string holding a NUL in a parsed JSON value
 * (object keys included), or null when there is none. Iterative: a body nested 10,000 levels deep
 * must not overflow the stack (route() refuses such a body first, jsonTooDeep).
 */
export function nulPath(value: unknown, path: readonly string[] = []): string | null {
  const stack: TWalk[] = [{ value, key: "", parent: null }];
  const full = (w: TWalk, extra?: string) => [...path, ...pathOf(w), ...(extra === undefined ? [] : [extra])].join(".");
  while (stack.length > 0) {
    const w = stack.pop() as TWalk;
    const v = w.value;
    if (typeof v === "string") {
      if (hasNul(v)) return full(w) || "(body)";
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), parent: w });
    } else if (typeof v === "object" && v !== null) {
      const entries = Object.entries(v);
      for (const [k] of entries) if (hasNul(k)) return full(w, k.replaceAll("\u0000", "\\u0000"));
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], key: entries[i][0], parent: w });
    }
  }
  return null;
}

/** How deep a JSON body may nest (arrays and objects): far more than any route's schema needs. */
export const MAX_JSON_DEPTH = 64;
export const DEPTH_MESSAGE = `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels`;

/** Whether a parsed JSON value nests arrays/objects deeper than `max` levels (iterative). */
export function jsonTooDeep(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** A numeric id from a URL (path segment or query value): 1 … 2^31 − 1, else null (the caller's 404). */
export function intId(raw: unknown): number | null {
  if (typeof raw !== "string" || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= INT32_MAX ? n : null;
}

/** Text without NUL, at most `max` characters. */
export const zText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !hasNul(s), { error: NUL_MESSAGE });

/** Seconds: finite, 0 … MAX_SECONDS. */
export const ZSeconds = z
  .number()
  .finite()
  .min(0, "expected seconds ≥ 0")
  .max(MAX_SECONDS, `expected at most ${MAX_SECONDS} seconds`);

/**
 * A whole number from `min` to 2^31 − 1: every integer a body may carry that reaches an INTEGER
 * column or a comparison with one (ids, versions, revisions, positions, counts). `message` is
 * the schema's own wording for "not a whole number / below min".
 */
export const zInt32 = (min: number, message?: string) =>
  z.number().int(message).min(min, message).max(INT32_MAX, `expected at most ${INT32_MAX}`);

/** A non-negative 32-bit integer (counts, milliseconds). */
export const ZUint32 = zInt32(0);
