import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";
import { apiSession, loginAs } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";

/**
 * The lead's project and user pages in Chromium, driven as a person would: the login form,
 * creating a project, editing its settings, adding, deactivating and resetting users.
 * Build first: NEXT_DIST_DIR=.next-auth npx next build; run with the same NEXT_DIST_DIR.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: "lead-password" });
  await createUser(db, { email: "ann@example.org", name: "Ann", role: "annotator", password: "ann-password" });
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
});

afterAll(async () => {
  await browser?.close();
});

describe("lead: login, projects, settings, users", () => {
  it("shows a wrong password on the login form, then signs in and lands on /lead", async () => {
    await page.goto(`${server.url}/login`);
    // The button is enabled once the form is hydrated.
    await page.locator("button[type=submit]:enabled").waitFor();
    await page.getByLabel("Email").fill("lead@example.org");
    await page.getByLabel("Password").fill("not-it");
    await page.getByLabel("Password").press("Enter");
    // (Next adds its own role=alert route announcer: look inside the form.)
    await expect.poll(() => page.locator("form").getByRole("alert").textContent()).toBe("Wrong email or password.");
    await loginAs(page, server.url, "lead@example.org", "lead-password");
    expect(new URL(page.url()).pathname).toBe("/lead");
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link").allTextContents()).toEqual([
      "Assessor",
      "Adjudicate",
      "Dashboard",
      "Project",
      "Write",
    ]);
  });

  it("creates a project and saves its settings", async () => {
    await page.getByLabel("Project name").fill("Demo");
    await page.getByRole("button", { name: "Create project" }).click();
    // The new project opens at once: no click on the list's link, which may already be gone.
    await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/lead\/projects\/[^/]+$/);
    const settings = page.getByRole("region", { name: "Settings" });
    await settings.getByLabel("Pool depth").fill("5");
    await page.getByLabel("Disagreement rule").selectOption("distance_two");
    await page.getByLabel("Start tolerance (seconds)").fill("7.5");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor();
    expect(
      await db.project.findUnique({
        where: { name: "Demo" },
        select: { poolDepth: true, disagreementRule: true, startToleranceSeconds: true },
      }),
    ).toEqual({
      poolDepth: 5,
      disagreementRule: "distance_two",
      startToleranceSeconds: 7.5,
    });
    // Out of range: the server's 422 is shown next to the form, and nothing changes.
    await settings.getByLabel("Annotators per item").fill("0");
    await settings.getByLabel("Annotators per item").evaluate((el) => el.removeAttribute("min"));
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => settings.getByRole("alert").textContent()).toContain("annotatorsPerItem");
    expect((await db.project.findUnique({ where: { name: "Demo" } }))?.annotatorsPerItem).toBe(2);
  });

  it("adds a user with the keyboard, resets a password and deactivates a user", async () => {
    await page.goto(`${server.url}/lead/users`);
    await page.getByLabel("Name").focus();
    await page.keyboard.type("Bob");
    await page.keyboard.press("Tab");
    await page.keyboard.type("Bob@Example.org");
    await page.keyboard.press("Tab");
    await page.getByLabel("Role").selectOption("adjudicator");
    await page.getByLabel("Initial password").focus();
    await page.keyboard.type("bob-password");
    await page.keyboard.press("Enter");
    await page.getByText("Added bob@example.org.").waitFor();
    expect(
      await db.user.findUnique({
        where: { email: "bob@example.org" },
        select: { name: true, role: true, active: true },
      }),
    ).toEqual({ name: "Bob", role: "adjudicator", active: true });
    await expect(apiSession(server.url, "bob@example.org", "bob-password")).resolves.toMatch(/session-token=/);

    await page.getByRole("button", { name: "Reset password of ann@example.org" }).click();
    await page.getByLabel("New password for ann@example.org", { exact: true }).fill("ann-new-password");
    await page.getByRole("button", { name: "Confirm password reset for ann@example.org" }).click();
    await page.getByRole("button", { name: "Reset password of ann@example.org" }).waitFor();
    await expect(apiSession(server.url, "ann@example.org", "ann-password")).rejects.toThrow(/Wrong email or password/);
    const annCookie = await server.cookie("ann@example.org", "ann-new-password");

    await page.getByRole("button", { name: "Deactivate ann@example.org" }).click();
    await page.getByRole("button", { name: "Reactivate ann@example.org" }).waitFor();
    expect((await db.user.findUnique({ where: { email: "ann@example.org" } }))?.active).toBe(false);
    // The session Ann already had stops working at once.
    const r = await fetch(`${server.url}/`, { headers: { Cookie: annCookie }, redirect: "manual" });
    expect(new URL(r.headers.get("location") ?? "", server.url).pathname).toBe("/login");
    // Reactivated, Ann signs in again; the session from before does not come back.
    await page.getByRole("button", { name: "Reactivate ann@example.org" }).click();
    await page.getByRole("button", { name: "Deactivate ann@example.org" }).waitFor();
    const again = await fetch(`${server.url}/`, { headers: { Cookie: annCookie }, redirect: "manual" });
    expect(new URL(again.headers.get("location") ?? "", server.url).pathname).toBe("/login");
    await expect(apiSession(server.url, "ann@example.org", "ann-new-password")).resolves.toMatch(/session-token=/);

    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "lead-users.png"), fullPage: true });
  });

  it("an annotator gets the 403 page at /lead and signs out from the nav", async () => {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await createUser(db, { email: "cat@example.org", name: "Cat", role: "annotator", password: "cat-password" });
    await loginAs(p, server.url, "cat@example.org", "cat-password");
    const res = await p.goto(`${server.url}/lead`);
    expect(res?.status()).toBe(403);
    await p.getByRole("heading", { name: "403: not allowed" }).waitFor();
    const copied = (await ctx.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    await p.getByRole("button", { name: "Sign out" }).click();
    await p.waitForURL(/\/login$/);
    // A copy of the session cookie taken before signing out no longer works.
    expect((await fetch(`${server.url}/api/annotate/queue`, { headers: { Cookie: copied } })).status).toBe(401);
    const again = await p.goto(`${server.url}/lead/users`);
    expect(new URL(again?.url() ?? "").pathname).toBe("/login");
    await ctx.close();
  });
});
