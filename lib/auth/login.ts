import type { Db } from "../db/client.ts";
import { hasNul, MAX_EMAIL_CHARS } from "../bounds.ts";
import { MAX_PASSWORD_CHARS, verifyCredentials } from "../users/users.ts";
import { signInErrorMessage, type TSignInError } from "./messages.ts";
import { isRole, type TRole } from "./permissions.ts";
import { pruneThrottle, recordSuccess, reserveAttempt } from "./throttle.ts";

export type TAuthUser = { id: string; email: string; name: string; role: TRole; sessionVersion: number };

export type TLoginResult =
  | { ok: true; user: TAuthUser }
  | { ok: false; reason: "invalid" | "inactive" }
  | { ok: false; reason: "locked"; until: Date };

// About one attempt in PRUNE_EVERY also clears old throttle rows.
const PRUNE_EVERY = 64;

/**
 * Whether an email and password could belong to an account at all: an email of at most
 * MAX_EMAIL_CHARS characters without NUL (accounts are made through lib/users' ZEmail, which
 * holds the same bound), a password of at most MAX_PASSWORD_CHARS. Checked before any query:
 * PostgreSQL refuses a NUL or an index entry past 2.7 KB with an error, not a miss.
 */
export function plausibleCredentials(email: string, password: string): boolean {
  const e = email.trim();
  return e.length > 0 && e.length <= MAX_EMAIL_CHARS && !hasNul(e) && password.length <= MAX_PASSWORD_CHARS;
}

/**
 * One sign-in attempt from `address` (lib/auth/address.ts): credentials that fit no account are
 * "invalid" at once (plausibleCredentials); otherwise an attempt is reserved in the throttle first
 * (lib/auth/throttle.ts; refused → "locked" without checking the password), then the password is
 * checked by lib/users. A wrong password stays counted.
 */
export async function attemptLogin(
  db: Db,
  email: string,
  password: string,
  address: string,
  now: Date = new Date(),
): Promise<TLoginResult> {
  if (!plausibleCredentials(email, password)) return { ok: false, reason: "invalid" };
  if (Math.random() * PRUNE_EVERY < 1)
    await pruneThrottle(db, now).catch((e: unknown) =>
      console.warn("[auth] pruning the sign-in throttle failed:", e instanceof Error ? e.message : e),
    );
  const reserved = await reserveAttempt(db, email, address, now);
  if (!reserved.ok) return { ok: false, reason: "locked", until: reserved.until };

  const result = await verifyCredentials(db, email, password);
  if (!result.ok && result.reason === "invalid") return { ok: false, reason: "invalid" };
  // The password was right (even for a deactivated user): the streaks end.
  await recordSuccess(db, email, address, now, reserved);
  if (!result.ok) return { ok: false, reason: "inactive" };
  const { id, email: userEmail, name, role, sessionVersion } = result.user;
  if (!isRole(role)) return { ok: false, reason: "invalid" };
  return { ok: true, user: { id, email: userEmail, name, role, sessionVersion } };
}

/** Whole seconds until `until` (at least 1): the Retry-After of a refused attempt. */
export function retryAfterSeconds(until: Date, now: Date = new Date()): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

/** The code a refused attempt is reported by (lib/auth/messages.ts): next-auth puts it in the URL. */
export function loginErrorCode(result: Exclude<TLoginResult, { ok: true }>): TSignInError {
  return result.reason === "locked" ? "Locked" : result.reason === "inactive" ? "Inactive" : "CredentialsSignin";
}

export function loginErrorMessage(result: Exclude<TLoginResult, { ok: true }>, now: Date = new Date()): string {
  return (
    signInErrorMessage(
      loginErrorCode(result),
      result.reason === "locked" ? retryAfterSeconds(result.until, now) : null,
    ) ?? ""
  );
}
