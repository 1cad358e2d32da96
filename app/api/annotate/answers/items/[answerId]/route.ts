import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { annotatorAnswer } from "@/lib/answers/view";

export const dynamic = "force-dynamic";

/** One assigned answer (404 for anything not assigned to the caller: the check is in the query). */
export const GET = route({ roles: ["annotator"] }, async ({ user, params }) => {
  const id = typeof params.answerId === "string" ? params.answerId : "";
  const answer = await annotatorAnswer(await getDb(), user.id, id);
  if (!answer) throw new AppError("not_found", "no such answer in your queue");
  return answer;
});
