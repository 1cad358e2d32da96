import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { buildPool } from "@/lib/pooling/build";

export const dynamic = "force-dynamic";

const ZPoolBody = z.object({
  depth: z.number().int().min(1).max(1000),
  runs: z.array(z.string().min(1)).min(1).optional(),
  chunking: z.string().min(1).max(64).optional(),
  dryRun: z.boolean().optional(),
});

/** Builds the pool; with `dryRun: true` says what it would do and writes nothing (the page's preview). */
export const POST = route({ roles: rolesFor("manageProject"), body: ZPoolBody }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return buildPool(db, project.id, body);
});
