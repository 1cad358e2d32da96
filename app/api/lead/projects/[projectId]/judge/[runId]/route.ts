import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { findRun, cancelRun, requeueFailed } from "@/lib/judge/store";
import { summarise } from "@/lib/judge/service";
import { stopLocal, workInBackground } from "@/lib/judge/background";

export const dynamic = "force-dynamic";

const ZAction = z.object({ action: z.enum(["cancel", "resume"]), retryFailed: z.boolean().default(false) });

/** Cancel a run for good, or resume it (in the background of this server; optionally retrying failed pairs). */
export const POST = route({ roles: rolesFor("manageProject"), body: ZAction }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  const run = await findRun(db, project.id, String(params.runId ?? ""));
  if (body.action === "cancel") {
    await cancelRun(db, run.id);
    stopLocal(run.id);
  } else {
    if (body.retryFailed) await requeueFailed(db, run.id);
    await workInBackground(db, run.id);
  }
  return summarise(db, await db.judgeRun.findUniqueOrThrow({ where: { id: run.id } }));
});
