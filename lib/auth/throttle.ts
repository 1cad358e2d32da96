import type { Db } from "../db/client.ts";
import { bigintParam, least as leastOf, timestampParam, timestampPlusMs, timestampPlusMsParam } from "../db/dialect.ts";
import { all, provider, run, sqlTransaction, type TSqlParam } from "../db/sql.ts";

/**
 * Sign-in throttling, in the LoginThrottle table so that every app server
 * counts the same attempts. Every attempt is counted against three keys, each with its own
 * exponential backoff (`failures` so far, `lockedUntil` = when the next attempt may start):
 *
 * - the pair (account, client address): the strict limit, PAIR.free attempts, then waits of
 *   1 s, 2 s, 4 s … up to 15 min between attempts;
 * - the account, from any address: ACCOUNT.free attempts, then the same doubling waits. It slows
 *   guessing spread over many addresses. An address where the account signed in successfully in
 *   the last KNOWN_MS (a "known" address) is exempt, so no one can lock the owner out of their
 *   usual address;
 * - the client address, over all accounts: ADDRESS.free attempts, then the same doubling waits.
 *   It slows one password tried across many accounts (password spraying). It does not apply to an
 *   account at an address where that account signed in successfully in the last KNOWN_MS: failures
 *   with other emails from a shared address (a NAT, an office, a proxy) never hold up the people
 *   who sign in there; guessing their passwords from there is still held by the pair's limit.
 *
 * There is no fixed lock anyone can set for anyone: an attacker's own address and pair back off,
 * and the owner at a known address is held up by neither the account's nor the address's count.
 * An account that has never signed in from a saturated address waits like any other attempt from
 * it: checking its password anyway would let a sprayer through with every right guess, which is
 * what the address key is for (the README's deployment section: behind a proxy, set
 * ASSESSOR_TRUSTED_PROXY_HOPS so that addresses are the clients', not the proxy's).
 *
 * An attempt is reserved BEFORE the password is checked: one transaction increments all keys,
 * each with a conditional upsert (`… ON CONFLICT DO UPDATE … WHERE "lockedUntil" <= now
 * RETURNING`), and rolls back when any key refuses. Parallel attempts, on one server or many,
 * therefore check at most `free` passwords before the first wait: the database serialises the
 * increments. A success clears the pair and account counts, marks the address as known for the
 * account and gives the reserved attempt back to the address (when one was reserved); a failure
 * stays counted. A key with no attempt for FORGET_MS starts over.
 */
export type TBackoff = { free: number; baseMs: number; capMs: number };

const MINUTE = 60_000;
export const PAIR: TBackoff = { free: 5, baseMs: 1000, capMs: 15 * MINUTE };
export const ACCOUNT: TBackoff = { free: 20, baseMs: 1000, capMs: 15 * MINUTE };
export const ADDRESS: TBackoff = { free: 50, baseMs: 1000, capMs: 15 * MINUTE };
export const FORGET_MS = 24 * 60 * MINUTE;
export const KNOWN_MS = 30 * 24 * 60 * MINUTE;

/** The wait after `failures` counted attempts before the next may start. */
export function backoffMs(b: TBackoff, failures: number): number {
  return failures < b.free ? 0 : Math.min(b.capMs, b.baseMs * 2 ** Math.min(failures - b.free, 30));
}

const norm = (email: string) => email.trim().toLowerCase();
export const pairKey = (email: string, address: string) => `pair:${norm(email)}|${address}`;
export const accountKey = (email: string) => `account:${norm(email)}`;
export const addressKey = (address: string) => `address:${address}`;
export const knownKey = (email: string, address: string) => `known:${norm(email)}|${address}`;

/** `known`: the account signed in from this address lately, so only the pair's key was reserved. */
export type TReservation = { ok: true; known: boolean } | { ok: false; until: Date };

class Refused extends Error {
  constructor(readonly until: Date) {
    super("sign-in attempt refused by the throttle");
  }
}

/**
 * One conditional upsert: counts an attempt for `key` when its wait is over, and returns the
 * new count; no row when the key is still waiting. The wait is computed in SQL from the count
 * (min(cap, base << (n - free))), so the statement stands alone under concurrency.
 */
