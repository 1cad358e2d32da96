import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { flaggedItems } from "@/lib/labels/flags";

export const dynamic = "force-dynamic";

/** The project's items with an annotator's flag or note (the lead's Flags and notes list). */
export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return flaggedItems(db, project.id);
});
