import { rolesFor } from "@/lib/auth/permissions";
import { annotatorsCard, ZAnnotatorsQuery } from "@/lib/annotators/routes";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({ roles: rolesFor("viewDashboard"), query: ZAnnotatorsQuery }, async ({ params, query }) =>
  annotatorsCard(await getDb(), params.projectId, query),
);
