import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";
import {
  createUser,
  listUsers,
  revokeSessions,
  setActive,
  setPassword,
  setRole,
  verifyCredentials,
} from "../../lib/users/users.ts";

useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
});

describe("lib/users", () => {
  it("creates a user with an argon2id hash and checks credentials; email is case-insensitive", async () => {
    const u = await createUser(db, {
      email: " Lee@Example.org ",
      name: "Lee",
      role: "lead",
      password: "correct horse",
    });
    expect(u).toMatchObject({ email: "lee@example.org", name: "Lee", role: "lead", active: true });
    expect(u).not.toHaveProperty("passwordHash");
    const stored = await db.user.findUniqueOrThrow({ where: { id: u.id }, select: { passwordHash: true } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$/);
    expect(await verifyCredentials(db, "LEE@example.org", "correct horse")).toEqual({
      ok: true,
      user: { id: u.id, email: "lee@example.org", name: "Lee", role: "lead", sessionVersion: 0 },
    });
    expect(await verifyCredentials(db, "lee@example.org", "wrong horse")).toEqual({ ok: false, reason: "invalid" });
    expect(await verifyCredentials(db, "nobody@example.org", "correct horse")).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("refuses bad input and duplicates", async () => {
    await expect(
      createUser(db, { email: "not-an-email", name: "X", role: "annotator", password: "long enough" }),
    ).rejects.toMatchObject({ code: "bad_input", message: "email: expected an email address such as ann@example.org" });
    await expect(
      createUser(db, { email: "short@example.org", name: "X", role: "annotator", password: "short" }),
    ).rejects.toMatchObject({ code: "bad_input", message: "password: a password needs at least 8 characters" });
    await expect(
      createUser(db, { email: "LEE@example.org", name: "Again", role: "annotator", password: "long enough" }),
    ).rejects.toMatchObject({ code: "conflict", message: "a user with email lee@example.org already exists" });
  });

  it("deactivated users cannot sign in; reactivation and a new password work", async () => {
    const u = await createUser(db, {
      email: "dee@example.org",
      name: "Dee",
      role: "annotator",
      password: "first password",
    });
    await setActive(db, { email: "dee@example.org" }, false);
    expect(await verifyCredentials(db, "dee@example.org", "first password")).toEqual({ ok: false, reason: "inactive" });
    // A wrong password on a deactivated account says "invalid", not "inactive": nothing leaks.
    expect(await verifyCredentials(db, "dee@example.org", "guess")).toEqual({ ok: false, reason: "invalid" });
    await setActive(db, { id: u.id }, true);
    await setPassword(db, { email: "dee@example.org" }, "second password");
    expect((await verifyCredentials(db, "dee@example.org", "first password")).ok).toBe(false);
    expect((await verifyCredentials(db, "dee@example.org", "second password")).ok).toBe(true);
    await expect(setActive(db, { email: "ghost@example.org" }, false)).rejects.toMatchObject({
      code: "not_found",
      message: "no user ghost@example.org",
    });
    expect((await listUsers(db, { role: "annotator" })).map((x) => x.email)).toContain("dee@example.org");
  });

  it("refuses a user's own deactivation with a clear error and changes nothing; another lead (or the CLI) can", async () => {
    const lead = await createUser(db, {
      email: "self@example.org",
      name: "Self",
      role: "lead",
      password: "long enough",
    });
    const other = await createUser(db, {
      email: "other-lead@example.org",
      name: "Other",
      role: "lead",
      password: "long enough",
    });
    await expect(setActive(db, { id: lead.id }, false, lead.id)).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(/^you cannot deactivate your own account/),
    });
    await expect(setActive(db, { email: "SELF@example.org" }, false, lead.id)).rejects.toMatchObject({
      code: "forbidden",
    });
    expect(
      await db.user.findUniqueOrThrow({ where: { id: lead.id }, select: { active: true, sessionVersion: true } }),
    ).toEqual({ active: true, sessionVersion: 0 });
    expect((await setActive(db, { id: lead.id }, false, other.id)).active).toBe(false);
    expect((await setActive(db, { id: lead.id }, true, lead.id)).active).toBe(true);
    expect((await setActive(db, { id: lead.id }, false)).active).toBe(false);
  });

  it("each password, activity or role change bumps the session version; sign-out bumps it only from the current version", async () => {
    const u = await createUser(db, {
      email: "sv@example.org",
      name: "Sv",
      role: "annotator",
      password: "first password",
    });
    const version = async () => (await db.user.findUniqueOrThrow({ where: { id: u.id } })).sessionVersion;
    expect(await version()).toBe(0);
    await setPassword(db, { id: u.id }, "second password");
    expect(await version()).toBe(1);
    await setActive(db, { id: u.id }, false);
    await setActive(db, { id: u.id }, true);
    expect(await version()).toBe(3);
    await setRole(db, { email: "SV@example.org" }, "adjudicator");
    expect(await version()).toBe(4);
    expect((await db.user.findUniqueOrThrow({ where: { id: u.id } })).role).toBe("adjudicator");
    await expect(setRole(db, { id: u.id }, "admin" as "lead")).rejects.toMatchObject({ code: "bad_input" });
    // A stale token (version 3) cannot sign out the current session (version 4); the current one can.
    expect(await revokeSessions(db, u.id, 3)).toBe(false);
    expect(await version()).toBe(4);
    expect(await revokeSessions(db, u.id, 4)).toBe(true);
    expect(await version()).toBe(5);
  });
});

describe("assessor user …", () => {
  it("adds with a password from stdin, or prints a generated one once", async () => {
    const a = runCli(
      ["user", "add", "--email", "ann@example.org", "--name", "Ann", "--role", "annotator", "--password-stdin"],
      { input: "from stdin 123\n" },
    );
    expect(a).toMatchObject({ code: 0, stdout: "added annotator ann@example.org (Ann)\n" });
    expect((await verifyCredentials(db, "ann@example.org", "from stdin 123")).ok).toBe(true);

    const b = runCli(["user", "add", "--email", "bob@example.org", "--name", "Bob", "--role", "adjudicator"]);
    expect(b.code).toBe(0);
    const printed = /^password: (\S+) /m.exec(b.stdout)?.[1];
    expect(printed).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect((await verifyCredentials(db, "bob@example.org", printed!)).ok).toBe(true);

    const dup = runCli(
      ["user", "add", "--email", "ann@example.org", "--name", "Ann", "--role", "annotator", "--password-stdin"],
      { input: "whatever 123" },
    );
    expect(dup).toMatchObject({ code: 1, stderr: "error: a user with email ann@example.org already exists\n" });
    const badRole = runCli(["user", "add", "--email", "c@example.org", "--name", "C", "--role", "boss"]);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain("Allowed choices are lead, adjudicator, annotator");
  });

  it("lists, deactivates and resets passwords", async () => {
    const list = runCli(["user", "list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("ann@example.org\tAnn\tannotator\tactive\n");
    expect(runCli(["user", "deactivate", "ann@example.org"])).toMatchObject({
      code: 0,
      stdout: "deactivated ann@example.org\n",
    });
    expect(runCli(["user", "list"]).stdout).toContain("ann@example.org\tAnn\tannotator\tdeactivated\n");
    expect(await verifyCredentials(db, "ann@example.org", "from stdin 123")).toEqual({ ok: false, reason: "inactive" });
    expect(
      runCli(["user", "reset-password", "bob@example.org", "--password-stdin"], { input: "brand new pass" }).code,
    ).toBe(0);
    expect((await verifyCredentials(db, "bob@example.org", "brand new pass")).ok).toBe(true);
    expect(runCli(["user", "deactivate", "ghost@example.org"])).toMatchObject({
      code: 1,
      stderr: "error: no user ghost@example.org\n",
    });
  });
});
