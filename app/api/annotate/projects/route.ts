import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { annotatorProjects } from "@/lib/annotate/queue";

export const dynamic = "force-dynamic";

/** The projects the signed-in annotator has items in, with counts, and the one to open (lib/annotate/view.ts). */
export const GET = route({ roles: ["annotator"] }, async ({ user, req }) =>
  annotatorProjects(await getDb(), user.id, req.signal),
);
