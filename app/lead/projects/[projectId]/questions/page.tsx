import { notFound } from "next/navigation";
import { ReviewPage } from "@/components/questions/ReviewPage";
import { requirePagePermission } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

export default async function Questions({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  await requirePagePermission("manageProject", `/lead/projects/${projectId}/questions`);
  if (!/^[1-9][0-9]{0,9}$/.test(projectId)) notFound();
  return (
    <div className="mx-auto max-w-7xl space-y-4 p-6">
      <h1 className="text-xl font-semibold">Review questions</h1>
      <ReviewPage projectId={Number(projectId)} />
    </div>
  );
}
