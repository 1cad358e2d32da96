import { redirect } from "next/navigation";
import { homeFor } from "@/lib/auth/permissions";
import { getSession } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** The front door: each role to its own work. */
export default async function Home() {
  const session = await getSession();
  redirect(session ? homeFor(session.user.role) : "/login");
}
