import { AdjudicatePage } from "@/components/adjudicate/AdjudicatePage";
import { requirePagePermission } from "@/lib/auth/page";
import { intId } from "@/lib/bounds";

export const dynamic = "force-dynamic";

/** `?project=ID` opens that project (the lead's Flags and notes links here); else the one with work. */
export default async function Adjudicate({ searchParams }: { searchParams: Promise<{ project?: string | string[] }> }) {
  await requirePagePermission("adjudicate", "/adjudicate");
  const project = (await searchParams).project;
  return (
    <main>
      <AdjudicatePage initialProject={typeof project === "string" ? intId(project) : null} />
    </main>
  );
}
