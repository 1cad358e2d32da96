import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";

export const dynamic = "force-dynamic";

const roles = rolesFor("manageUsers");

export const GET = route({ roles }, async () => {
  const db = await getDb();
  const users = await db.user.findMany({ orderBy: [{ role: "asc" }, { email: "asc" }], select: { id: true, email: true, name: true, role: true, active: true, createdAt: true } });
  return users.map((u) => ({ ...u, createdAt: u.createdAt.toISOString() }));
});
