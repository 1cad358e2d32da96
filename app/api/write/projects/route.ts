import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { writeProjects } from "@/lib/questions/store";

export const dynamic = "force-dynamic";

/** Projects the signed-in user may write questions in. */
export const GET = route({ roles: rolesFor("writeQuestions") }, async ({ user }) => writeProjects(await getDb(), user));
