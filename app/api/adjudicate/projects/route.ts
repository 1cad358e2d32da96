import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { adjudicatorProjects } from "@/lib/annotate/adjudicate";
import { rolesFor } from "@/lib/auth/permissions";

export const GET = route({ roles: rolesFor("adjudicate") }, async () => adjudicatorProjects(await getDb()));
