import "server-only";
import { forbidden, redirect } from "next/navigation";
import { can, type TPermission, type TRole } from "./permissions.ts";
import { getSession, type TSessionUser } from "./session.ts";

/**
 * Guard for server-rendered pages: signed out → redirect to /login (back to `from` afterwards);
 * signed in with the wrong role → the 403 page (app/forbidden.tsx, HTTP status 403).
 */
export async function requirePageRole(roles: readonly TRole[], from?: string): Promise<TSessionUser> {
  const session = await getSession();
  if (!session) redirect(from ? `/login?callbackUrl=${encodeURIComponent(from)}` : "/login");
  if (roles.length > 0 && !roles.includes(session.user.role)) forbidden();
  return session.user;
}

export async function requirePagePermission(permission: TPermission, from?: string): Promise<TSessionUser> {
  const user = await requirePageRole([], from);
  if (!can(user.role, permission)) forbidden();
  return user;
}
