import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { annotatorQueue } from "@/lib/annotate/view";

/** The signed-in annotator's queue (lib/annotate/view.ts: the only source of annotator data). */
export const GET = route({ roles: ["annotator"] }, async ({ user }) => annotatorQueue(await getDb(), user.id));
