import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { adjudicatorQueue } from "@/lib/annotate/adjudicate";
import { rolesFor } from "@/lib/auth/permissions";
import { projectIdParam } from "@/lib/lead/projects";

// The id as given: projectIdParam answers 404 for anything that cannot be a project (lib/bounds.ts).
const ZQuery = z.object({ projectId: z.string() });

/** Items of one project whose annotators disagree and nobody has decided yet. */
export const GET = route({ roles: rolesFor("adjudicate"), query: ZQuery }, async ({ query }) =>
  adjudicatorQueue(await getDb(), projectIdParam(query.projectId)),
);
