import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { zInt32 } from "@/lib/bounds";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { assign, type TAssignResult } from "@/lib/assignment/assign";
import { assignAnswers } from "@/lib/answers/assign";

export const dynamic = "force-dynamic";

const ZAssignBody = z.object({
  perItem: z.number().int().min(1).max(10),
  annotators: z.array(z.string().min(1)).min(1).optional(),
  sample: zInt32(1).optional(),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  dryRun: z.boolean().optional(),
  includeLabelled: z.boolean().optional(),
  /** Assign generated answers (lib/answers/assign.ts) instead of pool items; `sample` and `includeLabelled` do not apply. */
  answers: z.boolean().optional(),
});

/**
 * Assigns; with `dryRun: true` says what it would do and writes nothing; the preview's `seed` makes the confirmed call do just that.
 * With `answers: true`, the project's generated answers (the result in the same shape: `items` are answers).
 */
export const POST = route(
  { roles: rolesFor("manageProject"), body: ZAssignBody },
  async ({ params, body }): Promise<TAssignResult> => {
    const db = await getDb();
    const project = await getProject(db, projectIdParam(params.projectId));
    if (!body.answers) return assign(db, project.id, body);
    const r = await assignAnswers(db, project.id, {
      perItem: body.perItem,
      annotators: body.annotators,
      seed: body.seed,
      dryRun: body.dryRun,
    });
    return {
      seed: r.seed,
      perItem: r.perItem,
      items: r.answers,
      itemsToppedUp: r.answersToppedUp,
      created: r.created,
      calibration: 0,
      questions: 0,
      unstable: 0,
      shortfall: r.shortfall,
      labelledSkipped: 0,
      annotators: r.annotators,
    };
  },
);
