import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "../db/client.ts";
import { attemptLogin, loginErrorMessage } from "./login.ts";
import { isRole, type TRole } from "./permissions.ts";

const DEV_SECRET = "assessor-development-secret-do-not-use-in-production";

/** NEXTAUTH_SECRET, required in production; a fixed development default otherwise. */
export function authSecret(env: NodeJS.ProcessEnv = process.env): string {
  const secret = env.NEXTAUTH_SECRET?.trim();
  if (secret) return secret;
  if (env.NODE_ENV === "production") {
    throw new Error("NEXTAUTH_SECRET is not set: production needs a random secret of at least 32 characters (e.g. `openssl rand -base64 32`)");
  }
  return DEV_SECRET;
}

/** The claims the app puts in the session JWT. */
type TTokenClaims = { uid?: string; role?: TRole };

let cached: NextAuthOptions | undefined;

/**
 * next-auth options, built on first use (not at import) so that `next build` does not need the
 * secret. Sessions are JWTs carrying id, email, name and role; lib/auth/session.ts re-checks
 * the user against the database on every request.
 */
export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  cached = {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: 12 * 60 * 60 },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          const email = credentials?.email ?? "";
          const password = credentials?.password ?? "";
          if (!email || !password) throw new Error("Enter your email and password.");
          const result = await attemptLogin(await getDb(), email, password);
          // next-auth passes a thrown message to the client as `error`; returning null would
          // lose the reason (locked, deactivated).
          if (!result.ok) throw new Error(loginErrorMessage(result));
          return result.user;
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        const claims = token as typeof token & TTokenClaims;
        if (user) {
          const u = user as { id: string; role?: unknown };
          claims.uid = u.id;
          if (isRole(u.role)) claims.role = u.role;
        }
        return claims;
      },
      async session({ session, token }) {
        const claims = token as typeof token & TTokenClaims;
        return { ...session, user: { ...session.user, id: claims.uid, role: claims.role } };
      },
    },
  };
  return cached;
}
