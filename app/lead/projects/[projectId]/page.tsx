import { notFound } from "next/navigation";
import { ProjectPage } from "@/components/lead/ProjectPage";
import { requirePagePermission } from "@/lib/auth/page";

export default async function LeadProject({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  await requirePagePermission("manageProject", `/lead/projects/${projectId}`);
  if (!/^[1-9][0-9]{0,9}$/.test(projectId)) notFound();
  return <ProjectPage projectId={Number(projectId)} />;
}
