import type { Metadata } from "next";
import type { ReactNode } from "react";
import { TopNav, type TNavLink } from "@/components/shell/TopNav";
import { can, canAdjudicate, canAnnotate, canManageProject, canViewDashboard } from "@/lib/auth/permissions";
import { getSession } from "@/lib/auth/session";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Assessor",
  description: "Human reference labels for retrieval evaluation",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await getSession();
  const role = session?.user.role;
  const links: TNavLink[] = role
    ? [
        ...(canAnnotate(role) ? [{ href: "/annotate", label: "Annotate" }] : []),
        ...(canAdjudicate(role) ? [{ href: "/adjudicate", label: "Adjudicate" }] : []),
        ...(canViewDashboard(role) ? [{ href: "/dashboard", label: "Dashboard" }] : []),
        ...(canManageProject(role) ? [{ href: "/lead", label: "Project" }] : []),
        ...(can(role, "writeQuestions") ? [{ href: "/write", label: "Write" }] : []),
      ]
    : [];
  return (
    <html lang="en">
      <body className="min-h-screen">
        <TopNav links={links} user={session?.user ?? null} />
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
