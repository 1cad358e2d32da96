import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { fileSafeName } from "@/lib/exports/file-name";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { answerExportFileName, answerSidecarText, exportAnswerLabels } from "@/lib/answers/export";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  kind: z.enum(["claims", "answers"]).default("claims"),
  format: z.enum(["jsonl", "csv"]).default("jsonl"),
  system: z.string().trim().min(1).max(200).optional(),
  manifest: z.enum(["1"]).optional(),
  /** `names=1`: people by name in the last columns (default: pseudonymous ids). */
  names: z.enum(["1"]).optional(),
});

/**
 * Downloads of the answers' reference labels (lib/answers/export.ts):
 * /exports/answers?kind=claims|answers&format=jsonl|csv[&system=NAME][&names=1]. As /exports/labels: the
 * version in the file name, the headers and, with `manifest=1`, the sidecar `<file>.version.json`.
 */
export const GET = route({ roles: rolesFor("manageProject"), query: ZQuery }, async ({ params, query }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  const e = await exportAnswerLabels(db, project.id, query.kind, query.format, new Date(), {
    system: query.system,
    names: query.names === "1",
  });
  const fileName = answerExportFileName(fileSafeName(project.name), query.kind, query.format, e.version);
  const manifest = query.manifest === "1";
  const type = manifest ? "application/json" : query.format === "csv" ? "text/csv" : "application/x-ndjson";
  return new Response(manifest ? answerSidecarText(e, query.format) : e.content, {
    headers: {
      "Content-Type": `${type}; charset=utf-8`,
      "Content-Disposition": `attachment; filename="${manifest ? `${fileName}.version.json` : fileName}"`,
      "X-Label-Set-Sha256": e.version.sha256,
      "X-Label-Set-Created-At": e.version.created_at,
      "X-File-Sha256": e.fileSha256,
    },
  });
});
