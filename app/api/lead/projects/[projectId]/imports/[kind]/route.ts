import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { importUpload } from "@/lib/lead/run-import";
import { readBodyLimited, uploadLimitBytes } from "@/lib/http/limits";

export const dynamic = "force-dynamic";

/**
 * The file is the raw request body; its name and the import's options are query parameters.
 * A body past ASSESSOR_UPLOAD_LIMIT_MB is refused with 413 before it is read to the end.
 */
export const POST = route({ roles: rolesFor("manageProject") }, async ({ params, req }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  const options = Object.fromEntries(new URL(req.url).searchParams.entries());
  const bytes = await readBodyLimited(req, uploadLimitBytes(), "ASSESSOR_UPLOAD_LIMIT_MB");
  return importUpload(db, project.id, String(params.kind), options, bytes);
});
