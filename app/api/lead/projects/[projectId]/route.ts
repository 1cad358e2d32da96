import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { getProject, projectIdParam, updateProjectSettings, ZProjectSettingsPatch } from "@/lib/lead/projects";
import { rolesFor } from "@/lib/auth/permissions";
import { AppError } from "@/lib/errors";
import { defaultBackupDir, deleteProject } from "@/lib/projects/lifecycle";
import { z } from "zod";

export const dynamic = "force-dynamic";

const roles = rolesFor("manageProject");

export const GET = route({ roles }, async ({ params }) => getProject(await getDb(), projectIdParam(params.projectId)));

export const PATCH = route({ roles, body: ZProjectSettingsPatch }, async ({ params, body, user }) =>
  updateProjectSettings(await getDb(), projectIdParam(params.projectId), body, user.id),
);

const ZDelete = z.object({ confirm: z.string(), force: z.boolean().optional() });

/**
 * Deletes the project (`assessor project delete NAME --yes [--force]`). The body repeats the
 * project's name; a project holding human labels needs `force`, and then the reference label set
 * is first written on the server under data/backups/ (the answer names the files).
 */
export const DELETE = route({ roles, body: ZDelete }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  if (body.confirm !== project.name)
    throw new AppError("bad_input", `type the project's name, "${project.name}", to confirm the delete`);
  const now = new Date();
  return deleteProject(db, project.id, {
    force: body.force,
    now,
    backupDir: defaultBackupDir(project.name, now, `${process.cwd()}/data/backups`),
  });
});
