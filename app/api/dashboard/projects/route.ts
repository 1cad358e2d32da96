import { rolesFor } from "@/lib/auth/permissions";
import { listDashboardProjects } from "@/lib/dashboard/routes";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({ roles: rolesFor("viewDashboard") }, async () => listDashboardProjects(await getDb()));
