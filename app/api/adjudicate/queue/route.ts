import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { adjudicatorQueue } from "@/lib/annotate/adjudicate";
import { rolesFor } from "@/lib/auth/permissions";

const ZQuery = z.object({ projectId: z.coerce.number().int().positive() });

/** Items of one project whose annotators disagree and nobody has decided yet. */
export const GET = route({ roles: rolesFor("adjudicate"), query: ZQuery }, async ({ query }) => adjudicatorQueue(await getDb(), query.projectId));
