import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { answerAdjudicationCounts } from "@/lib/answers/adjudicate";

export const dynamic = "force-dynamic";

/** Per project with answers: how many wait for a decision (the adjudicator's "Answers (N)"). */
export const GET = route({ roles: rolesFor("adjudicate") }, async () => answerAdjudicationCounts(await getDb()));
