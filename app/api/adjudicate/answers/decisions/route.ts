import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { adjudicateAnswer, ZAnswerAdjudicationInput } from "@/lib/answers/adjudicate";

/**
 * The final claim labels and relevance of a disputed answer (lib/answers/adjudicate.ts). A second
 * decision is a 409 carrying the one that stands; `revises: n` revises decision n; a retry with the
 * same key is harmless.
 */
export const POST = route(
  { roles: rolesFor("adjudicate"), body: ZAnswerAdjudicationInput, rateLimit: "submissions" },
  async ({ user, body }) => adjudicateAnswer(await getDb(), user.id, body),
);
