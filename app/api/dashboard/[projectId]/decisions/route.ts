import { rolesFor } from "@/lib/auth/permissions";
import { decisionsCard, drawForDecision, ZDrawRequest } from "@/lib/decisions/routes";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({ roles: rolesFor("viewDashboard") }, async ({ params }) =>
  decisionsCard(await getDb(), params.projectId),
);

// Drawing questions assigns work: the lead's, as the calibration sample.
export const POST = route({ roles: rolesFor("manageProject"), body: ZDrawRequest }, async ({ params, body }) =>
  drawForDecision(await getDb(), params.projectId, body),
);
