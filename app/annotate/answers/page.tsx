import { AnswerTask } from "@/components/answers/AnswerTask";
import { requirePagePermission } from "@/lib/auth/page";
import { intId } from "@/lib/bounds";

export const dynamic = "force-dynamic";

/** The answer task. Renders no answer data on the server: everything comes from lib/answers/view.ts via /api/annotate/answers. */
export default async function AnnotateAnswers({
  searchParams,
}: {
  searchParams: Promise<{ project?: string | string[] }>;
}) {
  const user = await requirePagePermission("annotate", "/annotate/answers");
  const project = (await searchParams).project;
  return (
    <main>
      <AnswerTask userId={user.id} projectId={typeof project === "string" ? intId(project) : null} />
    </main>
  );
}
