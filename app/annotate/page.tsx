import { AnnotateProjects } from "@/components/annotate/AnnotateProjects";
import { annotatorOpening } from "@/lib/annotate/view";
import { queuePageSize } from "@/lib/annotate/queue";
import { requirePagePermission } from "@/lib/auth/page";
import { getDb } from "@/lib/db/client";

export const dynamic = "force-dynamic";

/**
 * The annotator's page. Item data comes only from lib/annotate/view.ts: the first queue page and
 * item are read here with the page (annotatorOpening, the same reads as /api/annotate), so the first
 * item is in the HTML; everything after that comes via /api/annotate.
 */
export default async function Annotate({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requirePagePermission("annotate", "/annotate");
  // The project as AnnotateProjects reads it from the URL (`?project=ID`; anything else: the server's pick).
  const raw = (await searchParams).project;
  const wanted = Number(typeof raw === "string" ? raw : undefined);
  const projectId = Number.isInteger(wanted) && wanted > 0 ? wanted : null;
  // If the read fails (the database briefly unreachable), the page still opens: the client asks
  // /api/annotate as before, which answers with the error and a retry hint.
  const opening = await getDb()
    .then((db) => annotatorOpening(db, user.id, projectId, queuePageSize()))
    .catch(() => null);
  return (
    <main>
      <AnnotateProjects userId={user.id} email={user.email} opening={opening} openingFor={projectId} />
    </main>
  );
}
