import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { reviewData } from "@/lib/questions/review";

export const dynamic = "force-dynamic";

/** The review list: every question with overlap, BM25 rank, near-duplicates, per-author and per-tag counts. */
export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  return { ...(await reviewData(db, project.id)), settings: { transcriptWhileWriting: project.transcriptWhileWriting, annotatorsMayAuthor: project.annotatorsMayAuthor } };
});
