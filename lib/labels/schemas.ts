import { z } from "zod";

/** Flags an annotator can set on an item. */
export const JUDGEMENT_FLAGS = ["unsure", "transcript_error", "video_problem", "offensive"] as const;

/** One grading submission (annotate page → route → submitJudgement). */
export const ZJudgementInput = z.object({
  poolItemId: z.string().min(1).max(100),
  grade: z.number().int("grade: expected a whole number 0–3").min(0, "grade: expected 0–3").max(3, "grade: expected 0–3"),
  startSeconds: z.number().finite().min(0, "startSeconds: expected seconds ≥ 0").nullable(),
  notes: z.string().max(5000).default(""),
  flags: z.array(z.enum(JUDGEMENT_FLAGS)).max(JUDGEMENT_FLAGS.length).default([]),
  timeSpentMs: z.number().int().min(0).nullable().default(null),
  /** Chosen by the client once per submission (a UUID); a retry sends the same key. */
  idempotencyKey: z.string().min(8).max(200),
});
export type TJudgementInput = z.input<typeof ZJudgementInput>;
export type TJudgement = z.output<typeof ZJudgementInput>;
