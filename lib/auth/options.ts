import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../db/client.ts";
import { revokeSessions } from "../users/users.ts";
import { clientAddress } from "./address.ts";
import { readClaims, sessionEndsAt, sessionLifetime, type TSessionClaims } from "./lifetime.ts";
import { attemptLogin, loginErrorCode, retryAfterSeconds, type TLoginResult } from "./login.ts";
import type { TSignInError } from "./messages.ts";
import { isRole, type TRole } from "./permissions.ts";
import { sameOriginUrl } from "./redirect.ts";
import { currentUser, sessionStillValid } from "./version.ts";

const DEV_SECRET = "assessor-development-secret-do-not-use-in-production";

/** NEXTAUTH_SECRET, required in production; a fixed development default otherwise. */
export function authSecret(env: NodeJS.ProcessEnv = process.env): string {
  const secret = env.NEXTAUTH_SECRET?.trim();
  if (secret) return secret;
  if (env.NODE_ENV === "production") {
    throw new Error(
      "NEXTAUTH_SECRET is not set: production needs a random secret of at least 32 characters (e.g. `openssl rand -base64 32`)",
    );
  }
  return DEV_SECRET;
}

/** The claims the app puts in the session JWT (lib/auth/lifetime.ts) and the role shown by next-auth's session route. */
type TTokenClaims = Partial<TSessionClaims> & { role?: TRole };

/**
 * What the sign-in route needs to know about an attempt that next-auth reports only as a
 * message: set by authorize() when the throttle refused it, read by app/api/auth/[...nextauth]
 * to answer 429 with Retry-After.
 */
export const signInOutcome = new AsyncLocalStorage<{ retryAfterSeconds?: number }>();

const signInError = (code: TSignInError) => new Error(code);

let cached: NextAuthOptions | undefined;

/**
 * next-auth options, built on first use (not at import) so that `next build` does not need the
 * secret. Sessions are JWTs carrying the user id, the user's session version and the sign-in
 * time; lib/auth/session.ts checks them against the database and the lifetime on every request.
 * next-auth's own maxAge is the idle limit (a token is valid that long after it was issued).
 */
export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  const lifetime = sessionLifetime();
  cached = {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: Math.max(1, Math.floor(lifetime.idleSeconds)) },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const email = credentials?.email ?? "";
          const password = credentials?.password ?? "";
          // next-auth passes a thrown message to the client as `error` (returning null would lose
          // the reason: locked, deactivated): only codes of lib/auth/messages.ts, never text.
          if (!email || !password) throw signInError("Missing");
          let result: TLoginResult;
          try {
            result = await attemptLogin(await getDb(), email, password, clientAddress(req.headers ?? {}));
          } catch (e) {
            // Whatever failed (the database, a bug), the client learns only that it did.
            const reference = randomUUID();
            console.error(`[auth] sign-in failed (reference ${reference}):`, e);
            throw signInError("SignInFailed");
          }
          if (!result.ok && result.reason === "locked") {
            const outcome = signInOutcome.getStore();
            if (outcome) outcome.retryAfterSeconds = retryAfterSeconds(result.until);
          }
          if (!result.ok) throw signInError(loginErrorCode(result));
          return result.user;
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        const claims = token as typeof token & TTokenClaims;
        if (user) {
          const u = user as { id: string; role?: unknown; sessionVersion?: unknown };
          claims.uid = u.id;
          claims.sv = typeof u.sessionVersion === "number" ? u.sessionVersion : 0;
          claims.sat = Date.now() / 1000;
          if (isRole(u.role)) claims.role = u.role;
          return claims;
        }
        // next-auth's session route renews the token: not past the absolute limit, and not for
        // a revoked session (a throw makes next-auth clear the cookie).
        const read = readClaims(token);
        if (!read || sessionEndsAt(read, lifetime) <= Date.now()) throw new Error("the session has ended");
        const current = await currentUser(read.uid);
        if (!sessionStillValid(current, read.sv)) throw new Error("the session was revoked");
        if (isRole(current.role)) claims.role = current.role;
        return claims;
      },
      async session({ session, token }) {
        const claims = token as typeof token & TTokenClaims;
        return { ...session, user: { ...session.user, id: claims.uid, role: claims.role } };
      },
      // Only the app's own origin, read as a browser reads a URL (lib/auth/redirect.ts).
      async redirect({ url, baseUrl }) {
        return sameOriginUrl(url, baseUrl)?.href ?? baseUrl;
      },
    },
    events: {
      // Sign-out ends the session on every app server, also for a copy of the cookie.
      async signOut({ token }) {
        const read = readClaims(token);
        if (read) await revokeSessions(await getDb(), read.uid, read.sv);
      },
    },
  };
  return cached;
}
