import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { getProject, projectIdParam, updateProjectSettings, ZProjectSettingsPatch } from "@/lib/lead/projects";
import { rolesFor } from "@/lib/auth/permissions";

export const dynamic = "force-dynamic";

const roles = rolesFor("manageProject");

export const GET = route({ roles }, async ({ params }) => getProject(await getDb(), projectIdParam(params.projectId)));

export const PATCH = route({ roles, body: ZProjectSettingsPatch }, async ({ params, body }) => updateProjectSettings(await getDb(), projectIdParam(params.projectId), body));
