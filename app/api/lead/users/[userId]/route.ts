import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { route } from "@/lib/http/route";
import { rolesFor } from "@/lib/auth/permissions";
import { setActive, setPassword, type TPublicUser } from "@/lib/users/users";

export const dynamic = "force-dynamic";

const ZUserPatch = z.object({ active: z.boolean().optional(), password: z.string().optional() }).refine((p) => p.active !== undefined || p.password !== undefined, { message: "give active or password" });

export const PATCH = route({ roles: rolesFor("manageUsers"), body: ZUserPatch }, async ({ params, body, user }) => {
  const id = String(params.userId ?? "");
  if (body.active === false && id === user.id) throw new AppError("bad_input", "you cannot deactivate yourself");
  const db = await getDb();
  let updated: TPublicUser | undefined;
  if (body.password !== undefined) updated = await setPassword(db, { id }, body.password);
  if (body.active !== undefined) updated = await setActive(db, { id }, body.active);
  if (!updated) throw new AppError("bad_input", "give active or password");
  return { ...updated, createdAt: updated.createdAt.toISOString() };
});
