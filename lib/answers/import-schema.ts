/**
 * The answers file's line schema (import.ts; docs/formats.md "Answers"): qid (or RAGAS's
 * user_input), the answer, its context chunk ids in order and optional citations, under the field
 * names of common RAG tooling as well.
 */
import { z } from "zod";
import { hasNul, NUL_MESSAGE } from "../bounds.ts";
import { ZExternalId } from "../imports/schemas.ts";
import { MAX_ANSWER_CHARS } from "./claims.ts";

export const WHAT = "one JSON object per line: qid, answer, context (chunk ids in order), optional citations";

const ZCitation = z.strictObject({
  sentence: z
    .number({ error: "expected the sentence's index (0 for the first sentence of the answer)" })
    .int({ error: "expected an integer sentence index" })
    .min(0, { error: "expected a sentence index of 0 or more" }),
  chunks: z
    .array(ZExternalId, { error: "expected the cited chunks as an array of chunk ids" })
    .min(1, { error: "expected at least one cited chunk" }),
});

const chunkIds = (what: string) =>
  z
    .array(ZExternalId, {
      error: `expected ${what} as an array of chunk ids (the chunks given to the model, in order)`,
    })
    .optional();
const answerText = z
  .string({ error: "expected the answer as a string" })
  .max(MAX_ANSWER_CHARS, {
    error: (i) =>
      `expected an answer of at most ${MAX_ANSWER_CHARS} characters, got ${typeof i.input === "string" ? i.input.length : "more"}`,
  })
  .refine((s) => !hasNul(s), { error: NUL_MESSAGE })
  .optional();

const QUESTION_FIELDS = ["qid", "question_id", "query_id", "user_input"] as const;
const ANSWER_FIELDS = ["answer", "response"] as const;
const CONTEXT_FIELDS = ["context", "contexts", "context_ids", "retrieved_context_ids"] as const;

export const ZAnswerRow = z
  .strictObject({
    qid: ZExternalId.optional(),
    question_id: ZExternalId.optional(),
    query_id: ZExternalId.optional(),
    user_input: z.string({ error: "expected the question's text as a string" }).optional(),
    answer: answerText,
    response: answerText,
    context: chunkIds("the context"),
    contexts: chunkIds("the contexts"),
    context_ids: chunkIds("the context ids"),
    retrieved_context_ids: chunkIds("the retrieved context ids"),
    retrieved_contexts: z.unknown().optional(),
    citations: z.array(ZCitation, { error: "expected citations as an array of { sentence, chunks }" }).optional(),
  })
  .superRefine((r, ctx) => {
    const one = (fields: readonly (keyof typeof r)[], missing: string) => {
      const given = fields.filter((f) => r[f] !== undefined);
      if (given.length === 0) ctx.addIssue({ code: "custom", path: [fields[0]], message: missing });
      else if (given.length > 1)
        ctx.addIssue({
          code: "custom",
          path: [given[1]],
          message: `give this once: ${given.join(" and ")} are the same field (use one)`,
        });
    };
    one(QUESTION_FIELDS, "expected the question: qid (or question_id, query_id, or the question's text as user_input)");
    one(ANSWER_FIELDS, "expected the answer text (answer or response)");
    if (r.retrieved_contexts !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["retrieved_contexts"],
        message:
          "retrieved_contexts holds passage texts; expected the ids of the chunks given to the model, as context (or retrieved_context_ids)",
      });
    else
      one(
        CONTEXT_FIELDS,
        "expected the context: the ids of the chunks given to the model, in order (context, contexts, context_ids or retrieved_context_ids)",
      );
    for (const f of ANSWER_FIELDS)
      if (r[f] !== undefined && r[f].trim() === "")
        ctx.addIssue({ code: "custom", path: [f], message: "expected a non-empty answer" });
    for (const f of ["user_input"] as const)
      if (r[f] !== undefined && r[f].trim() === "")
        ctx.addIssue({ code: "custom", path: [f], message: "expected a non-empty question text" });
  })
  .transform((r) => {
    const q = QUESTION_FIELDS.find((f) => r[f] !== undefined)!;
    const a = ANSWER_FIELDS.find((f) => r[f] !== undefined)!;
    const c = CONTEXT_FIELDS.find((f) => r[f] !== undefined)!;
    return {
      questionField: q,
      question: r[q]!,
      answerField: a,
      answer: r[a]!,
      contextField: c,
      context: r[c]!,
      citations: r.citations ?? null,
    };
  });
export type TAnswerRow = z.output<typeof ZAnswerRow>;
