import { z } from "zod";
import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { projectIdParam } from "../lead/projects.ts";
import { reportMarkdown } from "./report-md.ts";
import { findJudge } from "./label-sets.ts";
import { refuseProbeJudge } from "./probe/spec.ts";
import { judgeReport } from "./report.ts";

/** The Judge trust card's download: the judge's trust report as Markdown or JSON (lead only). */
export const ZTrustReportQuery = z.object({
  judge: z.string().trim().min(1).max(200),
  format: z.enum(["md", "json"]).default("md"),
  gain: z.enum(["exponential", "linear"]).default("exponential"),
});

export async function trustReportDownload(
  db: Db,
  rawProjectId: unknown,
  q: z.infer<typeof ZTrustReportQuery>,
): Promise<Response> {
  const projectId = projectIdParam(rawProjectId);
  if (!(await db.project.findUnique({ where: { id: projectId }, select: { id: true } })))
    throw new AppError("not_found", `no project with id ${projectId}`);
  // The card's judge is the dashboard's, which is never a robustness probe (`judge report` on the command line still reports one).
  const found = await findJudge(db, projectId, q.judge);
  refuseProbeJudge(found.run ? found.run.judge : found.labelSet.judge);
  const report = await judgeReport(db, projectId, q.judge, { gain: q.gain });
  const name = `trust-${report.judge.replace(/[^A-Za-z0-9._-]+/g, "_")}.${report.sha256.slice(0, 12)}.${q.format}`;
  return new Response(q.format === "json" ? `${JSON.stringify(report, null, 2)}\n` : reportMarkdown(report), {
    headers: {
      "Content-Type": q.format === "json" ? "application/json; charset=utf-8" : "text/markdown; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "X-Report-Sha256": report.sha256,
    },
  });
}
