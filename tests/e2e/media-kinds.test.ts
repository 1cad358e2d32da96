import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { makeAssignedItems, makeProject, makeUser, TEST_PASSWORD } from "../helpers/factories.ts";
import type { Db } from "../../lib/db/client.ts";

/**
 * Items whose video does not play, in Chromium: a transcript-only item (a video
 * without media) is graded with the start set by clicking a time in the transcript; an item whose
 * file is missing on the server says why, with the title and the chunk's times; on both, `s` (start
 * from the playhead) changes nothing and says so in a polite live region; a URL on a host
 * ASSESSOR_MEDIA_HOSTS does not allow is not tried. The page CSP's media-src names the allowed host.
 * Build first: NEXT_DIST_DIR=.next-media21 npx next build; run with the same NEXT_DIST_DIR.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
let page: Page;
const items: Record<"none" | "missing" | "blocked", { id: string }> = {} as never;
let annotatorId = "";

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const project = await makeProject(db, { name: "media kinds" });
  const ann = await makeUser(db, { email: "ann@example.org", role: "annotator" });
  annotatorId = ann.id;
  // Queries come in import order: q1 (no media), q2 (missing file), q3 (host not allowed).
  const media = [
    ["q1", "none", { url: null, path: null, title: "Transcript-only talk" }],
    ["q2", "missing", { url: null, path: "demo/media/not-there.mp4", title: "Lost recording" }],
    ["q3", "blocked", { url: "https://videos.elsewhere.example/talk.mp4", path: null, title: "Elsewhere talk" }],
  ] as const;
  for (const [qid, key, video] of media) {
    const [item] = await makeAssignedItems(db, project.id, 1, [ann], qid);
    items[key] = item;
    const chunk = await db.chunk.findUniqueOrThrow({ where: { id: item.chunkId }, select: { videoId: true } });
    await db.video.update({ where: { id: chunk.videoId }, data: video });
    await db.chunk.update({ where: { id: item.chunkId }, data: { startSeconds: 60, endSeconds: 95 } });
  }
});
const server = useTestServer({ env: { ASSESSOR_MEDIA_HOSTS: "https://media.example.org" } });
beforeAll(async () => {
  browser = await launchBrowser();
  page = await browser.newPage();
  await loginAs(page, server.url, "ann@example.org", TEST_PASSWORD);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function itemShown(id: string) {
  await page.locator(`article[data-item-id="${id}"][data-ready="true"]`).waitFor({ timeout: 30_000 });
}

async function startSeconds(): Promise<number> {
  return Number(await page.getByTestId("start").getAttribute("data-seconds"));
}

describe("media that does not play", () => {
  it("sends the allowed media host in the page CSP", async () => {
    const res = await fetch(`${server.url}/login`);
    expect(res.headers.get("content-security-policy")).toContain("media-src 'self' blob: https://media.example.org;");
  });

  it("grades a transcript-only item with the start set from a transcript time; s refuses politely", async () => {
    await page.goto(`${server.url}/annotate`);
    await itemShown(items.none.id);
    const notice = page.getByTestId("media-notice");
    expect(await notice.getAttribute("data-problem")).toBe("none");
    expect(await notice.textContent()).toContain("Transcript-only talk");
    expect(await notice.textContent()).toContain("1:00 – 1:35");
    expect(await startSeconds()).toBe(60);
    await page.keyboard.press("s");
    const said = page.getByTestId("start-notice");
    expect(await said.getAttribute("aria-live")).toBe("polite");
    await expect.poll(() => said.textContent()).toContain("No playhead");
    expect(await startSeconds()).toBe(60);
    await page.getByRole("button", { name: "Set start to chunk end 1:35" }).click();
    expect(await startSeconds()).toBe(95);
    expect(await said.textContent()).toBe("");
    await page.keyboard.press("2"); // auto-advance: grade, submit, next item
    await expect
      .poll(
        async () =>
          db.judgement.findFirst({
            where: { poolItemId: items.none.id, userId: annotatorId },
            select: { grade: true, startSeconds: true },
          }),
        { timeout: 20_000 },
      )
      .toEqual({ grade: 2, startSeconds: 95 });
  });

  it("says why a missing file does not play, with the title and the chunk's times; s changes nothing", async () => {
    await itemShown(items.missing.id);
    const notice = page.getByTestId("media-notice");
    await expect.poll(() => notice.getAttribute("data-problem"), { timeout: 20_000 }).toBe("not_found");
    const text = (await notice.textContent()) ?? "";
    expect(text).toContain("not found on the server");
    expect(text).toContain("Lost recording");
    expect(text).toContain("1:00 – 1:35");
    await page.keyboard.press("s");
    await expect.poll(() => page.getByTestId("start-notice").textContent()).toContain("No playhead");
    expect(await startSeconds()).toBe(60);
    await page.keyboard.press("1");
    await expect
      .poll(
        async () =>
          (
            await db.judgement.findFirst({
              where: { poolItemId: items.missing.id, userId: annotatorId },
              select: { startSeconds: true },
            })
          )?.startSeconds,
        { timeout: 20_000 },
      )
      .toBe(60);
  });

  it("does not try a URL on a host ASSESSOR_MEDIA_HOSTS does not allow", async () => {
    await itemShown(items.blocked.id);
    const notice = page.getByTestId("media-notice");
    expect(await notice.getAttribute("data-problem")).toBe("not_allowed");
    expect(await notice.textContent()).toContain("Elsewhere talk");
    expect(await page.locator("video").count()).toBe(0);
  });
});
