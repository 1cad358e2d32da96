import { mkdirSync } from "node:fs";
import { twoKeyGrading } from "../helpers/csp.ts";
import { join } from "node:path";
import type { Browser, BrowserContext, Page, Request, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { artifactsDir, launchBrowser, type RunningServer } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { PASSWORDS, type TFixture } from "../integration/annotate-fixture.ts";

/**
 * No lost grades, in Chromium: the browser goes offline, the annotator grades
 * five items with the keyboard, the page is even reloaded while the server is still unreachable,
 * and when the network returns all five reach the server exactly once — including one whose
 * first delivery was applied by the server but whose answer was lost (the retry carries the same
 * idempotency key and is not applied again).
 * Build first: NEXT_DIST_DIR=.next-annotate npx next build; run with the same NEXT_DIST_DIR.
 */
const project = useAnnotatorProject();
let db: Db;
let server: RunningServer;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let fx: TFixture;

beforeAll(async () => {
  ({ db, fx, server } = project);
  browser = await launchBrowser();
  ctx = await browser.newContext();
  await twoKeyGrading(ctx);
  page = await ctx.newPage();
  await loginAs(page, server.url, "ann@example.org", PASSWORDS.ann);
});

afterAll(async () => {
  await browser?.close();
});

const outboxText = () => page.getByTestId("outbox").textContent();

describe("offline grading", () => {
  it("keeps five grades made offline, across a reload, and delivers each exactly once", async () => {
    expect(fx.items.length).toBeGreaterThanOrEqual(6);
    // The page loads the next five items once the first has been on screen a moment (its
    // background reads): counted here, since on a loaded machine "network idle" can come first.
    // Distinct items other than the one on screen: a loaded machine may read an item twice (a
    // refetch), which must not count as one more item ahead. A read counts once its body has
    // arrived ("requestfinished"; "response" comes with the headers): going offline while a body is
    // still on its way loses that item, which the page then cannot show offline.
    const read = new Set<string>();
    const countAhead = (request: Request) => {
      const path = new URL(request.url()).pathname;
      if (!path.startsWith("/api/annotate/items/")) return;
      void request.response().then((r) => {
        if (r?.ok()) read.add(path.slice("/api/annotate/items/".length));
      });
    };
    page.on("requestfinished", countAhead);
    await page.goto(`${server.url}/annotate`);
    await page.locator("article[data-ready]").waitFor();
    const first = await page.locator("article[data-ready]").getAttribute("data-item-id");
    await expect
      .poll(() => [...read].filter((id) => id !== first).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(5);
    page.off("requestfinished", countAhead);

    await ctx.setOffline(true);
    const graded: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await page.locator("article[data-ready]").getAttribute("data-item-id");
      graded.push(id ?? "");
      await page.keyboard.press(String(i % 4));
      await page.keyboard.press("Enter");
      await expect.poll(() => page.locator("article[data-ready]").getAttribute("data-item-id")).not.toBe(id);
    }
    await expect.poll(outboxText).toMatch(/^5 grades waiting to be sent/);
    expect(await db.judgement.count({ where: { userId: fx.ann.id } })).toBe(0);
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "annotate-offline.png"), fullPage: true });

    // The network is back but the server still cannot be reached: the page reloads and finds
    // the five grades in its local queue.
    let blocked = true;
    let lostAnswers = 0;
    await page.route("**/api/annotate/judgements", async (route: Route) => {
      if (blocked) return route.abort("connectionrefused");
      // The first delivery reaches the server, but its answer is lost on the way back.
      if (lostAnswers === 0) {
        lostAnswers++;
        await route.fetch();
        return route.abort("connectionreset");
      }
      return route.continue();
    });
    await ctx.setOffline(false);
    await page.reload();
    await page.locator("article[data-ready]").waitFor();
    await expect.poll(outboxText).toMatch(/^5 grades waiting to be sent/);
    const stored = await page.evaluate(
      (key) => JSON.parse(window.localStorage.getItem(key) ?? "[]") as { key: string; itemId: string }[],
      `assessor.outbox.${fx.ann.id}`,
    );
    expect(stored.map((e) => e.itemId)).toEqual(graded);

    // The server becomes reachable: the queue drains by itself (backoff), with no action.
    blocked = false;
    await expect.poll(outboxText, { timeout: 45_000, interval: 500 }).toBe("All grades saved.");
    expect(lostAnswers).toBe(1);

    const judgements = await db.judgement.findMany({
      where: { userId: fx.ann.id },
      select: { poolItemId: true, grade: true, idempotencyKey: true },
    });
    expect(judgements.map((j) => j.poolItemId).sort()).toEqual([...graded].sort());
    for (const [i, id] of graded.entries()) expect(judgements.find((j) => j.poolItemId === id)?.grade).toBe(i % 4);
    // Exactly once: one history event per submission, under the key the browser chose.
    const events = await db.labelEvent.findMany({
      where: { actorId: fx.ann.id },
      select: { idempotencyKey: true, poolItemId: true },
    });
    expect(events.length).toBe(5);
    expect(new Set(events.map((e) => e.idempotencyKey))).toEqual(new Set(stored.map((e) => e.key)));
    expect(await page.evaluate((key) => window.localStorage.getItem(key), `assessor.outbox.${fx.ann.id}`)).toBe("[]");
  });

  it("shows a refused grade with its item and reason, sends the next grades anyway, and dismisses it", async () => {
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await ctx.setOffline(false);
    await page.goto(`${server.url}/annotate`);
    await page.locator("article[data-ready]").waitFor();
    const refusedId = await page.locator("article[data-ready]").getAttribute("data-item-id");
    // The server refuses this one item's grade with a 422 (as it would a bad field); every other passes.
    await page.route("**/api/annotate/judgements", async (route: Route) => {
      if (refusedId && (route.request().postData() ?? "").includes(refusedId))
        return route.fulfill({
          status: 422,
          contentType: "application/json",
          body: JSON.stringify({ error: { code: "bad_input", message: "notes: a test refusal" } }),
        });
      return route.continue();
    });
    const before = await db.judgement.count({ where: { userId: fx.ann.id } });
    await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator("article[data-ready]").getAttribute("data-item-id")).not.toBe(refusedId);
    const nextId = await page.locator("article[data-ready]").getAttribute("data-item-id");
    await page.keyboard.press("1");
    await page.keyboard.press("Enter");
    const failed = page.getByTestId("failed-grade");
    await failed.waitFor();
    expect(await failed.getAttribute("data-item-id")).toBe(refusedId);
    expect(await failed.textContent()).toMatch(
      /Question \d+, item \d+ \(“[^”]+”\) \(grade 2\): notes: a test refusal \(HTTP 422\)/,
    );
    // The refused grade is not retried and does not hold the next one back.
    await expect.poll(() => db.judgement.count({ where: { userId: fx.ann.id } }), { timeout: 20_000 }).toBe(before + 1);
    expect((await db.judgement.findFirst({ where: { userId: fx.ann.id, poolItemId: nextId ?? "" } }))?.grade).toBe(1);
    expect(await db.judgement.count({ where: { userId: fx.ann.id, poolItemId: refusedId ?? "" } })).toBe(0);
    // With a refused grade listed, the status line says so instead of "All grades saved.".
    await expect.poll(outboxText).toBe("1 grade was not saved (listed below); every other grade is saved.");
    await failed.getByRole("button", { name: "Dismiss" }).click();
    await failed.waitFor({ state: "detached" });
    await expect.poll(outboxText).toBe("All grades saved.");
    await page.unrouteAll({ behavior: "ignoreErrors" });
  });
});
