import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { startServer } from "../helpers/server.ts";
import { apiSession } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";

/**
 * Auth through a real server (`next start` on the build in NEXT_DIST_DIR, e.g.
 * `NEXT_DIST_DIR=.next-auth npx next build` first): sign-in, sessions, role checks of route(),
 * page guards, deactivation, role change, throttling, and the production secret requirement.
 */
const testDb = useTestDatabase();
let db: Db;
const PASSWORD = "correct horse battery";

async function addUser(email: string, role: "lead" | "adjudicator" | "annotator") {
  return createUser(db, { email, name: email.split("@")[0], role, password: PASSWORD });
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  await addUser("lead@example.org", "lead");
  await addUser("lead2@example.org", "lead");
  await addUser("adj@example.org", "adjudicator");
  await addUser("ann@example.org", "annotator");
  await addUser("throttled@example.org", "annotator");
});
const server = useTestServer();

const get = (path: string, cookie?: string) =>
  fetch(`${server.url}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
const send = (method: string, path: string, cookie: string, body: string) =>
  fetch(`${server.url}${path}`, {
    method,
    redirect: "manual",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body,
  });

describe("route() role checks and error mapping", () => {
  it("answers 401 without a session, 403 for the wrong role, 200 for the lead", async () => {
    const none = await get("/api/lead/projects");
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ error: { code: "unauthenticated", message: "sign in first" } });

    for (const email of ["ann@example.org", "adj@example.org"]) {
      const r = await get("/api/lead/projects", await server.cookie(email, PASSWORD));
      expect(r.status).toBe(403);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe("forbidden");
    }
    const lead = await get("/api/lead/projects", await server.cookie("lead@example.org", PASSWORD));
    expect(lead.status).toBe(200);
    expect(await lead.json()).toEqual([]);
  });

  it("validates bodies: 400 for malformed JSON, 422 with issues for a bad value, 409 for a duplicate, 404 for an unknown project", async () => {
    const cookie = await server.cookie("lead@example.org", PASSWORD);
    expect((await send("POST", "/api/lead/projects", cookie, "{not json")).status).toBe(400);

    const bad = await send("POST", "/api/lead/projects", cookie, JSON.stringify({ name: "  " }));
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      error: {
        code: "bad_input",
        message: "invalid request body",
        details: [{ path: "name", message: "a project needs a name" }],
      },
    });

    const created = await send("POST", "/api/lead/projects", cookie, JSON.stringify({ name: "Alpha" }));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const dup = await send("POST", "/api/lead/projects", cookie, JSON.stringify({ name: "Alpha" }));
    expect(dup.status).toBe(409);

    const badSetting = await send("PATCH", `/api/lead/projects/${id}`, cookie, JSON.stringify({ poolDepth: 0 }));
    expect(badSetting.status).toBe(422);
    expect(((await badSetting.json()) as { error: { details: { path: string }[] } }).error.details[0].path).toBe(
      "poolDepth",
    );

    const ok = await send(
      "PATCH",
      `/api/lead/projects/${id}`,
      cookie,
      JSON.stringify({ poolDepth: 7, disagreementRule: "distance_two" }),
    );
    expect(ok.status).toBe(200);
    expect(await db.project.findUnique({ where: { id }, select: { poolDepth: true, disagreementRule: true } })).toEqual(
      { poolDepth: 7, disagreementRule: "distance_two" },
    );

    expect((await send("PATCH", "/api/lead/projects/99999", cookie, JSON.stringify({ poolDepth: 3 }))).status).toBe(
      404,
    );
    expect((await get("/api/lead/projects/abc", cookie)).status).toBe(404);
  });
});

describe("pages", () => {
  it("sends the signed-out to /login and each role to its own start page", async () => {
    const out = await get("/lead");
    expect([307, 308]).toContain(out.status);
    expect(out.headers.get("location")).toMatch(/\/login\?callbackUrl=%2Flead$/);

    const expectations: [string, string][] = [
      ["ann@example.org", "/annotate"],
      ["adj@example.org", "/adjudicate"],
      ["lead@example.org", "/lead"],
    ];
    for (const [email, home] of expectations) {
      const r = await get("/", await server.cookie(email, PASSWORD));
      expect(r.status).toBe(307);
      expect(new URL(r.headers.get("location") ?? "", server.url).pathname).toBe(home);
    }
  });

  it("renders 403 for a page the role does not allow, and the page for the right role", async () => {
    const ann = await get("/lead", await server.cookie("ann@example.org", PASSWORD));
    expect(ann.status).toBe(403);
    expect(await ann.text()).toContain("403: not allowed");

    const lead = await get("/lead", await server.cookie("lead@example.org", PASSWORD));
    expect(lead.status).toBe(200);
    const html = await lead.text();
    expect(html).toContain("Projects");
    // The nav shows the lead's links and not the annotator's.
    expect(html).toContain('href="/lead"');
    expect(html).toContain('href="/dashboard"');
    expect(html).not.toContain('href="/annotate"');
  });
});

describe("sessions follow the database", () => {
  it("a deactivated user loses access at once, with a session issued before", async () => {
    const cookie = await server.cookie("lead2@example.org", PASSWORD);
    expect((await get("/api/lead/projects", cookie)).status).toBe(200);
    await db.user.update({ where: { email: "lead2@example.org" }, data: { active: false } });
    expect((await get("/api/lead/projects", cookie)).status).toBe(401);
    await expect(apiSession(server.url, "lead2@example.org", PASSWORD)).rejects.toThrow(/deactivated/);
  });

  it("a tampered session cookie is no session", async () => {
    const cookie = await server.cookie("lead@example.org", PASSWORD);
    // Change one character inside the token's first segment (the protected header). Not the last
    // character: the final base64url character of a segment may carry only padding bits, which
    // decoders ignore, so changing it can leave the token's bytes as they were.
    const tampered = cookie.replace(
      /(session-token=[^;.]{10})(.)/,
      (_m, head: string, c: string) => `${head}${c === "A" ? "B" : "A"}`,
    );
    expect(tampered).not.toBe(cookie);
    expect((await get("/api/lead/projects", tampered)).status).toBe(401);
    expect((await get("/api/lead/projects", cookie)).status).toBe(200);
  });

  it("a role change through the lead's route ends the session; signing in again gives the new role", async () => {
    const lead = await server.cookie("lead@example.org", PASSWORD);
    const cookie = await server.cookie("adj@example.org", PASSWORD);
    expect((await get("/api/lead/projects", cookie)).status).toBe(403);
    const id = (await db.user.findUniqueOrThrow({ where: { email: "adj@example.org" } })).id;
    expect((await send("PATCH", `/api/lead/users/${id}`, lead, JSON.stringify({ role: "lead" }))).status).toBe(200);
    expect((await get("/api/lead/projects", cookie)).status).toBe(401);
    expect((await get("/api/lead/projects", await apiSession(server.url, "adj@example.org", PASSWORD))).status).toBe(
      200,
    );
    // A lead cannot change their own role (nor lock the last lead out that way).
    const self = (await db.user.findUniqueOrThrow({ where: { email: "lead@example.org" } })).id;
    expect((await send("PATCH", `/api/lead/users/${self}`, lead, JSON.stringify({ role: "annotator" }))).status).toBe(
      422,
    );
    await db.user.update({ where: { email: "adj@example.org" }, data: { role: "adjudicator" } });
  });
});

describe("login throttling over HTTP", () => {
  it("after 5 wrong passwords the next attempt waits (backoff, not a 15-minute lock); then the right one works", async () => {
    for (let i = 0; i < 5; i++)
      await expect(apiSession(server.url, "throttled@example.org", "wrong")).rejects.toThrow(
        /HTTP 401: Wrong email or password/,
      );
    await expect(apiSession(server.url, "throttled@example.org", PASSWORD)).rejects.toThrow(
      /HTTP 429: Too many failed sign-in attempts\. Try again in 1 second\./,
    );
    // Another email is not affected.
    await expect(apiSession(server.url, "ann@example.org", PASSWORD)).resolves.toMatch(/session-token=/);
    await new Promise((r) => setTimeout(r, 1100));
    await expect(apiSession(server.url, "throttled@example.org", PASSWORD)).resolves.toMatch(/session-token=/);
  });
});

describe("NEXTAUTH_SECRET in production", () => {
  it("a server without the secret refuses sign-in with a 500 and says why in its log, not to the client", async () => {
    const bare = await startServer({ DATABASE_URL: testDb.url, NEXTAUTH_SECRET: "" });
    try {
      const r = await fetch(`${bare.url}/api/auth/csrf`);
      expect(r.status).toBe(500);
      expect(await r.text()).not.toContain("NEXTAUTH_SECRET");
      expect(bare.logs()).toContain("NEXTAUTH_SECRET is not set");
    } finally {
      await bare.stop();
    }
  });
});
