import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { createProject, listProjects, ZProjectCreate } from "@/lib/lead/projects";
import { rolesFor } from "@/lib/auth/permissions";

export const dynamic = "force-dynamic";

const roles = rolesFor("manageProject");

export const GET = route({ roles }, async () => listProjects(await getDb()));

export const POST = route({ roles, body: ZProjectCreate }, async ({ body }) =>
  Response.json(await createProject(await getDb(), body), { status: 201 }),
);
