import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { projectIdParam } from "@/lib/lead/projects";
import { writeTranscript } from "@/lib/questions/store";

export const dynamic = "force-dynamic";

/** A video's transcript while writing: 403 unless the project allows it. */
export const GET = route(
  { roles: rolesFor("writeQuestions"), query: z.object({ video: z.coerce.number().int().min(1).max(2147483647) }) },
  async ({ user, params, query }) =>
    writeTranscript(await getDb(), projectIdParam(params.projectId), query.video, user),
);
