import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { answerAssignedTo } from "@/lib/generation/view";
import { editClaims } from "@/lib/generation/claims-edit";

const ZClaimEdit = z.object({
  op: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("merge"), positions: z.tuple([z.number().int().min(0), z.number().int().min(0)]) }),
    z.object({ kind: z.literal("split"), position: z.number().int().min(0), at: z.number().int().min(1) }),
  ]),
});

/**
 * An annotator's merge (claims i and i + 1) or split (claim i at character `at`) of an answer's
 * claims while labelling (lib/generation/claims-edit.ts): a new claim set, recorded in the answer's
 * history. 404 unless the answer is assigned to the caller; 409 when the lead closed grading in the
 * project (checked in editClaims). Answers the new claims.
 */
export const POST = route({ roles: ["annotator"], body: ZClaimEdit, rateLimit: "submissions" }, async ({ user, params, body }) => {
  const id = typeof params.answerId === "string" ? params.answerId : "";
  const db = await getDb();
  if (!(await answerAssignedTo(db, user.id, id))) throw new AppError("not_found", "no such answer in your queue");
  const { version, claims } = await editClaims(db, { answerId: id, actorId: user.id, op: body.op });
  // The annotator's view of claims (lib/generation/view.ts): position and text, nothing else.
  return { version, claims: claims.map(({ position, text }) => ({ position, text })) };
});
