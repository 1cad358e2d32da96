import "server-only";
import { decode, encode, type JWT } from "next-auth/jwt";
import { cookies } from "next/headers";
import { connection } from "next/server";
import { cache } from "react";
import { AppError } from "../errors.ts";
import { readClaims, sessionEndsAt, sessionLifetime, type TSessionClaims } from "./lifetime.ts";
import { authSecret } from "./options.ts";
import { can, isRole, type TPermission, type TRole } from "./permissions.ts";
import { currentUser, sessionStillValid } from "./version.ts";

export type TSessionUser = { id: string; email: string; name: string; role: TRole };
export type TSession = { user: TSessionUser };

// next-auth's session cookie: the __Secure- name when the site is served over https.
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

type TDecoded = { token: JWT; claims: TSessionClaims & { iat: number; exp: number }; endsAt: number };

// Decoded tokens, by token text: decoding costs an HKDF key derivation and an AES-GCM decryption,
// and the same token arrives with every request of a session. The token is the credential, so
// the key is the whole token; its end is checked on every use. Bounded (oldest out first).
const decoded = new Map<string, TDecoded>();
const DECODED_MAX = 10_000;

async function decodeToken(raw: string, now: number): Promise<TDecoded | null> {
  const hit = decoded.get(raw);
  if (hit) {
    if (hit.endsAt > now) return hit;
    decoded.delete(raw);
    return null;
  }
  const token = await decode({ token: raw, secret: authSecret() }).catch(() => null);
  const claims = readClaims(token);
  if (!token || !claims) return null;
  const entry = { token, claims, endsAt: sessionEndsAt(claims, sessionLifetime()) };
  if (entry.endsAt <= now) return null;
  if (decoded.size >= DECODED_MAX) decoded.delete(decoded.keys().next().value as string);
  decoded.set(raw, entry);
  return entry;
}

/**
 * Renews the idle expiry (never past the absolute limit) once the token is renewAfter old, by
 * setting a new cookie. Cookies can be set from route handlers and server actions, which is
 * where every API call lands; a server component cannot (Next throws), and its request simply
 * leaves the token as it is.
 */
async function renew(name: string, entry: TDecoded, now: number): Promise<void> {
  const lifetime = sessionLifetime();
  const nowSeconds = now / 1000;
  if (nowSeconds - entry.claims.iat < lifetime.renewAfterSeconds) return;
  const maxAge = Math.min(lifetime.idleSeconds, entry.claims.sat + lifetime.maxSeconds - nowSeconds);
  if (maxAge <= 1) return;
  const { iat: _iat, exp: _exp, jti: _jti, ...rest } = entry.token;
  const value = await encode({ token: rest, secret: authSecret(), maxAge: Math.floor(maxAge) });
  try {
    (await cookies()).set(name, value, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: name.startsWith("__Secure-"),
      expires: new Date(now + Math.floor(maxAge) * 1000),
    });
  } catch {
    // A server component: the next API call renews it.
  }
}

/**
 * The signed-in user, or null. The only reader of sessions in the app. The JWT says who signed in,
 * when, and with which session version; the database says who they are now: every request
 * re-reads the user (one primary-key lookup), so a deactivated user loses access at once, a role
 * change takes effect at once, and a session revoked by sign-out, a password change, a role
 * change or a deactivation (User.sessionVersion bumped) is refused on every app server.
 * Sessions end at the idle limit or the absolute limit (lib/auth/lifetime.ts), whichever is
 * first. Unlike getServerSession this neither re-encrypts the token nor rewrites the cookie on
 * every request. Cached per request (React cache) so layout and page share it.
 */
export const getSession = cache(async (): Promise<TSession | null> => {
  // Per-request by nature: never prerendered (and so never needs the secret at build time).
  await connection();
  const jar = await cookies();
  const name = SESSION_COOKIES.find((n) => jar.get(n)?.value);
  if (!name) return null;
  const now = Date.now();
  const entry = await decodeToken(jar.get(name)?.value ?? "", now);
  if (!entry) return null;
  const user = await currentUser(entry.claims.uid);
  if (!sessionStillValid(user, entry.claims.sv) || !isRole(user.role)) return null;
  await renew(name, entry, now);
  return { user: { id: user.id, email: user.email, name: user.name, role: user.role } };
});

/** The signed-in user when their role is one of `roles`; AppError 401 / 403 otherwise. */
export async function requireRole(...roles: TRole[]): Promise<TSessionUser> {
  const session = await getSession();
  if (!session) throw new AppError("unauthenticated", "sign in first");
  if (roles.length > 0 && !roles.includes(session.user.role))
    throw new AppError("forbidden", "your role does not allow this");
  return session.user;
}

/** The signed-in user when they hold `permission` (lib/auth/permissions.ts); 401 / 403 otherwise. */
export async function requirePermission(permission: TPermission): Promise<TSessionUser> {
  const user = await requireRole();
  if (!can(user.role, permission)) throw new AppError("forbidden", "your role does not allow this");
  return user;
}
