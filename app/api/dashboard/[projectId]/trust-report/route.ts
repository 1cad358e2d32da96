import { rolesFor } from "@/lib/auth/permissions";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { trustReportDownload, ZTrustReportQuery } from "@/lib/judge/report-route";

export const dynamic = "force-dynamic";

export const GET = route({ roles: rolesFor("manageProject"), query: ZTrustReportQuery }, async ({ params, query }) =>
  trustReportDownload(await getDb(), params.projectId, query),
);
