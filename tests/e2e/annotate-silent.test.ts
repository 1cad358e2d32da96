import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { createUser } from "../../lib/users/users.ts";
import type { Db } from "../../lib/db/client.ts";
import { PASSWORDS, SECRETS, type TFixture } from "../integration/annotate-fixture.ts";

/**
 * Nothing silent for the annotator, in Chromium, by keyboard where a
 * person would use keys:
 * - the guidelines (g) are a panel beside the item on a wide screen and below it on a phone, never
 *   over the chunk text, and their pipe tables render as tables;
 * - the playhead's time beside the start control (live while playing, "no video" without one);
 *   the next item's video loaded and cued in a second player, which is the one shown after the key;
 * - at 390 px and at 200 % zoom (640 × 360 CSS px) the next item's question and project are on
 *   screen after grading from the bottom of the page;
 * - a refused grade (409) names its item and question, the item then shows what the server holds,
 *   and it is dismissed with Tab and Enter;
 * - an item graded before says so in the same words whatever its state (an adjudicated one too:
 *   nothing about the other grades or the decision is shown), and a new grade is saved;
 * - an ended session says "You are signed out: N grades are kept on this device" at once; signing
 *   in in place (Tab, type, Enter) sends them and opens the first item not graded.
 * The fixture's online video is made a video without media (no network needed).
 */
const GUIDELINES =
  "## Grades by example\n\n| Grade | When |\n| --- | --- |\n| 3 | the chunk names the answer |\n| 0 | off topic |\n\nAsk the lead when unsure.";
const THIRD = { email: "third@example.org", password: "third-password-1" };

const project = useAnnotatorProject(async (d, f) => {
  await d.project.update({ where: { id: f.project.id }, data: { guidelines: GUIDELINES } });
  await d.video.update({ where: { id: f.ytVideo.id }, data: { url: null } });
  // A third annotator on every item, for the viewport checks (the others' queues stay for the other tests).
  const third = await createUser(d, {
    email: THIRD.email,
    name: "Third Annotator",
    role: "annotator",
    password: THIRD.password,
  });
  await d.assignment.createMany({
    data: f.items.map((it, i) => ({ poolItemId: it.id, userId: third.id, orderKey: (i * 7) % 11 })),
  });
});
let db: Db;
let fx: TFixture;
let browser: Browser;

