import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { answerProjects } from "@/lib/answers/view";

export const dynamic = "force-dynamic";

/** The projects where the signed-in annotator has answers to label, with their own counts (lib/answers/view.ts). */
export const GET = route({ roles: ["annotator"] }, async ({ user }) => ({
  projects: await answerProjects(await getDb(), user.id),
}));
