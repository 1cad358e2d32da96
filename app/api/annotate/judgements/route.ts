import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { submitJudgement } from "@/lib/labels/submit";
import { ZJudgementInput } from "@/lib/labels/schemas";

/**
 * One grading submission. Idempotent by `idempotencyKey` (lib/labels/submit.ts): the client's
 * outbox retries until it gets an answer, and a retry is never applied twice. The answer echoes
 * only the caller's own label.
 */
export const POST = route(
  { roles: ["annotator"], body: ZJudgementInput, rateLimit: "submissions" },
  async ({ user, body }) => {
    const { applied, judgement: j } = await submitJudgement(await getDb(), user.id, body);
    return {
      applied,
      poolItemId: j.poolItemId,
      grade: j.grade,
      startSeconds: j.startSeconds,
      endSeconds: j.endSeconds,
      notes: j.notes,
      idempotencyKey: j.idempotencyKey,
    };
  },
);
