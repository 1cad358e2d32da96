import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { ZRunSettings } from "@/lib/judge/create";
import { judgeDefaults, listJudgeRuns, startRun, summarise } from "@/lib/judge/service";
import { workInBackground } from "@/lib/judge/background";

export const dynamic = "force-dynamic";

/** The project's judge runs (newest first) with their progress, and the form's defaults. */
export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return { runs: await listJudgeRuns(db, project.id), defaults: judgeDefaults() };
});

/** Starts a run (`target`: "chunks", the default, or "answers"): checked, written, then worked in the background of this server. */
export const POST = route({ roles: rolesFor("manageProject"), body: ZRunSettings }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  const { run } = await startRun(db, project.id, body, process.env, "page");
  await workInBackground(db, run.id);
  return summarise(db, await db.judgeRun.findUniqueOrThrow({ where: { id: run.id } }));
});
