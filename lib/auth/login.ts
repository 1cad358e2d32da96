import { verify } from "@node-rs/argon2";
import type { Db } from "../db/client.ts";
import { isRole, type TRole } from "./permissions.ts";
import { lockedUntil, recordFailure, recordSuccess, throttleKey } from "./throttle.ts";

export type TAuthUser = { id: string; email: string; name: string; role: TRole };

export type TLoginResult =
  | { ok: true; user: TAuthUser }
  | { ok: false; reason: "invalid" | "inactive" }
  | { ok: false; reason: "locked"; until: Date };

// A valid argon2id hash of a random string: verifying against it when the email is unknown keeps
// the response time the same as for a wrong password, so timing does not reveal which emails exist.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$92MzCJbGq5bhMCVgDcCVBg$AhCqbiDeyoCAjf9bcpHrMtftmV7TwpvhF1v77C2dpxo";

/**
 * One sign-in attempt: throttle check, password check, active check, throttle bookkeeping.
 * The only place the app reads a password hash.
 */
export async function attemptLogin(db: Db, email: string, password: string, now: Date = new Date()): Promise<TLoginResult> {
  const key = throttleKey(email);
  const until = await lockedUntil(db, key, now);
  if (until) return { ok: false, reason: "locked", until };

  const user = await db.user.findUnique({
    where: { email: email.trim() },
    select: { id: true, email: true, name: true, role: true, active: true, passwordHash: true },
  });
  const matches = await verify(user?.passwordHash ?? DUMMY_HASH, password).catch(() => false);
  if (!user || !matches || !isRole(user.role)) {
    const lockedNow = await recordFailure(db, key, now);
    if (lockedNow) return { ok: false, reason: "locked", until: lockedNow };
    return { ok: false, reason: "invalid" };
  }
  await recordSuccess(db, key);
  if (!user.active) return { ok: false, reason: "inactive" };
  return { ok: true, user: { id: user.id, email: user.email, name: user.name, role: user.role } };
}

export function loginErrorMessage(result: Exclude<TLoginResult, { ok: true }>, now: Date = new Date()): string {
  if (result.reason === "locked") {
    const minutes = Math.max(1, Math.ceil((result.until.getTime() - now.getTime()) / 60_000));
    return `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  }
  if (result.reason === "inactive") return "This account has been deactivated. Ask your project lead.";
  return "Wrong email or password.";
}
