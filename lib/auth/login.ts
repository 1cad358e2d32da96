import type { Db } from "../db/client.ts";
import { verifyCredentials } from "../users/users.ts";
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
 * One sign-in attempt from `address` (lib/auth/address.ts): an attempt is reserved in the
 * throttle first (lib/auth/throttle.ts; refused → "locked" without checking the password), then
 * the password is checked by lib/users. A wrong password stays counted.
 */
export async function attemptLogin(db: Db, email: string, password: string, address: string, now: Date = new Date()): Promise<TLoginResult> {
  if (Math.random() * PRUNE_EVERY < 1) await pruneThrottle(db, now).catch((e: unknown) => console.warn("[auth] pruning the sign-in throttle failed:", e instanceof Error ? e.message : e));
  const reserved = await reserveAttempt(db, email, address, now);
  if (!reserved.ok) return { ok: false, reason: "locked", until: reserved.until };

  const result = await verifyCredentials(db, email, password);
  if (!result.ok && result.reason === "invalid") return { ok: false, reason: "invalid" };
  // The password was right (even for a deactivated user): the streaks end.
  await recordSuccess(db, email, address, now);
  if (!result.ok) return { ok: false, reason: "inactive" };
  const { id, email: userEmail, name, role, sessionVersion } = result.user;
  if (!isRole(role)) return { ok: false, reason: "invalid" };
  return { ok: true, user: { id, email: userEmail, name, role, sessionVersion } };
}

/** Whole seconds until `until` (at least 1): the Retry-After of a refused attempt. */
export function retryAfterSeconds(until: Date, now: Date = new Date()): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

export function loginErrorMessage(result: Exclude<TLoginResult, { ok: true }>, now: Date = new Date()): string {
  if (result.reason === "locked") {
    const seconds = retryAfterSeconds(result.until, now);
    const wait = seconds < 60 ? `${seconds} second${seconds === 1 ? "" : "s"}` : `${Math.ceil(seconds / 60)} minute${Math.ceil(seconds / 60) === 1 ? "" : "s"}`;
    return `Too many failed sign-in attempts. Try again in ${wait}.`;
  }
  if (result.reason === "inactive") return "This account has been deactivated. Ask your project lead.";
  return "Wrong email or password.";
}
