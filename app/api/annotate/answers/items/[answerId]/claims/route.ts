import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { ZUint32, zText } from "@/lib/bounds";
import { route } from "@/lib/http/route";
import { editClaims } from "@/lib/answers/claims-edit";

const ZClaimEdit = z.object({
  op: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("merge"), positions: z.tuple([ZUint32, ZUint32]) }),
    z.object({ kind: z.literal("split"), position: ZUint32, at: ZUint32.min(1) }),
  ]),
  /** The claim set the annotator saw (the answer's `claimVersion`): another one is a 409. */
  version: ZUint32.min(1),
  /** Chosen by the client once per edit (a UUID); a retry sends the same key and changes nothing more. */
  idempotencyKey: zText(200).min(8),
});

/**
 * An annotator's merge (claims i and i + 1) or split (claim i at character `at`) of an answer's
 * claims while labelling (lib/answers/claims-edit.ts): a claim set of their own (no other
 * annotator's view changes), recorded in the answer's history. 404 unless the answer is assigned to
 * the caller; 409 for a stale `version` or while grading is closed. Answers the new claims.
 */
export const POST = route(
  { roles: ["annotator"], body: ZClaimEdit, rateLimit: "submissions" },
  async ({ user, params, body }) => {
    const id = typeof params.answerId === "string" ? params.answerId : "";
    const { version, claims } = await editClaims(await getDb(), {
      answerId: id,
      actorId: user.id,
      op: body.op,
      version: body.version,
      idempotencyKey: body.idempotencyKey,
    });
    // The annotator's view of claims (lib/answers/view.ts): position and text, nothing else.
    return { version, claims: claims.map(({ position, text }) => ({ position, text })) };
  },
);
