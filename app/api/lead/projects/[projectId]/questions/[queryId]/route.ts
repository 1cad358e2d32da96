import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { intId } from "@/lib/bounds";
import { AppError } from "@/lib/errors";
import { projectIdParam } from "@/lib/lead/projects";
import { questionHistory, updateQuestion } from "@/lib/questions/store";
import { ZQuestionPatch } from "@/lib/questions/schemas";

export const dynamic = "force-dynamic";

const roles = rolesFor("manageProject");

function queryIdParam(raw: unknown): number {
  const id = intId(raw);
  if (id === null) throw new AppError("not_found", "no such question");
  return id;
}

/** The question's edit history, oldest first. */
export const GET = route({ roles }, async ({ params }) =>
  questionHistory(await getDb(), projectIdParam(params.projectId), queryIdParam(params.queryId)),
);

/** Edit text, tags, places or status (accept / reject); each change appends to the history. Rate-limited as submissions. */
export const PATCH = route({ roles, body: ZQuestionPatch, rateLimit: "submissions" }, async ({ user, params, body }) =>
  updateQuestion(await getDb(), projectIdParam(params.projectId), queryIdParam(params.queryId), user.id, body),
);
