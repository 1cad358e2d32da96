import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { assign } from "@/lib/assignment/assign";

export const dynamic = "force-dynamic";

const ZAssignBody = z.object({
  perItem: z.number().int().min(1).max(10),
  annotators: z.array(z.string().min(1)).min(1).optional(),
  sample: z.number().int().min(1).optional(),
  seed: z.number().int().min(0).max(2 ** 32 - 1).optional(),
  dryRun: z.boolean().optional(),
  includeLabelled: z.boolean().optional(),
});

/** Assigns; with `dryRun: true` says what it would do and writes nothing; the preview's `seed` makes the confirmed call do just that. */
export const POST = route({ roles: rolesFor("manageProject"), body: ZAssignBody }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return assign(db, project.id, body);
});
