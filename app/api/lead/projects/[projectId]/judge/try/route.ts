import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { ZRunSettings } from "@/lib/judge/create";
import { tryJudge } from "@/lib/judge/trial";

export const dynamic = "force-dynamic";

/** "Try on 5 pairs": the model grades a random sample of the subset, stratified by human grade; nothing is written. */
export const POST = route({ roles: rolesFor("manageProject"), body: ZRunSettings }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return { rows: await tryJudge(db, project.id, body, process.env, undefined, "page") };
});
