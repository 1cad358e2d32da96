import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { answerProjects } from "@/lib/generation/view";

export const dynamic = "force-dynamic";

/** The projects where the signed-in annotator has answers to label, with their own counts (lib/generation/view.ts). */
export const GET = route({ roles: ["annotator"] }, async ({ user }) => ({
  projects: await answerProjects(await getDb(), user.id),
}));
