import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { submitAnswerJudgement, ZAnswerJudgementInput } from "@/lib/answers/submit";

/**
 * One answer label (claim labels s/p/n/x and relevance 0–3). Idempotent by `idempotencyKey`
 * (lib/answers/submit.ts): the client's outbox retries until it gets an answer. The answer echoes
 * only the caller's own label.
 */
export const POST = route(
  { roles: ["annotator"], body: ZAnswerJudgementInput, rateLimit: "submissions" },
  async ({ user, body }) => {
    const { applied, judgement: j } = await submitAnswerJudgement(await getDb(), user.id, body);
    return {
      applied,
      answerId: j.answerId,
      claimVersion: j.claimVersion,
      claimLabels: j.claimLabels,
      relevance: j.relevance,
      notes: j.notes,
      idempotencyKey: j.idempotencyKey,
    };
  },
);
