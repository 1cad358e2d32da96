import { ProjectsPage } from "@/components/lead/ProjectsPage";
import { requirePagePermission } from "@/lib/auth/page";

export default async function LeadHome() {
  await requirePagePermission("manageProject", "/lead");
  return <ProjectsPage />;
}