function reserveSql(
  p: "sqlite" | "postgres",
  key: string,
  b: TBackoff,
  now: Date,
): { sql: string; params: TSqlParam[] } {
  const ts = timestampParam(p);
  const int = bigintParam(p);
  const least = leastOf(p);
  const stale = new Date(now.getTime() - FORGET_MS);
  // n: this attempt's number in the streak (a stale streak starts over).
  const n = `(CASE WHEN "LoginThrottle"."updatedAt" < ${ts} THEN 0 ELSE "LoginThrottle"."failures" END + 1)`;
  const nParams = [stale];
  const delay = `(CASE WHEN ${n} < ${int} THEN 0 ELSE ${least}(${int}, ${int} << CAST(${least}(${n} - ${int}, 30) AS INTEGER)) END)`;
  const delayParams = [...nParams, b.free, b.capMs, b.baseMs, ...nParams, b.free];
  // No wait: NULL rather than "now", so that a server whose clock is behind is not held up.
  const wait = timestampPlusMs(p, delay);
  const until = `(CASE WHEN ${n} < ${int} THEN NULL ELSE ${wait} END)`;
  const untilParams = [...nParams, b.free, timestampPlusMsParam(p, now), ...delayParams];
  return {
    sql: `INSERT INTO "LoginThrottle" ("key", "failures", "lockedUntil", "updatedAt") VALUES (?, 1, ${ts}, ${ts})
      ON CONFLICT ("key") DO UPDATE SET "failures" = ${n}, "lockedUntil" = ${until}, "updatedAt" = ${ts}
      WHERE "LoginThrottle"."lockedUntil" IS NULL OR "LoginThrottle"."lockedUntil" <= ${ts}
      RETURNING "failures"`,
    params: [
      key,
      backoffMs(b, 1) === 0 ? null : new Date(now.getTime() + backoffMs(b, 1)),
      now,
      ...nParams,
      ...untilParams,
      now,
      now,
    ],
  };
}

/** Reserves one sign-in attempt for (email, address), or says until when it must wait. */
export async function reserveAttempt(
  db: Db,
  email: string,
  address: string,
  now: Date = new Date(),
): Promise<TReservation> {
  try {
    const known = await sqlTransaction(db, function* () {
      const p = yield* provider();
      const since = timestampParam(p);
      const known =
        (yield* all(`SELECT 1 AS "k" FROM "LoginThrottle" WHERE "key" = ? AND "updatedAt" >= ${since}`, [
          knownKey(email, address),
          new Date(now.getTime() - KNOWN_MS),
        ])).length > 0;
      const keys: [string, TBackoff][] = [[pairKey(email, address), PAIR]];
      if (!known) keys.push([addressKey(address), ADDRESS], [accountKey(email), ACCOUNT]);
      for (const [key, b] of keys) {
        const { sql, params } = reserveSql(p, key, b, now);
        const counted = yield* all(sql, params);
        if (counted.length === 0) {
          const row = yield* all<{ lockedUntil: string | Date }>(
            `SELECT "lockedUntil" FROM "LoginThrottle" WHERE "key" = ?`,
            [key],
          );
          throw new Refused(row[0] ? new Date(row[0].lockedUntil) : new Date(now.getTime() + b.baseMs));
        }
      }
      return known;
    });
    return { ok: true, known };
  } catch (e) {
    if (e instanceof Refused) return { ok: false, until: e.until };
    throw e;
  }
}

/**
 * The password was right (even for a deactivated account): the pair's and the account's streaks
 * end, the address becomes known for the account, and the address gets its attempt back when
 * the reservation took one (`reservation.known` false).
 */
export async function recordSuccess(
  db: Db,
  email: string,
  address: string,
  now: Date = new Date(),
  reservation: { known: boolean } = { known: false },
): Promise<void> {
  await sqlTransaction(db, function* () {
    yield* run(`DELETE FROM "LoginThrottle" WHERE "key" IN (?, ?)`, [pairKey(email, address), accountKey(email)]);
    if (!reservation.known)
      yield* run(`UPDATE "LoginThrottle" SET "failures" = "failures" - 1 WHERE "key" = ? AND "failures" > 0`, [
        addressKey(address),
      ]);
    yield* run(
      `INSERT INTO "LoginThrottle" ("key", "failures", "lockedUntil", "updatedAt") VALUES (?, 0, NULL, ?) ON CONFLICT ("key") DO UPDATE SET "updatedAt" = excluded."updatedAt"`,
      [knownKey(email, address), now],
    );
  });
}

/** Forgets streaks idle for FORGET_MS and known addresses older than KNOWN_MS (rows stay bounded). */
export async function pruneThrottle(db: Db, now: Date = new Date()): Promise<number> {
  const r = await db.loginThrottle.deleteMany({
    where: {
      OR: [
        { key: { startsWith: "known:" }, updatedAt: { lt: new Date(now.getTime() - KNOWN_MS) } },
        {
          NOT: { key: { startsWith: "known:" } },
          updatedAt: { lt: new Date(now.getTime() - FORGET_MS) },
          OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }],
        },
      ],
    },
  });
  return r.count;
}
