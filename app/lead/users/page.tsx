import { UsersPage } from "@/components/lead/UsersPage";
import { requirePagePermission } from "@/lib/auth/page";

export default async function LeadUsers() {
  const user = await requirePagePermission("manageProject", "/lead/users");
  return <UsersPage selfId={user.id} />;
}
