import Link from "next/link";
import type { ReactNode } from "react";
import { requirePagePermission } from "@/lib/auth/page";

export const dynamic = "force-dynamic";

export default async function LeadLayout({ children }: { children: ReactNode }) {
  await requirePagePermission("manageProject", "/lead");
  return (
    <main className="mx-auto max-w-6xl px-4 py-6">
      <nav aria-label="Lead" className="mb-6 flex gap-4 text-sm">
        <Link href="/lead" className="text-indigo-700 underline">
          Projects
        </Link>
        <Link href="/lead/users" className="text-indigo-700 underline">
          Users
        </Link>
      </nav>
      {children}
    </main>
  );
}
