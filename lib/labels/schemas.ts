import { z } from "zod";
import { MAX_SECONDS, ZUint32, zText } from "../bounds.ts";

/** Flags an annotator can set on an item. */
export const JUDGEMENT_FLAGS = ["unsure", "transcript_error", "video_problem", "offensive"] as const;

/** One grading submission (annotate page → route → submitJudgement). */
export const ZJudgementInput = z.object({
  poolItemId: zText(100).min(1),
  grade: z
    .number()
    .int("grade: expected a whole number 0–3")
    .min(0, "grade: expected 0–3")
    .max(3, "grade: expected 0–3"),
  startSeconds: z
    .number()
    .finite()
    .min(0, "startSeconds: expected seconds ≥ 0")
    .max(MAX_SECONDS, `startSeconds: expected at most ${MAX_SECONDS} seconds`)
    .nullable(),
  notes: zText(5000).default(""),
  flags: z.array(z.enum(JUDGEMENT_FLAGS)).max(JUDGEMENT_FLAGS.length).default([]),
  /** Milliseconds on the item: a 32-bit integer column (lib/bounds.ts). */
  timeSpentMs: ZUint32.nullable().default(null),
  /** Chosen by the client once per submission (a UUID); a retry sends the same key. */
  idempotencyKey: zText(200).min(8),
});
export type TJudgementInput = z.input<typeof ZJudgementInput>;
export type TJudgement = z.output<typeof ZJudgementInput>;
