import { rolesFor } from "@/lib/auth/permissions";
import { ZDashboardQuery } from "@/lib/dashboard/options";
import { servePanel } from "@/lib/dashboard/routes";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({ roles: rolesFor("viewDashboard"), query: ZDashboardQuery }, async ({ params, query }) =>
  servePanel(await getDb(), params.projectId, params.panel, query),
);
