import { AnnotateProjects } from "@/components/annotate/AnnotateProjects";
import { requirePagePermission } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

/** The annotator's page. Renders no item data on the server: everything comes from lib/annotate/view.ts via /api/annotate. */
export default async function Annotate() {
  const user = await requirePagePermission("annotate", "/annotate");
  return (
    <main>
      <AnnotateProjects userId={user.id} email={user.email} />
    </main>
  );
}
