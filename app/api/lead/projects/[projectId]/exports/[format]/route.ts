import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { fileSafeName } from "@/lib/exports/file-name";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { exportFileName, exportLabels, sidecarText, type TExportFormat } from "@/lib/exports/labels";
import { findChunking } from "@/lib/chunkings/store";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  format: z.enum(["jsonl", "csv"]).optional(),
  chunking: z.string().trim().min(1).max(64).optional(),
  manifest: z.enum(["1"]).optional(),
  /** `names=1`: people by name in the labels' last columns (default: pseudonymous ids). */
  names: z.enum(["1"]).optional(),
});

/**
 * Downloads: /exports/qrels, /exports/labels?format=jsonl|csv; `chunking=NAME` keeps one chunking's
 * labels (lib/chunkings; default: labels all, qrels one chunking: lib/exports/labels.ts qrelsChunking). The label-set version travels in the file name
 * (`exportFileName`), the headers (X-Label-Set-Sha256, X-Label-Set-Created-At) and, with
 * `manifest=1`, as the sidecar JSON `<file>.version.json` (label_set_version, format, file_sha256);
 * JSONL also carries it in its first line. No line inside qrels or CSV.
 */
export const GET = route({ roles: rolesFor("manageProject"), query: ZQuery }, async ({ params, query }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  let format: TExportFormat;
  if (params.format === "qrels") format = "qrels";
  else if (params.format === "labels") format = query.format ?? "jsonl";
  else throw new AppError("not_found", `no export "${String(params.format)}"; exports: qrels, labels`);
  const chunking = query.chunking === undefined ? undefined : await findChunking(db, project.id, query.chunking);
  const e = await exportLabels(db, project.id, format, new Date(), {
    chunkingId: chunking?.id,
    names: query.names === "1",
  });
  const fileName = exportFileName(fileSafeName(project.name), format, e.version);
  const manifest = query.manifest === "1";
  const type = manifest
    ? "application/json"
    : format === "csv"
      ? "text/csv"
      : format === "jsonl"
        ? "application/x-ndjson"
        : "text/plain";
  return new Response(manifest ? sidecarText(e, format) : e.content, {
    headers: {
      "Content-Type": `${type}; charset=utf-8`,
      "Content-Disposition": `attachment; filename="${manifest ? `${fileName}.version.json` : fileName}"`,
      "X-Label-Set-Sha256": e.version.sha256,
      "X-Label-Set-Created-At": e.version.created_at,
      "X-File-Sha256": e.fileSha256,
    },
  });
});
