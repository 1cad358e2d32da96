import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { fileSafeName } from "@/lib/exports/file-name";
import { getProject, projectIdParam } from "@/lib/lead/projects";
import { projectChunks } from "@/lib/projects/lifecycle";

export const dynamic = "force-dynamic";

/** The chunks as JSONL in the chunk import's format (`assessor chunks export`), streamed as a download. */
export const GET = route({ roles: rolesFor("manageProject") }, async ({ params }) => {
  const db = await getDb();
  const project = await getProject(db, projectIdParam(params.projectId));
  const rows = projectChunks(db, project.id);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await rows.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(`${JSON.stringify(next.value)}\n`));
    },
    async cancel() {
      await rows.return(undefined);
    },
  });
  const safeName = fileSafeName(project.name);
  return new Response(body, {
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": `attachment; filename="${safeName}.chunks.jsonl"`,
    },
  });
});
