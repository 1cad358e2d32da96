import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { projectIdParam } from "@/lib/lead/projects";
import { writeContext } from "@/lib/questions/store";

export const dynamic = "force-dynamic";

/** Videos, tags and the writer's own questions; 403 for an annotator the project does not allow. */
export const GET = route({ roles: rolesFor("writeQuestions") }, async ({ user, params }) =>
  writeContext(await getDb(), projectIdParam(params.projectId), user),
);
