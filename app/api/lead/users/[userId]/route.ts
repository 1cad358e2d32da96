import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { setActive, setPassword, setRole, ZRole, type TPublicUser } from "@/lib/users/users";

export const dynamic = "force-dynamic";

// Each change ends the user's sessions (lib/users: User.sessionVersion).
const ZUserPatch = z
  .object({ active: z.boolean().optional(), password: z.string().optional(), role: ZRole.optional() })
  .refine((p) => p.active !== undefined || p.password !== undefined || p.role !== undefined, {
    message: "give active, password or role",
  });

export const PATCH = route({ roles: rolesFor("manageUsers"), body: ZUserPatch }, async ({ params, body, user }) => {
  const id = String(params.userId ?? "");
  if (body.role !== undefined && id === user.id) throw new AppError("bad_input", "you cannot change your own role");
  const db = await getDb();
  let updated: TPublicUser | undefined;
  // Activity first: a refused self-deactivation (lib/users setActive) changes nothing else.
  if (body.active !== undefined) updated = await setActive(db, { id }, body.active, user.id);
  if (body.password !== undefined) updated = await setPassword(db, { id }, body.password);
  if (body.role !== undefined) updated = await setRole(db, { id }, body.role);
  if (!updated) throw new AppError("bad_input", "give active, password or role");
  return { ...updated, createdAt: updated.createdAt.toISOString() };
});
