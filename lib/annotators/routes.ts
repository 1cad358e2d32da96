import { z } from "zod";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { projectIdParam } from "../lead/projects.ts";
import { annotatorsCsv } from "./csv.ts";
import { annotatorsReport, type TAnnotatorsReport } from "./report.ts";

/** The Annotators card's query: the judge to compare with (the page's), the time threshold, CSV. */
export const ZAnnotatorsQuery = z.object({
  judge: z.string().trim().min(1).max(200).optional(),
  fastSeconds: z.coerce.number().min(0, "fastSeconds: expected 0 or more seconds").max(3600).optional(),
  format: z.enum(["json", "csv"]).default("json"),
});
export type TAnnotatorsQuery = z.infer<typeof ZAnnotatorsQuery>;

/**
 * The Annotators card's data (pseudonymous ids: the dashboard is also the adjudicator's, and the
 * card is about grading habits, not people), or its CSV download.
 */
export async function annotatorsCard(
  db: Db,
  rawProjectId: unknown,
  q: TAnnotatorsQuery,
): Promise<TAnnotatorsReport | Response> {
  const projectId = projectIdParam(rawProjectId);
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true } });
  if (!project) throw new AppError("not_found", `no project with id ${projectId}`);
  const report = await annotatorsReport(db, projectId, {
    judge: q.judge,
    fastMs: q.fastSeconds === undefined ? undefined : q.fastSeconds * 1000,
  });
  if (q.format === "json") return report;
  return new Response(annotatorsCsv(report), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="annotators-project-${projectId}.csv"`,
    },
  });
}
