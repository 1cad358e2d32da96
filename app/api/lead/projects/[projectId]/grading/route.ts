import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { projectIdParam } from "@/lib/lead/projects";
import { setGradingClosed } from "@/lib/projects/grading";

export const dynamic = "force-dynamic";

/** Closes (`{ closed: true }`) or reopens grading in the project (lib/projects/grading.ts); `assessor project close-grading` / `reopen-grading`. */
export const POST = route(
  { roles: rolesFor("manageProject"), body: z.object({ closed: z.boolean() }) },
  async ({ params, body }) => setGradingClosed(await getDb(), projectIdParam(params.projectId), body.closed),
);
