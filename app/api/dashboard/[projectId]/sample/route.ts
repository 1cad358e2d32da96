import { rolesFor } from "@/lib/auth/permissions";
import { sampleForCalibration, ZSampleRequest } from "@/lib/dashboard/routes";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

// Assigning work is the lead's: adjudicators see the dashboard but cannot sample.
export const POST = route({ roles: rolesFor("manageProject"), body: ZSampleRequest }, async ({ params, body }) =>
  sampleForCalibration(await getDb(), params.projectId, body),
);
