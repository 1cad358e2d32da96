import type { Db } from "../db/client.ts";

/**
 * Login throttling, stored in the LoginThrottle table so that every app server sees the same
 * counts. Policy: MAX_FAILURES failed attempts for one email, each within WINDOW_MS of the
 * previous one, lock that email for LOCK_MS. A success clears the record. While locked, the
 * password is not even checked, so a locked account cannot be guessed at.
 *
 * Counting uses atomic increments, so concurrent failures on several servers are all counted.
 */
export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

export function throttleKey(email: string): string {
  return `email:${email.trim().toLowerCase()}`;
}

/** The time the lock ends, or null when sign-in may be attempted. */
export async function lockedUntil(db: Db, key: string, now: Date = new Date()): Promise<Date | null> {
  const row = await db.loginThrottle.findUnique({ where: { key } });
  if (row?.lockedUntil && row.lockedUntil > now) return row.lockedUntil;
  return null;
}

/** Counts one failure; returns the lock end when this failure locked the key. */
export async function recordFailure(db: Db, key: string, now: Date = new Date()): Promise<Date | null> {
  // A stale streak (last failure outside the window, or a lock that has run out) starts over.
  await db.loginThrottle.updateMany({
    where: { key, OR: [{ updatedAt: { lt: new Date(now.getTime() - WINDOW_MS) } }, { lockedUntil: { lte: now } }] },
    data: { failures: 0, lockedUntil: null, updatedAt: now },
  });
  const row = await db.loginThrottle.upsert({
    where: { key },
    create: { key, failures: 1, updatedAt: now },
    update: { failures: { increment: 1 }, updatedAt: now },
  });
  if (row.failures < MAX_FAILURES) return null;
  const until = new Date(now.getTime() + LOCK_MS);
  await db.loginThrottle.update({ where: { key }, data: { failures: 0, lockedUntil: until, updatedAt: now } });
  return until;
}

export async function recordSuccess(db: Db, key: string): Promise<void> {
  await db.loginThrottle.deleteMany({ where: { key } });
}
