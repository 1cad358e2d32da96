import type { Db } from "../db/client.ts";
import { verifyCredentials } from "../users/users.ts";
import { isRole, type TRole } from "./permissions.ts";
import { lockedUntil, recordFailure, recordSuccess, throttleKey } from "./throttle.ts";

export type TAuthUser = { id: string; email: string; name: string; role: TRole };

export type TLoginResult =
  | { ok: true; user: TAuthUser }
  | { ok: false; reason: "invalid" | "inactive" }
  | { ok: false; reason: "locked"; until: Date };

/**
 * One sign-in attempt: throttle check, then the password check of lib/users, then throttle
 * bookkeeping. A locked email is refused before its password is checked.
 */
export async function attemptLogin(db: Db, email: string, password: string, now: Date = new Date()): Promise<TLoginResult> {
  const key = throttleKey(email);
  const until = await lockedUntil(db, key, now);
  if (until) return { ok: false, reason: "locked", until };

  const result = await verifyCredentials(db, email, password);
  if (!result.ok && result.reason === "invalid") {
    const lockedNow = await recordFailure(db, key, now);
    if (lockedNow) return { ok: false, reason: "locked", until: lockedNow };
    return { ok: false, reason: "invalid" };
  }
  // The password was right (even for a deactivated user): the failure streak ends.
  await recordSuccess(db, key);
  if (!result.ok) return { ok: false, reason: "inactive" };
  const { id, email: userEmail, name, role } = result.user;
  if (!isRole(role)) return { ok: false, reason: "invalid" };
  return { ok: true, user: { id, email: userEmail, name, role } };
}

export function loginErrorMessage(result: Exclude<TLoginResult, { ok: true }>, now: Date = new Date()): string {
  if (result.reason === "locked") {
    const minutes = Math.max(1, Math.ceil((result.until.getTime() - now.getTime()) / 60_000));
    return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  }
  if (result.reason === "inactive") return "This account has been deactivated. Ask your project lead.";
  return "Wrong email or password.";
}
