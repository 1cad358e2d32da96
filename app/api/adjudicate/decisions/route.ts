import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { adjudicate, ZAdjudicationInput } from "@/lib/adjudication/decide";
import { rolesFor } from "@/lib/auth/permissions";

/**
 * The final grade and start of a disagreement. A second decision of the same item is a 409 whose
 * details carry the decision that stands ({ standing }); a retry with the same key is harmless.
 * `revises: n` revises decision revision n (a stale n is a 409 with what stands).
 */
export const POST = route(
  { roles: rolesFor("adjudicate"), body: ZAdjudicationInput, rateLimit: "submissions" },
  async ({ user, body }) => {
    const { applied, adjudication: a } = await adjudicate(await getDb(), user.id, body);
    return {
      applied,
      poolItemId: a.poolItemId,
      grade: a.grade,
      startSeconds: a.startSeconds,
      endSeconds: a.endSeconds,
      rationale: a.rationale,
      revision: a.revision,
    };
  },
);
