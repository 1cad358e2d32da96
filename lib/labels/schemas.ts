import { z } from "zod";
import { MAX_SECONDS, ZUint32, zInt32, zText } from "../bounds.ts";

/** Flags an annotator can set on an item. */
export const JUDGEMENT_FLAGS = ["unsure", "transcript_error", "video_problem", "offensive"] as const;

/** Seconds in a video, as a start or an end is given (`field` names it in the message). */
export const zSeconds = (field: string) =>
  z
    .number()
    .finite()
    .min(0, `${field}: expected seconds ≥ 0`)
    .max(MAX_SECONDS, `${field}: expected at most ${MAX_SECONDS} seconds`);

/** A grade on the 0–3 scale (`field` names it in the message: a grade, an answer's relevance). */
export const zGrade = (field: string) =>
  z
    .number()
    .int(`${field}: expected a whole number 0–3`)
    .min(0, `${field}: expected 0–3`)
    .max(3, `${field}: expected 0–3`);

/**
 * One grading submission (annotate page → route → submitJudgement). `endSeconds`: where the answer
 * ends (the answer-end key), optional; it must lie after the corrected start (checked here) or,
 * without one, after the chunk's start (checked by submitJudgement, which knows the chunk).
 */
export const ZJudgementInput = z
  .object({
    poolItemId: zText(100).min(1),
    grade: zGrade("grade"),
    startSeconds: zSeconds("startSeconds").nullable(),
    endSeconds: zSeconds("endSeconds").nullable().default(null),
    notes: zText(5000).default(""),
    flags: z.array(z.enum(JUDGEMENT_FLAGS)).max(JUDGEMENT_FLAGS.length).default([]),
    /** Milliseconds on the item: a 32-bit integer column (lib/bounds.ts). */
    timeSpentMs: ZUint32.nullable().default(null),
    /** Chosen by the client once per submission (a UUID); a retry sends the same key. */
    idempotencyKey: zText(200).min(8),
    /** The guidelines revision the page showed with the item (lib/projects/guidelines.ts); null: not told. */
    guidelineRevision: zInt32(0, "guidelineRevision: expected a revision number (0 or more)").nullable().default(null),
  })
  .superRefine((j, ctx) => {
    if (j.endSeconds !== null && j.startSeconds !== null && !(j.endSeconds > j.startSeconds))
      ctx.addIssue({
        code: "custom",
        path: ["endSeconds"],
        message: `expected the answer's end after its start (${j.startSeconds} s), got ${j.endSeconds} s`,
      });
  });
export type TJudgementInput = z.input<typeof ZJudgementInput>;
export type TJudgement = z.output<typeof ZJudgementInput>;
