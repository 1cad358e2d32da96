import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { ZWritingSettings } from "@/lib/questions/schemas";

export const dynamic = "force-dynamic";

/** Writing settings: transcript visible while writing, annotators may author (both off by default). */
export const PATCH = route({ roles: rolesFor("manageProject"), body: ZWritingSettings }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  const p = await db.project.update({
    where: { id: project.id },
    data: body,
    select: { transcriptWhileWriting: true, annotatorsMayAuthor: true },
  });
  return p;
});
