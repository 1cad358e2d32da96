import { AnswerAdjudicate } from "@/components/answers/AnswerAdjudicate";
import { requirePagePermission } from "@/lib/auth/page";
import { intId } from "@/lib/bounds";

export const dynamic = "force-dynamic";

/** Answer disagreements: `?project=ID` opens that project; else the first with answers waiting. */
export default async function AdjudicateAnswers({
  searchParams,
}: {
  searchParams: Promise<{ project?: string | string[] }>;
}) {
  await requirePagePermission("adjudicate", "/adjudicate/answers");
  const project = (await searchParams).project;
  return (
    <main>
      <AnswerAdjudicate initialProject={typeof project === "string" ? intId(project) : null} />
    </main>
  );
}
