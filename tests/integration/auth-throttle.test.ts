import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { attemptLogin, loginErrorMessage } from "../../lib/auth/login.ts";
import {
  ACCOUNT,
  ADDRESS,
  FORGET_MS,
  PAIR,
  accountKey,
  addressKey,
  backoffMs,
  knownKey,
  pairKey,
  pruneThrottle,
  reserveAttempt,
} from "../../lib/auth/throttle.ts";
import { RateLimiter } from "../../lib/http/limits.ts";

/**
 * The sign-in throttle and the shared rate limiter at the database level, on
 * SQLite and PostgreSQL: backoff per (account, address), per account and per address; attempts
 * reserved before the password is checked; a success clears the streaks.
 */
useTestDatabase();
let db: Db;
const t0 = new Date("2026-01-01T10:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);
const HOME = "10.0.0.1";
const ATTACKER = "203.0.113.9";

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  // Users are made by lib/users (argon2id), as the CLI and the users page make them.
  for (const [email, role] of [
    ["ann@example.org", "annotator"],
    ["gone@example.org", "annotator"],
    ["lock@example.org", "lead"],
    ["race@example.org", "lead"],
    ["owner@example.org", "lead"],
  ] as const) {
    await createUser(db, { email, name: email.split("@")[0], role, password: "right-password" });
  }
  await db.user.update({ where: { email: "gone@example.org" }, data: { active: false } });
  const stored = await db.user.findUnique({ where: { email: "ann@example.org" }, select: { passwordHash: true } });
  // The stored hash is argon2id with its parameters, never the password.
  expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
});

const failures = async (key: string) => (await db.loginThrottle.findUnique({ where: { key } }))?.failures ?? 0;

describe("backoffMs", () => {
  it("is free for the first attempts, then doubles from 1 s, capped at 15 min", () => {
    // Hand-derived: PAIR.free = 5, base 1 s, cap 900 s.
    expect([4, 5, 6, 7, 14, 15, 40].map((n) => backoffMs(PAIR, n))).toEqual([
      0, 1000, 2000, 4000, 512_000, 900_000, 900_000,
    ]);
  });
});

