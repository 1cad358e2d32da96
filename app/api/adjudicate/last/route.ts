import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { adjudicatorLastDecision } from "@/lib/annotate/adjudicate";
import { rolesFor } from "@/lib/auth/permissions";
import { projectIdParam } from "@/lib/lead/projects";

const ZQuery = z.object({ projectId: z.string() });

/** The caller's last decision in a project with its item, for `u` on a later visit; `{ item: null }` when none. */
export const GET = route({ roles: rolesFor("adjudicate"), query: ZQuery }, async ({ query, user }) => ({
  item: await adjudicatorLastDecision(await getDb(), projectIdParam(query.projectId), user.id),
}));
