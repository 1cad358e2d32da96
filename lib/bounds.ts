/**
 * The bounds every input is held to (issue 18 item 4), so that what passes validation fits the
 * columns of both databases (SQLite and PostgreSQL) and bad input gets a 422 naming the field,
 * never a 500 from the database:
 *
 * - Text never contains NUL (U+0000): PostgreSQL cannot store it in text columns. It is refused,
 *   not stripped (a silently changed note or name is worse than a clear error): in API bodies and
 *   query strings with a 422 naming the field (lib/http/route.ts), in imported files with the file,
 *   line and column (lib/formats/lines.ts, lib/formats/text.ts), and for JSONL string escapes
 *   ("\u0000") with the field too (lib/imports/schemas.ts).
 * - Integer columns are 32-bit: ids in URLs are 1 … 2^31 − 1 (anything else, non-numeric
 *   included, is a 404: no such row can exist); counts and durations such as timeSpentMs are
 *   0 … 2^31 − 1.
 * - Times in seconds are finite and at most MAX_SECONDS (10^7 s, about 116 days: far longer than
 *   any video), so 1e308 start times are refused.
 * - Chunk text is at most maxChunkChars() characters (100,000 unless ASSESSOR_MAX_CHUNK_CHARS says
 *   otherwise): a larger chunk is refused at import with its file and line.
 *
 * Pure: no database, no Next; used by the server, the CLI and zod schemas shared with the client.
 */
import { z } from "zod";

export const INT32_MAX = 2_147_483_647;
export const MAX_SECONDS = 10_000_000;
export const DEFAULT_MAX_CHUNK_CHARS = 100_000;
export const NUL_MESSAGE = "must not contain a NUL character (U+0000)";

/** The largest chunk text accepted at import (ASSESSOR_MAX_CHUNK_CHARS, a positive integer; default 100,000). */
export function maxChunkChars(env: Record<string, string | undefined> = process.env): number {
  const raw = env.ASSESSOR_MAX_CHUNK_CHARS;
  if (raw === undefined || raw === "") return DEFAULT_MAX_CHUNK_CHARS;
  const n = /^[1-9][0-9]{0,9}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isSafeInteger(n)) throw new Error(`ASSESSOR_MAX_CHUNK_CHARS: expected a positive whole number of characters, got "${raw}"`);
  return n;
}

export const hasNul = (s: string): boolean => s.includes("\u0000");

/**
 * The path ("notes", "tags.2", "flags") of the first string holding a NUL in a parsed JSON value
 * (object keys included), or null when there is none.
 */
export function nulPath(value: unknown, path: readonly string[] = []): string | null {
  if (typeof value === "string") return hasNul(value) ? path.join(".") || "(body)" : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], [...path, String(i)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value === "object" && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (hasNul(k)) return [...path, k.replaceAll("\u0000", "\\u0000")].join(".");
      const found = nulPath(v, [...path, k]);
      if (found !== null) return found;
    }
  }
  return null;
}

/** A numeric id from a URL (path segment or query value): 1 … 2^31 − 1, else null (the caller's 404). */
export function intId(raw: unknown): number | null {
  if (typeof raw !== "string" || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= INT32_MAX ? n : null;
}

/** Text without NUL, at most `max` characters. */
export const zText = (max: number) => z.string().max(max).refine((s) => !hasNul(s), { error: NUL_MESSAGE });

/** Seconds: finite, 0 … MAX_SECONDS. */
export const ZSeconds = z.number().finite().min(0, "expected seconds ≥ 0").max(MAX_SECONDS, `expected at most ${MAX_SECONDS} seconds`);

/** A non-negative 32-bit integer (counts, milliseconds). */
export const ZUint32 = z.number().int().min(0).max(INT32_MAX, `expected at most ${INT32_MAX}`);
