import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { listGuidelineRevisions, olderAnswerGuidelines, olderGuidelines } from "@/lib/projects/guidelines";

export const dynamic = "force-dynamic";

/** The guidelines' revisions (newest first) and how much was graded (items and answers) under older ones (the lead's Guidelines section). */
export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  const [revisions, older, olderAnswers] = await Promise.all([
    listGuidelineRevisions(db, project.id),
    olderGuidelines(db, project.id),
    olderAnswerGuidelines(db, project.id),
  ]);
  return { revisions, older, olderAnswers };
});
