import { Suspense } from "react";
import { DashboardPage } from "@/components/dashboard/DashboardPage";
import { requirePagePermission } from "@/lib/auth/page";
import { canManageProject } from "@/lib/auth/permissions";

export const dynamic = "force-dynamic";

export default async function Dashboard() {
  const user = await requirePagePermission("viewDashboard", "/dashboard");
  return (
    <main className="mx-auto max-w-7xl px-4 py-4">
      <Suspense fallback={<p className="text-sm text-slate-500">Loading…</p>}>
        <DashboardPage canSample={canManageProject(user.role)} />
      </Suspense>
    </main>
  );
}
