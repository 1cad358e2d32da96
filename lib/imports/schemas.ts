import { z } from "zod";
import { hasNul, MAX_SECONDS, maxChunkChars, NUL_MESSAGE } from "../bounds.ts";

/**
 * One row of each JSONL import kind (CSV/TSV records are converted to the same shape first).
 * Unknown keys are errors, so a misspelt field ("strat") is reported rather than dropped.
 */
export const ZExternalId = z
  .union([z.string(), z.number().int()], { error: "expected an id (a non-empty string)" })
  .transform((v) => String(v).trim())
  // No whitespace (TREC files split on it) and no control characters (lib/db/id-index.ts uses two as separators).
  .refine(
    (v) => v.length > 0 && !/\s/.test(v) && ![...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f),
    { error: "expected an id without spaces or control characters (a non-empty string)" },
  );

const seconds = (what: string) =>
  z
    .number({ error: `expected ${what} as a number of seconds` })
    .min(0, { error: `expected ${what} of 0 seconds or more` })
    .max(MAX_SECONDS, { error: `expected ${what} of at most ${MAX_SECONDS} seconds` });
// No NUL (lib/bounds.ts): a JSONL "\u0000" escape is named with its field (a raw NUL byte is refused with the file's line first).
const text = (what: string) =>
  z.string({ error: `expected ${what} as a string` }).refine((s) => !hasNul(s), { error: NUL_MESSAGE });

export const ZVideoRow = z
  .strictObject({
    id: ZExternalId,
    title: text("a title").trim().min(1, { error: "expected a non-empty title" }),
    url: text("a URL")
      .trim()
      .refine((u) => /^https?:\/\/\S+$/i.test(u), { error: "expected an http(s) URL (YouTube or a video file)" })
      .nullish(),
    path: text("a file path").trim().min(1, { error: "expected a non-empty file path" }).nullish(),
    duration: seconds("the duration").nullish(),
  })
  // Neither: a video without media (transcript-only items).
  .refine((v) => !(v.url && v.path), {
    error:
      "expected at most one of url (YouTube or http) or path (self-hosted file); neither for a video without media",
    path: ["url"],
  });
export type TVideoRow = z.output<typeof ZVideoRow>;

export const ZChunkRow = z
  .strictObject({
    id: ZExternalId,
    video: ZExternalId,
    start: seconds("the start"),
    end: seconds("the end"),
    text: text("the chunk text").refine((t) => t.length <= maxChunkChars(), {
      error: (i) => chunkTooLong((i.input as string).length),
    }),
  })
  .refine((c) => c.end >= c.start, {
    error: (i) => `expected the end not before the start (${(i.input as { start: number }).start} s)`,
    path: ["end"],
  });
export type TChunkRow = z.output<typeof ZChunkRow>;

/** One answer place of a question: a video, where the answer starts, optionally where it ends. */
export const ZPlaceRow = z
  .strictObject({ video: ZExternalId, start: seconds("the answer start"), end: seconds("the answer end").nullish() })
  .refine((p) => p.end == null || p.end >= p.start, {
    error: "expected the answer end at or after its start",
    path: ["end"],
  });

export const ZQueryRow = z
  .strictObject({
    id: ZExternalId,
    text: text("the query text").trim().min(1, { error: "expected a non-empty query text" }),
    author: text("an author").trim().nullish(),
    start: seconds("the reference start").nullish(),
    reference_start: seconds("the reference start").nullish(),
    video: ZExternalId.nullish(),
    places: z.array(ZPlaceRow, { error: "expected places as an array of {video, start, end?}" }).optional(),
    status: z
      .enum(["draft", "accepted", "rejected"], { error: "expected status draft, accepted or rejected" })
      .optional(),
    tags: z
      .array(text("a tag").trim().min(1, { error: "expected a non-empty tag" }), {
        error: "expected tags as an array of strings",
      })
      .optional(),
  })
  .refine((q) => q.start == null || q.reference_start == null, {
    error: "give the reference start as start or reference_start, not both",
    path: ["reference_start"],
  })
  .refine((q) => q.places === undefined || (q.start == null && q.reference_start == null && q.video == null), {
    error: "give the answer places either as places or as video and start, not both",
    path: ["places"],
  });
export type TQueryRow = z.output<typeof ZQueryRow>;

/** A grade on the 0–3 scale (labels, judge labels; also read by `assessor agreement`). */
export const ZGrade = z
  .number({ error: "expected an integer grade 0–3" })
  .int({ error: "expected an integer grade 0–3" })
  .min(0, { error: "expected a grade 0–3" })
  .max(3, { error: "expected a grade 0–3" });

export const ZLabelRow = z.strictObject({
  query: ZExternalId,
  chunk: ZExternalId,
  grade: ZGrade,
  start: seconds("the start").nullish(),
});
export type TLabelRow = z.output<typeof ZLabelRow>;

/** A judge's probability of an event (the pair's grade ≥ 1, ≥ 2). */
const probability = (what: string) =>
  z
    .number({ error: `expected ${what}, a probability from 0 to 1` })
    .min(0, { error: `expected ${what}, a probability from 0 to 1` })
    .max(1, { error: `expected ${what}, a probability from 0 to 1` });

export const ZJudgeRow = z.strictObject({
  query: ZExternalId,
  chunk: ZExternalId,
  grade: ZGrade,
  rationale: text("a rationale").nullish(),
  /** The judge's probability that the grade is ≥ 1 and ≥ 2 (its confidence; lib/dashboard/trust.ts). */
  p_ge1: probability("the probability of grade ≥ 1").nullish(),
  p_ge2: probability("the probability of grade ≥ 2").nullish(),
});
export type TJudgeRow = z.output<typeof ZJudgeRow>;

/** The error for a chunk text past the limit (lib/bounds.ts maxChunkChars). */
export function chunkTooLong(length: number): string {
  return `expected a chunk text of at most ${maxChunkChars()} characters, found ${length} (split the chunk, or raise ASSESSOR_MAX_CHUNK_CHARS)`;
}
