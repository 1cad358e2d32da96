import { WritePage } from "@/components/questions/WritePage";
import { requirePagePermission } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

/** Writing questions while watching: leads, and annotators in projects that allow it (checked again by every /api/write route). */
export default async function Write() {
  await requirePagePermission("writeQuestions", "/write");
  return (
    <main className="mx-auto max-w-6xl space-y-4 p-6">
      <h1 className="text-xl font-semibold">Write questions</h1>
      <WritePage />
    </main>
  );
}
