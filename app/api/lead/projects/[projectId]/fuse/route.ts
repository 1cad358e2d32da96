import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { fuseStoredRuns, ZFuse } from "@/lib/runs/fuse";

export const dynamic = "force-dynamic";

/** Fuses stored runs into a new run (lib/runs/fuse.ts), as `assessor fuse` + `assessor import run`. */
export const POST = route({ roles: rolesFor("manageProject"), body: ZFuse }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return fuseStoredRuns(db, project.id, body);
});
