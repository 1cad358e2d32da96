import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { projectIdParam } from "@/lib/lead/projects";
import { createQuestion, requireAuthor } from "@/lib/questions/store";
import { ZQuestionCreate } from "@/lib/questions/schemas";

export const dynamic = "force-dynamic";

/**
 * Saves a written question: an annotator's is always a draft; a lead chooses (default draft).
 * Counted against the writer's submission rate as grades are (429 with Retry-After).
 */
export const POST = route(
  { roles: rolesFor("writeQuestions"), body: ZQuestionCreate, rateLimit: "submissions" },
  async ({ user, params, body }) => {
    const db = await getDb();
    const projectId = projectIdParam(params.projectId);
    await requireAuthor(db, projectId, user);
    const status = user.role === "lead" ? (body.status ?? "draft") : "draft";
    return createQuestion(db, projectId, user.id, { text: body.text, tags: body.tags, places: body.places, status });
  },
);
