import "server-only";
import { decode } from "next-auth/jwt";
import { cookies } from "next/headers";
import { connection } from "next/server";
import { cache } from "react";
import { getDb } from "../db/client.ts";
import { get, sqlRead } from "../db/sql.ts";
import { AppError } from "../errors.ts";
import { authSecret } from "./options.ts";
import { can, isRole, type TPermission, type TRole } from "./permissions.ts";

export type TSessionUser = { id: string; email: string; name: string; role: TRole };
export type TSession = { user: TSessionUser };

// next-auth's session cookie: the __Secure- name when the site is served over https.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

// Decoded tokens, by token text: decoding costs an HKDF key derivation and an AES-GCM decryption,
// and the same token arrives with every request of a session. The token is the credential, so
// the key is the whole token; its expiry is checked on every use. Bounded (oldest out first).
const decoded = new Map<string, { uid: string; expiresAt: number }>();
const DECODED_MAX = 10_000;

/**
 * The user id in the request's session JWT, or null. The token is decrypted and its expiry
 * checked by next-auth's own decode(); unlike getServerSession this neither re-encrypts the
 * token nor rewrites the cookie on every request, which halves the cost of an authenticated API
 * call. Sessions therefore last a fixed maxAge (12 h) from sign-in.
 */
async function sessionUserId(): Promise<string | null> {
  const jar = await cookies();
  const raw = SESSION_COOKIES.map((n) => jar.get(n)?.value).find((v) => v);
  if (!raw) return null;
  const hit = decoded.get(raw);
  if (hit) {
    if (hit.expiresAt > Date.now()) return hit.uid;
    decoded.delete(raw);
    return null;
  }
  const token = await decode({ token: raw, secret: authSecret() }).catch(() => null);
  const uid = (token as { uid?: unknown } | null)?.uid;
  if (typeof uid !== "string" || !uid) return null;
  const exp = (token as { exp?: unknown } | null)?.exp;
  if (typeof exp === "number") {
    if (decoded.size >= DECODED_MAX) decoded.delete(decoded.keys().next().value as string);
    decoded.set(raw, { uid, expiresAt: exp * 1000 });
  }
  return uid;
}

type TUserRow = { id: string; email: string; name: string; role: string; active: boolean | number };

/**
 * The signed-in user, or null. The only reader of sessions in the app. The JWT says who the
 * user was at sign-in; the database says who they are now, so every request re-reads the user
 * (one primary-key lookup): a deactivated user loses access at once, and a role change takes
 * effect without signing out. Cached per request (React cache) so layout and page share it.
 */
export const getSession = cache(async (): Promise<TSession | null> => {
  // Per-request by nature: never prerendered (and so never needs the secret at build time).
  await connection();
  const id = await sessionUserId();
  if (!id) return null;
  // Direct SQL (lib/db/sql.ts): this read precedes every authenticated request.
  const user = await sqlRead(await getDb(), () => get<TUserRow>(`SELECT "id", "email", "name", "role", "active" FROM "User" WHERE "id" = ?`, [id]));
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
