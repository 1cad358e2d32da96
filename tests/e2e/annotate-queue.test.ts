import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

/**
 * The paged queue in Chromium: an annotator with items in two projects opens
 * /annotate on the project graded in last, sees its name, picks the other project (kept in the
 * URL), grades across a page boundary (pages of 3 items: ASSESSOR_QUEUE_PAGE=3) with the keyboard,
 * and after a reload (which starts at the first ungraded item, in a page of its own) goes back with
 * `u` across the boundary into pages fetched on demand, positions from the server throughout.
 * Build first: NEXT_DIST_DIR=.next-annotate npx next build; run with the same NEXT_DIST_DIR.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
const PASSWORD = "e2e-password-1";
let alpha: { id: number; order: string[] };
let beta: { id: number; order: string[] };
let gamma: { id: number; order: string[] };

async function makeProject(name: string, questions: number, perQuestion: number, userId: string) {
  const project = await db.project.create({ data: { name } });
  const chunkingId = await defaultChunkingId(db, project.id);
  const video = await db.video.create({
    data: {
      projectId: project.id,
      externalId: "v",
      title: `${name} video`,
      path: "demo/media/bm25.mp4",
      durationSeconds: 92,
    },
  });
  const order: string[] = [];
  for (let q = 0; q < questions; q++) {
    const query = await db.query.create({
      data: { projectId: project.id, externalId: `q${q}`, text: `${name} question ${q + 1}?` },
    });
    const keyed: { id: string; key: number }[] = [];
    for (let c = 0; c < perQuestion; c++) {
      const chunk = await db.chunk.create({
        data: {
          projectId: project.id,
          chunkingId,
          videoId: video.id,
          externalId: `q${q}c${c}`,
          startSeconds: c * 10,
          endSeconds: c * 10 + 10,
          text: `${name} chunk ${q}.${c}`,
        },
      });
      const item = await db.poolItem.create({ data: { projectId: project.id, queryId: query.id, chunkId: chunk.id } });
      const key = Math.random();
      await db.assignment.create({ data: { poolItemId: item.id, userId, orderKey: key } });
      keyed.push({ id: item.id, key });
    }
    order.push(...keyed.sort((a, b) => a.key - b.key).map((k) => k.id));
  }
  return { id: project.id, order };
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const ann = await createUser(db, {
    email: "pager@example.org",
    name: "Pat Pager",
    role: "annotator",
    password: PASSWORD,
  });
  alpha = await makeProject("Alpha collection", 2, 4, ann.id);
  beta = await makeProject("Beta collection", 1, 3, ann.id);
  gamma = await makeProject("Gamma collection", 1, 5, ann.id);
  // Beta was graded in last: the page opens on it.
  await submitJudgement(db, ann.id, {
    poolItemId: beta.order[0],
    grade: 1,
    startSeconds: null,
    notes: "",
    flags: [],
    timeSpentMs: null,
    idempotencyKey: randomUUID(),
  });
});
const server = useTestServer({ env: { ASSESSOR_QUEUE_PAGE: "3" } });
beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const shown = (page: Page, id: string) => page.locator(`article[data-ready][data-item-id="${id}"]`).waitFor();
const position = async (page: Page) => (await page.getByTestId("position").textContent()) ?? "";

describe("the paged queue in the browser", () => {
  it("opens on the last project graded in, switches with the picker, grades across a page boundary and goes back across one with u", async () => {
    const page = await browser.newPage();
    await loginAs(page, server.url, "pager@example.org", PASSWORD);
    await page.goto(`${server.url}/annotate`);
    await shown(page, beta.order[1]);
    expect(await page.getByTestId("project-name").textContent()).toBe("Beta collection");
    const picker = page.getByLabel("Choose project");
    // The picker comes with the project counts, asked for once the first item is shown.
    await expect
      .poll(() => picker.locator("option").allTextContents(), { timeout: 10_000 })
      .toEqual(["Alpha collection — 8 left of 8", "Beta collection — 2 left of 3", "Gamma collection — 5 left of 5"]);
    expect(await position(page)).toBe("Question 1 of 1 · item 2 of 3");

    await picker.selectOption(String(alpha.id));
    await page.waitForURL(new RegExp(`[?&]project=${alpha.id}\\b`));
    await shown(page, alpha.order[0]);
    expect(await page.getByTestId("project-name").textContent()).toBe("Alpha collection");
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    // Five grades (auto-advance): items 1–5 of the project, across the boundary after item 3.
    for (let i = 0; i < 5; i++) {
      await shown(page, alpha.order[i]);
      expect(await position(page)).toBe(
        i < 4 ? `Question 1 of 2 · item ${i + 1} of 4` : "Question 2 of 2 · item 1 of 4",
      );
      await page.keyboard.press(String(i % 4));
      // Page 1 holds items 1–3; the item after a page's last comes from the next page.
    }
    await shown(page, alpha.order[5]);
    await expect
      .poll(() => db.judgement.count({ where: { poolItem: { projectId: alpha.id } } }), { timeout: 10_000 })
      .toBe(5);
    const graded = await db.judgement.findMany({
      where: { poolItem: { projectId: alpha.id } },
      select: { poolItemId: true, grade: true },
    });
    expect(new Map(graded.map((g) => [g.poolItemId, g.grade]))).toEqual(
      new Map(alpha.order.slice(0, 5).map((id, i) => [id, i % 4])),
    );
    await expect
      .poll(async () => picker.locator("option").allTextContents())
      .toEqual(["Alpha collection — 3 left of 8", "Beta collection — 2 left of 3", "Gamma collection — 5 left of 5"]);

    // Reload: the project stays (URL); the queue starts at the first ungraded item (the 6th), in a
    // page of its own; u goes back to items 5, 4 (the page before, fetched now), 3, 2, 1.
    await page.reload();
    await shown(page, alpha.order[5]);
    expect(await page.getByTestId("project-name").textContent()).toBe("Alpha collection");
    expect(await position(page)).toBe("Question 2 of 2 · item 2 of 4");
    for (let i = 4; i >= 0; i--) {
      await page.keyboard.press("u");
      await shown(page, alpha.order[i]);
      expect(await position(page)).toBe(
        i < 4 ? `Question 1 of 2 · item ${i + 1} of 4` : "Question 2 of 2 · item 1 of 4",
      );
    }
    // At the first item, u stays.
    await page.keyboard.press("u");
    await page.waitForTimeout(300);
    expect(await page.locator("article[data-ready]").getAttribute("data-item-id")).toBe(alpha.order[0]);
    await page.close();
  });

  it("goes on to the next item not graded, never sends an unchanged graded item again, and opens on the end card saying done when all are graded", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await ctx.newPage();
    let posts = 0;
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/api/annotate/judgements")) posts += 1;
    });
    /** No grade is sent after a key (the outbox sends at once: a short wait shows it). */
    const noPost = async (before: number) => {
      await page.waitForTimeout(600);
      expect(posts).toBe(before);
    };
    const times = async () =>
      new Map(
        (
          await db.judgement.findMany({
            where: { poolItem: { projectId: gamma.id } },
            select: { poolItemId: true, timeSpentMs: true, grade: true },
          })
        ).map((j) => [j.poolItemId, [j.grade, j.timeSpentMs]]),
      );
    await loginAs(page, server.url, "pager@example.org", PASSWORD);
    await page.goto(`${server.url}/annotate?project=${gamma.id}`);
    await shown(page, gamma.order[0]);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("2");
    await shown(page, gamma.order[1]);
    await page.keyboard.press("1");
    await shown(page, gamma.order[2]);
    await expect.poll(() => db.judgement.count({ where: { poolItem: { projectId: gamma.id } } })).toBe(2);
    const firstTimes = await times();

    // Back to item 1 (graded): it says so; Enter leaves it as it is and goes to item 3, the next
    // not graded (not item 2, graded already).
    await page.keyboard.press("u");
    await shown(page, gamma.order[1]);
    await page.keyboard.press("u");
    await shown(page, gamma.order[0]);
    expect(await page.getByTestId("revisit-note").textContent()).toMatch(
      /^You graded this item 2\. Enter goes on and leaves it as it is/,
    );
    const sent = posts;
    await page.keyboard.press("Enter");
    await shown(page, gamma.order[2]);
    // The same grade again is no edit either.
    await page.keyboard.press("u");
    await shown(page, gamma.order[1]);
    await page.keyboard.press("1");
    await shown(page, gamma.order[2]);
    await noPost(sent);
    expect(await times()).toEqual(firstTimes);

    // Items 3–5 (across the page boundary after item 3): then the end card says done.
    for (const [i, key] of [
      [2, "3"],
      [3, "0"],
      [4, "2"],
    ] as const) {
      await shown(page, gamma.order[i]);
      await page.keyboard.press(key);
    }
    const end = page.getByRole("region", { name: "End of queue" });
    await end.waitFor();
    await expect
      .poll(() => end.getByTestId("all-done").textContent(), { timeout: 10_000 })
      .toBe("Done: all 5 of your items in this project are graded. Nothing is left to grade here.");
    await expect.poll(() => page.getByTestId("outbox").textContent(), { timeout: 15_000 }).toBe("All grades saved.");
    const graded = await times();
    expect(graded.size).toBe(5);

    // A reload opens on the end card (not on item 1); Enter there sends nothing.
    await page.reload();
    await end.waitFor();
    expect(await page.locator("article").count()).toBe(0);
    await expect.poll(() => end.getByTestId("all-done").count(), { timeout: 10_000 }).toBe(1);
    const afterReload = posts;
    await page.keyboard.press("Enter");
    await noPost(afterReload);
    // u: the last item, graded: Enter (and its own grade again) go back to the end card without sending it.
    await page.keyboard.press("u");
    await shown(page, gamma.order[4]);
    await page.keyboard.press("Enter");
    await end.waitFor();
    await page.keyboard.press("u");
    await shown(page, gamma.order[4]);
    await page.keyboard.press("2");
    await end.waitFor();
    await noPost(afterReload);
    expect(await times()).toEqual(graded);
    expect(await db.labelEvent.count({ where: { projectId: gamma.id } })).toBe(5);
    // An explicit edit is sent.
    await page.keyboard.press("u");
    await shown(page, gamma.order[4]);
    await page.keyboard.press("3");
    await end.waitFor();
    await expect.poll(async () => (await times()).get(gamma.order[4])?.[0], { timeout: 10_000 }).toBe(3);
    expect(posts).toBe(afterReload + 1);
    await ctx.close();
  });
});