beforeAll(async () => {
  ({ db, fx } = project);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const itemId = (page: Page) => page.locator("article[data-ready]").getAttribute("data-item-id");
const shownAfter = async (page: Page, old: string | null) => {
  await page.waitForFunction((o) => {
    const id = document.querySelector("article[data-ready]")?.getAttribute("data-item-id");
    return id !== undefined && id !== null && id !== o;
  }, old);
  return itemId(page);
};
const box = async (page: Page, selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} has no box`);
  return b;
};
const inViewport = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0;
    });

async function openAs(
  email: string,
  password: string,
  viewport: { width: number; height: number },
): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  await loginAs(page, project.server.url, email, password);
  await page.goto(`${project.server.url}/annotate`);
  await page.locator("article[data-ready]").waitFor();
  return { ctx, page };
}

/** Tab until the focused element matches, as a keyboard user would (at most 40 presses). */
async function tabTo(
  page: Page,
  matches: (el: { tag: string; label: string; name: string }) => boolean,
): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    const el = await page.evaluate(() => {
      const a = document.activeElement;
      return {
        tag: a?.tagName ?? "",
        label: a?.getAttribute("aria-label") ?? a?.textContent?.trim() ?? "",
        name: a?.getAttribute("name") ?? "",
      };
    });
    if (matches(el)) return;
  }
  throw new Error("not reached with 40 Tabs");
}

describe("the annotator's page says what happens", () => {
  it("shows the guidelines beside the chunk on a wide screen and below it on a phone, with tables", async () => {
    const { ctx, page } = await openAs(SECRETS.otherEmail, PASSWORDS.other, { width: 1440, height: 900 });
    await page.keyboard.press("g");
    const panel = page.getByRole("complementary", { name: "Guidelines" });
    await panel.waitFor();
    expect(await panel.locator("table th").allTextContents()).toEqual(["Grade", "When"]);
    expect(await panel.locator("table tbody tr").count()).toBe(2);
    expect(await panel.locator("td").first().textContent()).toBe("3");
    // Beside: the panel starts right of the chunk text, and they do not overlap.
    const chunk = await box(page, "[data-testid=chunk-text]");
    const side = await box(page, "[data-testid=guidelines-panel]");
    expect(side.x).toBeGreaterThanOrEqual(chunk.x + chunk.width);
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "annotate-guidelines-side.png") });
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
    await ctx.close();

    const phone = await openAs(SECRETS.otherEmail, PASSWORDS.other, { width: 390, height: 844 });
    await phone.page.keyboard.press("g");
    await phone.page.getByRole("complementary", { name: "Guidelines" }).waitFor();
    const article = await box(phone.page, "article[data-ready]");
    const below = await box(phone.page, "[data-testid=guidelines-panel]");
    expect(below.y).toBeGreaterThanOrEqual(article.y + article.height);
    await phone.ctx.close();
  });

  it("shows the playhead beside the start, and the next item's video is the preloaded player, cued", async () => {
    const { ctx, page } = await openAs(SECRETS.otherEmail, PASSWORDS.other, { width: 1280, height: 900 });
    const clock = page.getByTestId("playhead");
    let sawNoVideo = false;
    let sawLive = false;
    let preloaded = false;
    for (let step = 0; step < 7 && !(sawNoVideo && sawLive && preloaded); step++) {
      const id = await itemId(page);
      const hasVideo = (await page.getByTestId("media-notice").count()) === 0;
      if (!hasVideo) {
        await expect.poll(() => clock.textContent()).toBe("no video");
        sawNoVideo = true;
      } else if (!sawLive) {
        // Live while playing: m:ss, and it moves.
        await expect.poll(() => clock.textContent(), { timeout: 10_000 }).toMatch(/^\d+:\d\d$/);
        const t0 = Number(await clock.getAttribute("data-seconds"));
        await expect
          .poll(async () => Number(await clock.getAttribute("data-seconds")), { timeout: 10_000 })
          .toBeGreaterThan(t0 + 0.9);
        sawLive = true;
      }
      const next = page.locator("[data-testid=player-next] video");
      if ((await next.count()) === 1) {
        // Loaded and cued behind the current item, paused; after the key the same element is shown and plays.
        await expect
          .poll(() => next.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 10_000 })
          .toBeGreaterThanOrEqual(2);
        const cue = Number(await page.locator("[data-testid=player-next]").getAttribute("data-cue"));
        expect(Math.abs((await next.evaluate((v: HTMLVideoElement) => v.currentTime)) - cue)).toBeLessThan(0.5);
        expect(await next.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
        await next.evaluate((v: HTMLVideoElement) => (v.dataset.tag = "preloaded"));
        await page.keyboard.press("1");
        await shownAfter(page, id);
        const shown = page.locator("[data-testid=player] video");
        expect(await shown.getAttribute("data-tag")).toBe("preloaded");
        await expect
          .poll(() => shown.evaluate((v: HTMLVideoElement, c: number) => !v.paused && v.currentTime >= c - 0.1, cue))
          .toBe(true);
        // The clock follows the shown player (the page's controls moved to it).
        await expect
          .poll(async () => Number(await clock.getAttribute("data-seconds")), { timeout: 10_000 })
          .toBeGreaterThanOrEqual(cue - 0.1);
        preloaded = true;
      } else {
        await page.keyboard.press("1");
        await shownAfter(page, id);
      }
    }
    expect({ sawNoVideo, sawLive, preloaded }).toEqual({ sawNoVideo: true, sawLive: true, preloaded: true });
    await ctx.close();
  });

  for (const view of [
    // A phone's visible area with the browser's bars (390 × 844 screen): short enough that even an
    // item without video (a shorter page; the queue's order is random) scrolls its question away.
    { name: "a 390 px phone", viewport: { width: 390, height: 640 } },
    { name: "200 % zoom (640 × 360 CSS px)", viewport: { width: 640, height: 360 } },
  ]) {
    it(`brings the next question and its project on screen at ${view.name}`, async () => {
      const { ctx, page } = await openAs(THIRD.email, THIRD.password, view.viewport);
      for (let k = 0; k < 2; k++) {
        const id = await itemId(page);
        // The annotator scrolled down to the grade buttons and the notes.
        // (Again until it holds: the page may still grow while the item's media and counts arrive.)
        await expect
          .poll(async () => {
            await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
            return inViewport(page, "[data-testid=question]");
          })
          .toBe(false);
        await page.keyboard.press(String(k + 1));
        await shownAfter(page, id);
        await expect.poll(() => inViewport(page, "[data-testid=question]")).toBe(true);
        expect(await inViewport(page, "[data-testid=item-project]")).toBe(true);
        expect(await page.getByTestId("item-project").textContent()).toBe("Project Blind project");
      }
      await ctx.close();
    });
  }

  describe("as Ann", () => {
    let ctx: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      ({ ctx, page } = await openAs("ann@example.org", PASSWORDS.ann, { width: 1280, height: 900 }));
      // The page's background reads (next items, project counts) done, so the item read below is
      // the one the next key grades.
      await page.waitForLoadState("networkidle");
    });
    afterAll(async () => {
      await ctx?.close();
    });
    const outboxText = () => page.getByTestId("outbox").textContent();
    const pressed = () => page.getByRole("group", { name: "Grade" }).locator("button[aria-pressed=true]").count();

    it("names a refused grade's item and question, shows what the server holds, and dismisses it by keyboard", async () => {
      const refused = await itemId(page);
      const question = (await page.getByTestId("question").textContent()) ?? "";
      const position = (await page.getByTestId("position").textContent()) ?? "";
      const [, q, i] = /^Question (\d+) of \d+ · item (\d+) of/.exec(position) ?? [];
      await page.route("**/api/annotate/judgements", async (route: Route) => {
        if (refused && (route.request().postData() ?? "").includes(refused))
          return route.fulfill({
            status: 409,
            contentType: "application/json",
            body: JSON.stringify({ error: { code: "conflict", message: "a test refusal" } }),
          });
        return route.continue();
      });
      const sent = page.waitForRequest((r) => r.url().endsWith("/api/annotate/judgements") && r.method() === "POST");
      await page.keyboard.press("2");
      // The grade sent is the refused item's (else the item shown changed under the key).
      expect(JSON.parse((await sent).postData() ?? "{}").poolItemId).toBe(refused);
      await shownAfter(page, refused);
      const failed = page.getByTestId("failed-grade");
      await failed.waitFor();
      expect(await failed.getAttribute("data-item-id")).toBe(refused);
      expect(await failed.textContent()).toContain(
        `Question ${q}, item ${i} (“${question}”) (grade 2): a test refusal (HTTP 409)`,
      );
      // The status line does not say "All grades saved." beside it.
      await expect.poll(outboxText).toBe("1 grade was not saved (listed below); every other grade is saved.");
      await page.unrouteAll({ behavior: "ignoreErrors" });
      // Back on the item: no grade pressed, as the server holds none (not the refused 2).
      await page.keyboard.press("u");
      await page.locator(`article[data-ready][data-item-id="${refused}"]`).waitFor();
      await expect.poll(pressed).toBe(0);
      expect(await page.getByTestId("revisit-note").count()).toBe(0);
      expect(await db.judgement.count({ where: { userId: fx.ann.id, poolItemId: refused ?? "" } })).toBe(0);
      // Tab to its Dismiss button, Enter: gone.
      await tabTo(page, (el) => el.label.startsWith("Dismiss"));
      await page.keyboard.press("Enter");
      await failed.waitFor({ state: "detached" });
      expect(await itemId(page)).toBe(refused);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    });

    it("says an item was graded before in the same words whatever its state, and saves a new grade of an adjudicated item", async () => {
      const item = await itemId(page);
      await page.keyboard.press("2");
      const after = await shownAfter(page, item);
      await expect.poll(() => db.judgement.count({ where: { userId: fx.ann.id, poolItemId: item ?? "" } })).toBe(1);
      // Meanwhile the other annotator disagreed and the item was adjudicated.
      await db.judgement.upsert({
        where: { poolItemId_userId: { poolItemId: item ?? "", userId: fx.other.id } },
        create: { poolItemId: item ?? "", userId: fx.other.id, grade: 0, idempotencyKey: "silent-other-1" },
        update: { grade: 0 },
      });
      await db.adjudication.create({
        data: { poolItemId: item ?? "", adjudicatorId: fx.adjudicator.id, grade: 1, rationale: "settled" },
      });
      await page.keyboard.press("u");
      await page.locator(`article[data-ready][data-item-id="${item}"]`).waitFor();
      const note = page.getByTestId("revisit-note");
      expect(await note.textContent()).toBe(
        "You graded this item 2. Enter goes on and leaves it as it is; a new grade replaces yours; if the item has been adjudicated already, the adjudicator's decision stands and your change is shown to them.",
      );
      await page.keyboard.press("3");
      await shownAfter(page, item);
      expect(await itemId(page)).toBe(after);
      await expect.poll(outboxText).toBe("All grades saved.");
      expect(await page.getByTestId("failed-grades").count()).toBe(0);
      await expect
        .poll(
          async () => (await db.judgement.findFirst({ where: { userId: fx.ann.id, poolItemId: item ?? "" } }))?.grade,
        )
        .toBe(3);
      expect((await db.adjudication.findUniqueOrThrow({ where: { poolItemId: item ?? "" } })).grade).toBe(1);
    });

    it("says at once that the session ended, keeps the grades, and after signing in in place sends them and opens the first ungraded item", async () => {
      const graded: string[] = [];
      await ctx.clearCookies();
      for (const key of ["1", "2"]) {
        const id = await itemId(page);
        graded.push(id ?? "");
        await page.keyboard.press(key);
        await shownAfter(page, id);
      }
      const banner = page.getByTestId("signed-out");
      await banner.waitFor();
      await expect
        .poll(() => banner.locator("p").first().textContent())
        .toBe("You are signed out: 2 grades are kept on this device.");
      expect(await outboxText()).toMatch(/^2 grades waiting to be sent \(signed out\)/);
      expect(await db.judgement.count({ where: { userId: fx.ann.id, poolItemId: { in: graded } } })).toBe(0);
      mkdirSync(artifactsDir, { recursive: true });
      await page.screenshot({ path: join(artifactsDir, "annotate-signed-out.png") });

      // The email is filled in; Tab to the password, type it, Enter.
      await tabTo(page, (el) => el.tag === "INPUT" && el.name === "password");
      await page.keyboard.type(PASSWORDS.ann);
      await page.keyboard.press("Enter");
      await banner.waitFor({ state: "detached", timeout: 20_000 });
      await expect.poll(outboxText, { timeout: 20_000 }).toBe("All grades saved.");
      const stored = await db.judgement.findMany({
        where: { userId: fx.ann.id, poolItemId: { in: graded } },
        select: { poolItemId: true, grade: true },
      });
      expect(new Map(stored.map((j) => [j.poolItemId, j.grade]))).toEqual(
        new Map([
          [graded[0], 1],
          [graded[1], 2],
        ]),
      );
      // The page is on an item not graded yet (the server's "where you left off"), not on one just sent.
      await page.locator("article[data-ready]").waitFor();
      const now = await itemId(page);
      expect(graded).not.toContain(now);
      expect(await db.judgement.count({ where: { userId: fx.ann.id, poolItemId: now ?? "" } })).toBe(0);
      expect(page.url()).toMatch(/\/annotate/);
    });
  });
});
