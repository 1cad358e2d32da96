import { z } from "zod";
import { INT32_MAX, MAX_SECONDS, zInt32, zText } from "../bounds.ts";

const seconds = z.number().min(0).max(MAX_SECONDS);
export const ZPlaceInput = z
  .object({ videoId: zInt32(1), start: seconds, end: seconds.nullable() })
  .refine((p) => p.end === null || p.end >= p.start, {
    error: "expected the answer end at or after its start",
    path: ["end"],
  });
const ZTags = z.array(zText(100).trim().min(1)).max(50);
const ZStatus = z.enum(["draft", "accepted", "rejected"]);

/** A new question from the write screen: at least one answer place. */
export const ZQuestionCreate = z.object({
  text: zText(2000).trim().min(1, "type the question"),
  tags: ZTags,
  places: z.array(ZPlaceInput).min(1, "mark the answer's start with m").max(20),
  status: ZStatus.optional(),
});
export type TQuestionCreate = z.infer<typeof ZQuestionCreate>;

/** The lead's edit in the review list. */
export const ZQuestionPatch = z.object({
  text: zText(2000).trim().min(1).optional(),
  tags: ZTags.optional(),
  places: z.array(ZPlaceInput).max(20).optional(),
  status: ZStatus.optional(),
});

export const ZWritingSettings = z.object({
  transcriptWhileWriting: z.boolean().optional(),
  annotatorsMayAuthor: z.boolean().optional(),
});

const offset = z.coerce.number().int().min(0).max(INT32_MAX);
/** The review list's pages (lib/questions/review.ts): questions and near-duplicate groups. */
export const ZReviewQuery = z.object({
  offset: offset.default(0),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  clusterOffset: offset.default(0),
  clusterLimit: z.coerce.number().int().min(1).max(200).default(50),
});
