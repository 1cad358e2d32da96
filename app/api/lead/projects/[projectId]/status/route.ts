import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { stageCounts } from "@/lib/labels/stage";

export const dynamic = "force-dynamic";

export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return stageCounts(db, project.id);
});
