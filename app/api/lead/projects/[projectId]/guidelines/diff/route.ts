import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { diffGuidelines } from "@/lib/projects/guidelines";

export const dynamic = "force-dynamic";

const revision = (name: string) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `${name}: expected a revision number (0 or more)`)
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, `${name}: expected at most 2147483647`);

const ZDiffQuery = z.object({ from: revision("from"), to: revision("to") });

/** The line diff between two revisions of the guidelines (`?from=1&to=2`; 0 is the empty text before the first save). */
export const GET = route({ roles: rolesFor("manageProject"), query: ZDiffQuery }, async ({ params, query }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return diffGuidelines(db, project.id, query.from, query.to);
});
