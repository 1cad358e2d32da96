import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { cspViolations, watchCsp } from "../helpers/csp.ts";
import { stubYouTube } from "../helpers/youtube.ts";
import { PASSWORDS, seedAnnotationFixture, type TFixture } from "../integration/annotate-fixture.ts";

/**
 * Every page passes its Content-Security-Policy: each role signs in through
 * the login page and opens its pages, which must hydrate (a blocked script would leave them
 * dead) with no `securitypolicyviolation` event; the annotator's queue includes a YouTube video
 * (react-player's iframe and the IFrame API, stubbed offline: tests/helpers/youtube.ts).
 * A page framed by another origin is refused by frame-ancestors 'none'.
 */
useTestDatabase();
let browser: Browser;
let fx: TFixture;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  fx = await seedAnnotationFixture(await getDb());
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function signedIn(email: string, password: string): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await watchCsp(ctx);
  await stubYouTube(ctx, server.url);
  const page = await ctx.newPage();
  await loginAs(page, server.url, email, password);
  return { ctx, page };
}

describe("pages pass their Content-Security-Policy", () => {
  it("annotator: the queue with a self-hosted and a YouTube video, keys working", async () => {
    const { ctx, page } = await signedIn("ann@example.org", PASSWORDS.ann);
    await page.goto(`${server.url}/annotate`);
    await page.locator("[data-ready=true]").waitFor();
    // Hydrated: the help panel opens with its key.
    await page.keyboard.press("?");
    await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    await page.keyboard.press("Escape");
    // Grade with the keyboard until an item on the YouTube video comes up.
    for (let i = 0; i < fx.items.length && !(await page.locator("iframe[src*='youtube']").count()); i++) {
      const id = await page.locator("[data-ready=true]").getAttribute("data-item-id");
      await page.keyboard.press("1");
      await page.waitForTimeout(200);
      if ((await page.locator("[data-ready=true]").getAttribute("data-item-id")) === id)
        await page.keyboard.press("Enter");
      await page.waitForFunction(
        (old) => document.querySelector("[data-ready=true]")?.getAttribute("data-item-id") !== old,
        id,
      );
    }
    await page.locator("iframe[src*='youtube']").first().waitFor({ state: "attached", timeout: 15_000 });
    expect(await cspViolations(page)).toEqual([]);
    await ctx.close();
  });

  it("lead and adjudicator pages", async () => {
    for (const [email, password, paths] of [
      ["lead@example.org", PASSWORDS.lead, ["/lead", `/lead/projects/${fx.project.id}`, "/lead/users", "/dashboard"]],
      ["adj@example.org", PASSWORDS.adjudicator, ["/adjudicate", "/dashboard"]],
    ] as const) {
      const { ctx, page } = await signedIn(email, password);
      for (const path of paths) {
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState("networkidle");
      }
      // Each report names its page's path.
      expect(await cspViolations(page)).toEqual([]);
      await ctx.close();
    }
  });

  it("the watcher sees a blocked image, and keeps it across a navigation", async () => {
    const { ctx, page } = await signedIn("lead@example.org", PASSWORDS.lead);
    await page.goto(`${server.url}/lead/users`);
    // img-src lists no other host: the browser refuses before any request is made.
    await page.evaluate(() => {
      const img = document.createElement("img");
      img.src = "https://elsewhere.invalid/pixel.png";
      document.body.append(img);
    });
    await page.goto(`${server.url}/lead`);
    expect(await cspViolations(page)).toEqual([
      expect.stringMatching(/^\/lead\/users: img-src blocked https:\/\/elsewhere\.invalid\/pixel\.png/),
    ]);
    await ctx.close();
  });

  it("another origin cannot frame the app", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.route("http://framer.test/", (r) =>
      r.fulfill({ contentType: "text/html", body: `<iframe id="f" src="${server.url}/login"></iframe>` }),
    );
    await page.goto("http://framer.test/");
    await page.waitForTimeout(1500);
    const frame = page.frames().find((f) => f.url().startsWith(server.url));
    const text = frame ? await frame.evaluate(() => document.body?.innerText ?? "").catch(() => "") : "";
    expect(text).not.toContain("Sign in");
    await ctx.close();
  });
});