describe("attemptLogin", () => {
  it("accepts the right password and returns the user with its role and session version", async () => {
    const r = await attemptLogin(db, "ann@example.org", "right-password", HOME, t0);
    expect(r).toEqual({
      ok: true,
      user: { id: expect.any(String), email: "ann@example.org", name: "ann", role: "annotator", sessionVersion: 0 },
    });
    // Emails are matched regardless of case and surrounding spaces.
    expect((await attemptLogin(db, "  ANN@Example.org ", "right-password", HOME, t0)).ok).toBe(true);
  });

  it("rejects a wrong password and an unknown email with the same message", async () => {
    const wrong = await attemptLogin(db, "ann@example.org", "nope", HOME, t0);
    const unknown = await attemptLogin(db, "nobody@example.org", "nope", HOME, t0);
    expect(wrong).toEqual({ ok: false, reason: "invalid" });
    expect(unknown).toEqual({ ok: false, reason: "invalid" });
    if (!wrong.ok && !unknown.ok) expect(loginErrorMessage(wrong)).toBe(loginErrorMessage(unknown));
  });

  it("refuses a deactivated user even with the right password", async () => {
    expect(await attemptLogin(db, "gone@example.org", "right-password", HOME, t0)).toEqual({
      ok: false,
      reason: "inactive",
    });
  });

  it("backs off per (account, address): 5 free failures, then 1 s, 2 s, 4 s; the right password waits too, then clears the streak", async () => {
    for (let i = 0; i < PAIR.free; i++)
      expect(await attemptLogin(db, "lock@example.org", "bad", ATTACKER, t0)).toEqual({ ok: false, reason: "invalid" });
    // The 6th attempt, at once: refused before its password is checked, for 1 s.
    const sixth = await attemptLogin(db, "lock@example.org", "right-password", ATTACKER, at(500));
    expect(sixth).toEqual({ ok: false, reason: "locked", until: at(1000) });
    if (!sixth.ok)
      expect(loginErrorMessage(sixth, at(500))).toBe("Too many failed sign-in attempts. Try again in 1 second.");
    // After the wait, one more attempt (wrong): now 2 s.
    expect(await attemptLogin(db, "lock@example.org", "bad", ATTACKER, at(1000))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await attemptLogin(db, "lock@example.org", "bad", ATTACKER, at(2999))).toEqual({
      ok: false,
      reason: "locked",
      until: at(3000),
    });
    expect(await attemptLogin(db, "lock@example.org", "bad", ATTACKER, at(3000))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await attemptLogin(db, "lock@example.org", "bad", ATTACKER, at(3001))).toEqual({
      ok: false,
      reason: "locked",
      until: at(7000),
    });
    expect(await failures(pairKey("LOCK@example.org", ATTACKER))).toBe(PAIR.free + 2);
    // The owner, at another address, is not held up by the attacker's pair.
    expect((await attemptLogin(db, "lock@example.org", "right-password", HOME, at(3002))).ok).toBe(true);
    // The attacker's pair waits on; after its wait the right password works and clears it.
    expect((await attemptLogin(db, "lock@example.org", "right-password", ATTACKER, at(7000))).ok).toBe(true);
    expect(await db.loginThrottle.findUnique({ where: { key: pairKey("lock@example.org", ATTACKER) } })).toBeNull();
    expect(
      await db.loginThrottle.findUnique({ where: { key: knownKey("lock@example.org", ATTACKER) } }),
    ).not.toBeNull();
  });

  it("20 parallel attempts check no more than 5 passwords", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => attemptLogin(db, "race@example.org", "bad", ATTACKER, t0)),
    );
    expect(results.filter((r) => !r.ok && r.reason === "invalid")).toHaveLength(PAIR.free);
    expect(results.filter((r) => !r.ok && r.reason === "locked")).toHaveLength(20 - PAIR.free);
    expect(await failures(pairKey("race@example.org", ATTACKER))).toBe(PAIR.free);
  });

  it("per account: failures from many addresses slow the account down, but not at an address where its owner signed in", async () => {
    expect((await attemptLogin(db, "owner@example.org", "right-password", HOME, t0)).ok).toBe(true);
    // 20 addresses, one failure each: the account's free attempts are used up.
    for (let i = 0; i < ACCOUNT.free; i++)
      expect(await attemptLogin(db, "owner@example.org", "bad", `198.51.100.${i}`, t0)).toEqual({
        ok: false,
        reason: "invalid",
      });
    expect(await attemptLogin(db, "owner@example.org", "bad", "198.51.100.200", t0)).toEqual({
      ok: false,
      reason: "locked",
      until: at(1000),
    });
    // The owner's known address is exempt from the account's backoff.
    expect((await attemptLogin(db, "owner@example.org", "right-password", HOME, t0)).ok).toBe(true);
  });

  it("per address: one password sprayed across accounts backs off after ADDRESS.free attempts", async () => {
    const sprayer = "192.0.2.77";
    for (let i = 0; i < ADDRESS.free; i++)
      expect(await attemptLogin(db, `victim${i}@example.org`, "Summer2026!", sprayer, t0)).toEqual({
        ok: false,
        reason: "invalid",
      });
    expect(await attemptLogin(db, "victim-next@example.org", "Summer2026!", sprayer, t0)).toEqual({
      ok: false,
      reason: "locked",
      until: at(1000),
    });
    expect(await failures(addressKey(sprayer))).toBe(ADDRESS.free);
    // A refused attempt counts nowhere (the reservation is all or nothing).
    expect(
      await db.loginThrottle.findUnique({ where: { key: pairKey("victim-next@example.org", sprayer) } }),
    ).toBeNull();
    expect(await db.loginThrottle.findUnique({ where: { key: accountKey("victim-next@example.org") } })).toBeNull();
  });

  it("a shared address saturated with unknown emails does not refuse an account known there; guessing its password there still backs off", async () => {
    const shared = "192.0.2.200";
    expect((await attemptLogin(db, "owner@example.org", "right-password", shared, t0)).ok).toBe(true);
    for (let i = 0; i < ADDRESS.free; i++)
      expect(await attemptLogin(db, `nobody${i}-${Math.random()}@example.org`, "guess", shared, t0)).toEqual({
        ok: false,
        reason: "invalid",
      });
    expect(await attemptLogin(db, "nobody-more@example.org", "guess", shared, t0)).toEqual({
      ok: false,
      reason: "locked",
      until: at(1000),
    });
    // The owner signed in here before: the address's count does not apply, and is not touched.
    expect((await attemptLogin(db, "owner@example.org", "right-password", shared, at(1))).ok).toBe(true);
    expect(await failures(addressKey(shared))).toBe(ADDRESS.free);
    // Guessing the owner's password from the shared address: the pair's limit holds.
    for (let i = 0; i < PAIR.free; i++)
      expect(await attemptLogin(db, "owner@example.org", "bad", shared, at(2))).toEqual({
        ok: false,
        reason: "invalid",
      });
    expect(await attemptLogin(db, "owner@example.org", "right-password", shared, at(3))).toEqual({
      ok: false,
      reason: "locked",
      until: at(1002),
    });
    // An account never signed in from there waits for the address like any attempt from it
    // (checking its password would let a sprayer through with every right guess).
    expect(await attemptLogin(db, "ann@example.org", "right-password", shared, at(4))).toEqual({
      ok: false,
      reason: "locked",
      until: at(1000),
    });
  });

  it("credentials that fit no account are refused before any query: a 2,700-character email, a NUL, an oversized password", async () => {
    const rows = await db.loginThrottle.count();
    for (const email of [`${"a".repeat(2700)}@example.org`, "ann\u0000@example.org", `ann@${"x".repeat(250)}.org`])
      expect(await attemptLogin(db, email, "right-password", HOME, t0)).toEqual({ ok: false, reason: "invalid" });
    expect(await attemptLogin(db, "ann@example.org", "x".repeat(1025), HOME, t0)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await db.loginThrottle.count()).toBe(rows);
  });

  it("forgets a streak after a day without attempts, and prunes old rows", async () => {
    const addr = "192.0.2.5";
    for (let i = 0; i < PAIR.free; i++) await reserveAttempt(db, "ann@example.org", addr, t0);
    expect((await reserveAttempt(db, "ann@example.org", addr, at(10))).ok).toBe(false);
    expect(await reserveAttempt(db, "ann@example.org", addr, at(FORGET_MS + 1))).toEqual({ ok: true, known: false });
    expect(await failures(pairKey("ann@example.org", addr))).toBe(1);
    expect(await pruneThrottle(db, at(2 * FORGET_MS + 2))).toBeGreaterThan(0);
    expect(await db.loginThrottle.findUnique({ where: { key: pairKey("ann@example.org", addr) } })).toBeNull();
  });
});

describe("RateLimiter (RateLimit table)", () => {
  it("a burst, then one token per 60/rate seconds; keys are separate", async () => {
    const rl = new RateLimiter(
      "unit",
      () => 60,
      () => 2,
    );
    expect([(await rl.take(db, "k", t0)).ok, (await rl.take(db, "k", t0)).ok, await rl.take(db, "k", t0)]).toEqual([
      true,
      true,
      { ok: false, retryAfterSeconds: 1 },
    ]);
    expect((await rl.take(db, "k", at(1000))).ok).toBe(true);
    expect((await rl.take(db, "k", at(1000))).ok).toBe(false);
    expect((await rl.take(db, "other", at(1000))).ok).toBe(true);
  });

  it("concurrent takes never take more than the bucket holds", async () => {
    const rl = new RateLimiter(
      "unit",
      () => 60,
      () => 10,
    );
    const results = await Promise.all(Array.from({ length: 30 }, () => rl.take(db, "parallel", t0)));
    expect(results.filter((r) => r.ok)).toHaveLength(10);
  });
});
