import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { reviewData } from "@/lib/questions/review";
import { ZReviewQuery } from "@/lib/questions/schemas";

export const dynamic = "force-dynamic";

/**
 * The review list, a page at a time (`offset`, `limit` ≤ 500 questions; `clusterOffset`,
 * `clusterLimit` ≤ 200 near-duplicate groups): questions with overlap, BM25 rank and their group,
 * per-author and per-tag counts.
 */
export const GET = route({ roles: rolesFor("manageProject"), query: ZReviewQuery }, async ({ params, query }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return {
    ...(await reviewData(db, project.id, query)),
    settings: {
      transcriptWhileWriting: project.transcriptWhileWriting,
      annotatorsMayAuthor: project.annotatorsMayAuthor,
    },
  };
});
