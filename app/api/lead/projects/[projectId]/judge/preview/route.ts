import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { previewPrompts } from "@/lib/judge/service";
import { PREVIEW_TEMPLATE_MAX_CHARS, templateTooLong } from "@/lib/judge/placeholders";

export const dynamic = "force-dynamic";

const ZPreview = z.object({
  template: z
    .string()
    .max(PREVIEW_TEMPLATE_MAX_CHARS, templateTooLong(PREVIEW_TEMPLATE_MAX_CHARS, "the preview"))
    .optional(),
  only: z.string().trim().min(1).optional(),
  target: z.enum(["chunks", "answers"]).default("chunks"),
});

/** The prompt the model would get for the subset's first pair, or first answer with `target: "answers"` (nothing is sent to a model). */
export const POST = route({ roles: rolesFor("manageProject"), body: ZPreview }, async ({ params, body }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return { prompts: await previewPrompts(db, project.id, body, 1) };
});
