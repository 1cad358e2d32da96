import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { listChunkings } from "@/lib/chunkings/store";

export const dynamic = "force-dynamic";

/** Every chunking of the project with its parameters, chunk count and runs (`assessor chunking list`). */
export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return listChunkings(db, project.id);
});
