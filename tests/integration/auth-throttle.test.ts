import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDb } from "../helpers/db.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { attemptLogin, loginErrorMessage } from "../../lib/auth/login.ts";
import { LOCK_MS, MAX_FAILURES, WINDOW_MS, lockedUntil, recordFailure, throttleKey } from "../../lib/auth/throttle.ts";

let testDb: TestDb;
let db: Db;
const t0 = new Date("2026-01-01T10:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

beforeAll(async () => {
  testDb = await createTestDatabase();
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  // Users are made by lib/users (argon2id), as the CLI and the users page make them.
  for (const [email, role] of [["ann@example.org", "annotator"], ["gone@example.org", "annotator"], ["lock@example.org", "lead"], ["race@example.org", "lead"]] as const) {
    await createUser(db, { email, name: email.split("@")[0], role, password: "right-password" });
  }
  await db.user.update({ where: { email: "gone@example.org" }, data: { active: false } });
  const stored = await db.user.findUnique({ where: { email: "ann@example.org" }, select: { passwordHash: true } });
  // The stored hash is argon2id with its parameters, never the password.
  expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
});
afterAll(async () => testDb.cleanup());

describe("attemptLogin", () => {
  it("accepts the right password and returns the user with its role", async () => {
    const r = await attemptLogin(db, "ann@example.org", "right-password", t0);
    expect(r).toEqual({ ok: true, user: { id: expect.any(String), email: "ann@example.org", name: "ann", role: "annotator" } });
    // Emails are matched regardless of case and surrounding spaces.
    expect((await attemptLogin(db, "  ANN@Example.org ", "right-password", t0)).ok).toBe(true);
  });

  it("rejects a wrong password and an unknown email with the same message", async () => {
    const wrong = await attemptLogin(db, "ann@example.org", "nope", t0);
    const unknown = await attemptLogin(db, "nobody@example.org", "nope", t0);
    expect(wrong).toEqual({ ok: false, reason: "invalid" });
    expect(unknown).toEqual({ ok: false, reason: "invalid" });
    if (!wrong.ok && !unknown.ok) expect(loginErrorMessage(wrong)).toBe(loginErrorMessage(unknown));
  });

  it("refuses a deactivated user even with the right password", async () => {
    const r = await attemptLogin(db, "gone@example.org", "right-password", t0);
    expect(r).toEqual({ ok: false, reason: "inactive" });
  });

  it("locks after 5 failures within 15 minutes, refuses the right password while locked, and unlocks after 15 minutes", async () => {
    // 4 failures one minute apart: still allowed.
    for (let i = 0; i < MAX_FAILURES - 1; i++) expect(await attemptLogin(db, "lock@example.org", "bad", at(i * 60_000))).toEqual({ ok: false, reason: "invalid" });
    // The 5th locks: until 4 min + 15 min after t0.
    const fifth = await attemptLogin(db, "lock@example.org", "bad", at(4 * 60_000));
    expect(fifth).toEqual({ ok: false, reason: "locked", until: at(4 * 60_000 + LOCK_MS) });
    // Right password one minute later: still locked, and the message says 14 minutes are left.
    const during = await attemptLogin(db, "lock@example.org", "right-password", at(5 * 60_000));
    expect(during.ok).toBe(false);
    if (!during.ok) expect(loginErrorMessage(during, at(5 * 60_000))).toBe("Too many failed sign-in attempts. Try again in 14 minutes.");
    // Emails are compared case-insensitively for throttling.
    expect(await lockedUntil(db, throttleKey("LOCK@example.org"), at(5 * 60_000))).toEqual(at(4 * 60_000 + LOCK_MS));
    // After the lock ends, the right password works and clears the record.
    const after = await attemptLogin(db, "lock@example.org", "right-password", at(4 * 60_000 + LOCK_MS + 1));
    expect(after.ok).toBe(true);
    expect(await db.loginThrottle.findUnique({ where: { key: throttleKey("lock@example.org") } })).toBeNull();
  });

  it("does not count failures that are more than 15 minutes apart as one streak", async () => {
    const key = throttleKey("spread@example.org");
    for (let i = 0; i < 2 * MAX_FAILURES; i++) expect(await recordFailure(db, key, at(i * (WINDOW_MS + 1)))).toBeNull();
    expect((await db.loginThrottle.findUnique({ where: { key } }))?.failures).toBe(1);
  });

  it("counts concurrent failures (as from several app servers) without losing any", async () => {
    const results = await Promise.all(Array.from({ length: MAX_FAILURES }, () => attemptLogin(db, "race@example.org", "bad", t0)));
    expect(results.filter((r) => !r.ok && r.reason === "locked")).toHaveLength(1);
    expect(await lockedUntil(db, throttleKey("race@example.org"), t0)).toEqual(at(LOCK_MS));
  });
});
