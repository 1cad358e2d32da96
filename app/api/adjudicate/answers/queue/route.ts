import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { projectIdParam } from "@/lib/lead/projects";
import { answerAdjudicationQueue } from "@/lib/answers/adjudicate";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ projectId: z.string() });

/** Answers of one project whose annotators' labels disagree and nobody has decided yet (A and B, no names). */
export const GET = route({ roles: rolesFor("adjudicate"), query: ZQuery }, async ({ query }) =>
  answerAdjudicationQueue(await getDb(), projectIdParam(query.projectId)),
);
