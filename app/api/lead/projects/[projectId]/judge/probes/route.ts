import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { zInt32 } from "@/lib/bounds";
import { getProbes } from "@/lib/dashboard/probes";
import { startProbes } from "@/lib/judge/probe/start";
import { PROBE_KINDS } from "@/lib/judge/probe/perturb";
import { TEMPLATE_MAX_CHARS } from "@/lib/judge/placeholders";

export const dynamic = "force-dynamic";

/** The Judge robustness card (lead only: the probes name the runs and show grades of pairs). */
export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return getProbes(db, project.id);
});

const ZProbeRequest = z.object({
  run: z.string().trim().min(1).max(200),
  sample: zInt32(1),
  seed: z.number().int().min(0).max(4_294_967_295).optional(),
  kinds: z.array(z.enum(PROBE_KINDS)).optional(),
  template: z.string().max(TEMPLATE_MAX_CHARS).optional(),
});

/** Makes (or finds, same sample and seed) the run's probes and works them in the background of this server. */
export const POST = route({ roles: rolesFor("manageProject"), body: ZProbeRequest }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return startProbes(db, project.id, body);
});
