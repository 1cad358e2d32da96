import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { listRuns } from "@/lib/projects/lifecycle";

export const dynamic = "force-dynamic";

/** Every run of the project with its size and what it contributed to the pool (`assessor run list`). */
export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return listRuns(db, project.id);
});
