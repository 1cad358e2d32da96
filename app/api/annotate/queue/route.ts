import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { intId } from "@/lib/bounds";
import {
  annotatorQueuePage,
  MAX_QUEUE_PAGE,
  openingProject,
  queuePageSize,
  type TQueuePage,
} from "@/lib/annotate/queue";

export const dynamic = "force-dynamic";

const ZQueueQuery = z
  .object({
    projectId: z.string().optional(),
    after: z.string().min(1).max(100).optional(),
    before: z.string().min(1).max(100).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_QUEUE_PAGE).optional(),
  })
  .refine((q) => q.after === undefined || q.before === undefined, {
    message: "give after or before, not both",
    path: ["before"],
  });

/**
 * One page of the signed-in annotator's queue in one project (lib/annotate/view.ts: the only source
 * of annotator data): `?projectId=&after=|before=<item id>&limit=`; without projectId, the project
 * to open (openingProject). 404 for a project without items of theirs or a cursor not theirs.
 */
export const GET = route({ roles: ["annotator"], query: ZQueueQuery }, async ({ user, query }): Promise<TQueuePage> => {
  const db = await getDb();
  let projectId: number | null;
  if (query.projectId === undefined) projectId = await openingProject(db, user.id);
  else {
    projectId = intId(query.projectId);
    if (projectId === null) throw new AppError("not_found", "no items of yours in that project");
  }
  if (projectId === null) return { project: null, items: [], questions: [], hasBefore: false, hasAfter: false };
  const page = await annotatorQueuePage(db, user.id, projectId, {
    after: query.after,
    before: query.before,
    limit: query.limit ?? queuePageSize(),
  });
  if (!page)
    throw new AppError(
      "not_found",
      (query.after ?? query.before)
        ? "no such item in your queue in that project"
        : "no items of yours in that project",
    );
  return page;
});
