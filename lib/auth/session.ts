import "server-only";
import { getServerSession } from "next-auth";
import { connection } from "next/server";
import { cache } from "react";
import { getDb } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { authOptions } from "./options.ts";
import { can, isRole, type TPermission, type TRole } from "./permissions.ts";

export type TSessionUser = { id: string; email: string; name: string; role: TRole };
export type TSession = { user: TSessionUser };

/**
 * The signed-in user, or null. The only caller of next-auth in the app. The JWT says who the
 * user was at sign-in; the database says who they are now, so every request re-reads the user
 * (one primary-key lookup): a deactivated user loses access at once, and a role change takes
 * effect without signing out. Cached per request (React cache) so layout and page share it.
 */
export const getSession = cache(async (): Promise<TSession | null> => {
  // Per-request by nature: never prerendered (and so never needs the secret at build time).
  await connection();
  const session = await getServerSession(authOptions());
  const id = (session?.user as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || !id) return null;
  const db = await getDb();
  const user = await db.user.findUnique({ where: { id }, select: { id: true, email: true, name: true, role: true, active: true } });
  if (!user || !user.active || !isRole(user.role)) return null;
  return { user: { id: user.id, email: user.email, name: user.name, role: user.role } };
});

/** The signed-in user when their role is one of `roles`; AppError 401 / 403 otherwise. */
export async function requireRole(...roles: TRole[]): Promise<TSessionUser> {
  const session = await getSession();
  if (!session) throw new AppError("unauthenticated", "sign in first");
  if (roles.length > 0 && !roles.includes(session.user.role)) throw new AppError("forbidden", "your role does not allow this");
  return session.user;
}

/** The signed-in user when they hold `permission` (lib/auth/permissions.ts); 401 / 403 otherwise. */
export async function requirePermission(permission: TPermission): Promise<TSessionUser> {
  const user = await requireRole();
  if (!can(user.role, permission)) throw new AppError("forbidden", "your role does not allow this");
  return user;
}
