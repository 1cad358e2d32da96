import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { deleteRun } from "@/lib/projects/lifecycle";

export const dynamic = "force-dynamic";

/** Deletes one run (`assessor run delete SYSTEM --yes`): its pool items and their labels stay. */
export const DELETE = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return deleteRun(db, project.id, String(params.system));
});
