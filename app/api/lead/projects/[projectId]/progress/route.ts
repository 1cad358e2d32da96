import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { annotatorProgress } from "@/lib/lead/progress";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { rolesFor } from "@/lib/auth/permissions";

export const dynamic = "force-dynamic";

export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return annotatorProgress(db, project.id);
});
