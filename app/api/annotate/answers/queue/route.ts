import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { intId } from "@/lib/bounds";
import { answerProjects, answerQueuePage, ANSWER_PAGE, type TAnswerQueuePage } from "@/lib/answers/view";

export const dynamic = "force-dynamic";

const ZQueueQuery = z.object({
  projectId: z.string().optional(),
  after: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/**
 * One page of the signed-in annotator's answer queue (lib/answers/view.ts): `?projectId=&after=<answer id>&limit=`
 * (50 by default); without projectId, the first project with answers of theirs left to label (else the first with any).
 * 404 for a project without answers of theirs or a cursor not theirs.
 */
export const GET = route(
  { roles: ["annotator"], query: ZQueueQuery },
  async ({ user, query }): Promise<TAnswerQueuePage> => {
    const db = await getDb();
    let projectId: number | null;
    if (query.projectId === undefined) {
      const projects = await answerProjects(db, user.id);
      projectId = (projects.find((p) => p.done < p.total) ?? projects[0])?.id ?? null;
      if (projectId === null) return { project: null, total: 0, done: 0, items: [], hasAfter: false };
    } else projectId = intId(query.projectId);
    const page =
      projectId === null
        ? null
        : await answerQueuePage(db, user.id, projectId, { after: query.after, limit: query.limit ?? ANSWER_PAGE });
    if (!page || (page.project === null && query.projectId !== undefined))
      throw new AppError(
        "not_found",
        query.after ? "no such answer in your queue in that project" : "no answers of yours in that project",
      );
    return page;
  },
);
