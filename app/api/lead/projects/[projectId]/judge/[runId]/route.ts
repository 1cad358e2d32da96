import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { findRun, cancelRun, requeueFailed, taskTable } from "@/lib/judge/store";
import { summarise } from "@/lib/judge/service";
import { stopLocal, workInBackground } from "@/lib/judge/background";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const ZAction = z.object({ action: z.enum(["cancel", "resume"]), retryFailed: z.boolean().default(false) });

/** Cancel a run for good, or resume it (in the background of this server; optionally retrying failed pairs or answers). Chunk and answer runs alike. */
export const POST = route({ roles: rolesFor("manageProject"), body: ZAction }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  const run = await findRun(db, project.id, String(params.runId ?? ""));
  if (body.action === "cancel") {
    await cancelRun(db, run.id);
    stopLocal(run.id);
  } else {
    // Resume is for stopped runs (and runs whose workers died); a cancelled or completed one is final.
    if (run.status === "cancelled" || (run.status === "completed" && !body.retryFailed))
      throw new AppError("conflict", `run ${run.id} (${run.judge}) is ${run.status}: start a new run to judge again`);
    if (body.retryFailed) await requeueFailed(db, run.id, taskTable(run.target));
    await workInBackground(db, run.id);
  }
  return summarise(db, await db.judgeRun.findUniqueOrThrow({ where: { id: run.id } }));
});
