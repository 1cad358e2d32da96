import { randomUUID } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDb } from "../helpers/db.ts";
import { launchBrowser, startServer, type RunningServer } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

/**
 * The paged queue in Chromium (issue 21 item 3): an annotator with items in two projects opens
 * /annotate on the project graded in last, sees its name, picks the other project (kept in the
 * URL), grades across a page boundary (pages of 3 items: ASSESSOR_QUEUE_PAGE=3) with the keyboard,
 * and after a reload (which starts at the first ungraded item, in a page of its own) goes back with
 * `u` across the boundary into pages fetched on demand, positions from the server throughout.
 * Build first: NEXT_DIST_DIR=.next-annotate npx next build; run with the same NEXT_DIST_DIR.
 */
let testDb: TestDb;
let db: Db;
let server: RunningServer;
let browser: Browser;
const PASSWORD = "e2e-password-1";
let alpha: { id: number; order: string[] };
let beta: { id: number; order: string[] };

async function makeProject(name: string, questions: number, perQuestion: number, userId: string) {
  const project = await db.project.create({ data: { name } });
  const chunkingId = await defaultChunkingId(db, project.id);
  const video = await db.video.create({ data: { projectId: project.id, externalId: "v", title: `${name} video`, path: "demo/media/bm25.mp4", durationSeconds: 92 } });
  const order: string[] = [];
  for (let q = 0; q < questions; q++) {
    const query = await db.query.create({ data: { projectId: project.id, externalId: `q${q}`, text: `${name} question ${q + 1}?` } });
    const keyed: { id: string; key: number }[] = [];
    for (let c = 0; c < perQuestion; c++) {
      const chunk = await db.chunk.create({ data: { projectId: project.id, chunkingId, videoId: video.id, externalId: `q${q}c${c}`, startSeconds: c * 10, endSeconds: c * 10 + 10, text: `${name} chunk ${q}.${c}` } });
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
  testDb = await createTestDatabase();
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const ann = await createUser(db, { email: "pager@example.org", name: "Pat Pager", role: "annotator", password: PASSWORD });
  alpha = await makeProject("Alpha collection", 2, 4, ann.id);
  beta = await makeProject("Beta collection", 1, 3, ann.id);
  // Beta was graded in last: the page opens on it.
  await submitJudgement(db, ann.id, { poolItemId: beta.order[0], grade: 1, startSeconds: null, notes: "", flags: [], timeSpentMs: null, idempotencyKey: randomUUID() });
  server = await startServer({ DATABASE_URL: testDb.url, ASSESSOR_QUEUE_PAGE: "3" });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await testDb?.cleanup();
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
    await expect.poll(() => picker.locator("option").allTextContents(), { timeout: 10_000 }).toEqual(["Alpha collection — 8 left of 8", "Beta collection — 2 left of 3"]);
    expect(await position(page)).toBe("Question 1 of 1 · item 2 of 3");

    await picker.selectOption(String(alpha.id));
    await page.waitForURL(new RegExp(`[?&]project=${alpha.id}\\b`));
    await shown(page, alpha.order[0]);
    expect(await page.getByTestId("project-name").textContent()).toBe("Alpha collection");
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

    // Five grades (auto-advance): items 1–5 of the project, across the boundary after item 3.
    for (let i = 0; i < 5; i++) {
      await shown(page, alpha.order[i]);
      expect(await position(page)).toBe(i < 4 ? `Question 1 of 2 · item ${i + 1} of 4` : "Question 2 of 2 · item 1 of 4");
      await page.keyboard.press(String(i % 4));
      // Page 1 holds items 1–3; the item after a page's last comes from the next page.
    }
    await shown(page, alpha.order[5]);
    await expect.poll(() => db.judgement.count({ where: { poolItem: { projectId: alpha.id } } }), { timeout: 10_000 }).toBe(5);
    const graded = await db.judgement.findMany({ where: { poolItem: { projectId: alpha.id } }, select: { poolItemId: true, grade: true } });
    expect(new Map(graded.map((g) => [g.poolItemId, g.grade]))).toEqual(new Map(alpha.order.slice(0, 5).map((id, i) => [id, i % 4])));
    await expect.poll(async () => picker.locator("option").allTextContents()).toEqual(["Alpha collection — 3 left of 8", "Beta collection — 2 left of 3"]);

    // Reload: the project stays (URL); the queue starts at the first ungraded item (the 6th), in a
    // page of its own; u goes back to items 5, 4 (the page before, fetched now), 3, 2, 1.
    await page.reload();
    await shown(page, alpha.order[5]);
    expect(await page.getByTestId("project-name").textContent()).toBe("Alpha collection");
    expect(await position(page)).toBe("Question 2 of 2 · item 2 of 4");
    for (let i = 4; i >= 0; i--) {
      await page.keyboard.press("u");
      await shown(page, alpha.order[i]);
      expect(await position(page)).toBe(i < 4 ? `Question 1 of 2 · item ${i + 1} of 4` : "Question 2 of 2 · item 1 of 4");
    }
    // At the first item, u stays.
    await page.keyboard.press("u");
    await page.waitForTimeout(300);
    expect(await page.locator("article[data-ready]").getAttribute("data-item-id")).toBe(alpha.order[0]);
    await page.close();
  });
});
