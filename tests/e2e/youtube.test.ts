import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { cspViolations, twoKeyGrading, watchCsp } from "../helpers/csp.ts";
import { setYouTubeTime, stubYouTube, youTubeLog, YT_STATE, type TYouTubeStub } from "../helpers/youtube.ts";
import type { Db } from "../../lib/db/client.ts";
import { importChunks, importQueries, importVideos } from "../../lib/imports/index.ts";
import { createUser } from "../../lib/users/users.ts";

/**
 * YouTube videos play through react-player: an annotator grades two items on a
 * video imported with a YouTube URL, with the keyboard, and the player is driven through the
 * YouTube IFrame Player API.
 *
 * YOUTUBE IS STUBBED: this machine has no internet, so the browser never reaches YouTube.
 * tests/helpers/youtube.ts answers https://www.youtube.com/iframe_api with a fake API
 * (tests/fixtures/youtube/iframe_api.js: YT.Player with the methods youtube-video-element 1.9
 * calls, recording seekTo/playVideo/pauseVideo and the iframe's src in window.__yt), answers the
 * embed iframe with an empty page, and blocks every other external request. What this test shows
 * is that the app asks YouTube's player for the right things (embed URL, cue, seek, play, pause,
 * playhead); not that YouTube's real player or network behave as the fake does.
 * Build first: NEXT_DIST_DIR=.next-youtube npx next build; run with the same NEXT_DIST_DIR.
 */
const fixtures = join(import.meta.dirname, "..", "fixtures", "youtube");
const VIDEO_ID = "aSsEs5oR-42"; // tests/fixtures/youtube/videos.jsonl
const PASSWORD = "yt-password-1";

useTestDatabase();
let db: Db;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let stub: TYouTubeStub;
/** The pool items in queue order: chunk starts at 42 s then 120 s. */
let items: { id: string; start: number; text: string }[] = [];
let question = "";

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const ann = await createUser(db, {
    email: "ann@example.org",
    name: "Ann Annotator",
    role: "annotator",
    password: PASSWORD,
  });
  const project = await db.project.create({ data: { name: "YouTube project" } });
  await importVideos(db, project.id, join(fixtures, "videos.jsonl"));
  await importChunks(db, project.id, join(fixtures, "chunks.jsonl"));
  await importQueries(db, project.id, join(fixtures, "queries.jsonl"));
  const query = await db.query.findFirstOrThrow({ where: { projectId: project.id } });
  question = query.text;
  const chunks = await db.chunk.findMany({ where: { projectId: project.id }, orderBy: { startSeconds: "asc" } });
  expect(chunks.map((c) => c.startSeconds)).toEqual([42, 120]);
  for (const [i, c] of chunks.entries()) {
    const item = await db.poolItem.create({ data: { projectId: project.id, queryId: query.id, chunkId: c.id } });
    await db.assignment.create({ data: { poolItemId: item.id, userId: ann.id, orderKey: i } });
    items.push({ id: item.id, start: c.startSeconds, text: c.text });
  }
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
  ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await twoKeyGrading(ctx);
  await watchCsp(ctx);
  stub = await stubYouTube(ctx, server.url);
  page = await ctx.newPage();
});

afterAll(async () => {
  await ctx?.close();
  await browser?.close();
  items = [];
});

/** The calls of one kind, without the player index: ["seekTo", 42, true]. */
const calls = async (name: string) =>
  (await youTubeLog(page)).calls.filter((c) => c[1] === name).map((c) => c.slice(1));
/** The index of the player on the iframe in the document (see youTubeLog), once it is made. */
let mounted = -1;
/** Every call went to the player in the document. */
const allCallsToMounted = async () => (await youTubeLog(page)).calls.every((c) => c[0] === mounted);
const startShown = async () => ({
  seconds: Number(await page.getByTestId("start").getAttribute("data-seconds")),
  text: await page.getByTestId("start").textContent(),
});
/** The `youtube-video` element's paused flag, as the page's controls read it. */
const paused = () =>
  page.evaluate(
    () => (document.querySelector("[data-testid=player] youtube-video") as HTMLMediaElement | null)?.paused ?? null,
  );

async function shownItem(): Promise<string> {
  const article = page.locator("article[data-ready]");
  await article.waitFor();
  return (await article.getAttribute("data-item-id")) ?? "";
}

describe("a YouTube video on /annotate (YouTube stubbed: no internet here)", () => {
  it("shows the item with YouTube's embedded player, cued at the chunk's start and playing", async () => {
    await loginAs(page, server.url, "ann@example.org", PASSWORD);
    expect(new URL(page.url()).pathname).toBe("/annotate");
    expect(await shownItem()).toBe(items[0].id);
    expect(await page.getByTestId("question").textContent()).toBe(question);
    expect(await page.getByTestId("chunk-text").textContent()).toBe(items[0].text);
    // react-player chose its YouTube player: a youtube-video element whose iframe embeds this video.
    const iframeSrc = await page
      .locator("[data-testid=player] youtube-video")
      .evaluate((el) => el.shadowRoot?.querySelector("iframe")?.src ?? null);
    expect(iframeSrc).toMatch(new RegExp(`^https://www\\.youtube\\.com/embed/${VIDEO_ID}\\?`));
    expect(new URL(iframeSrc!).searchParams.get("enablejsapi")).toBe("1");
    // The fake API made a player on that iframe, and the iframe loaded the embed page once.
    // (React may also have made, then discarded, a youtube-video element in a render it never
    // committed: that element makes a player too, on an iframe outside the document.)
    await expect
      .poll(async () => (await youTubeLog(page)).players.filter((p) => p.connected).map((p) => p.src))
      .toEqual([iframeSrc]);
    const log = await youTubeLog(page);
    mounted = log.players.findIndex((p) => p.connected);
    expect(log.players.every((p) => p.src === iframeSrc)).toBe(true);
    expect(stub.embeds).toEqual([iframeSrc]);
    // Cued once at the chunk's start, then played.
    await expect.poll(() => calls("seekTo")).toEqual([["seekTo", 42, true]]);
    await expect.poll(async () => (await youTubeLog(page)).state).toBe(YT_STATE.PLAYING);
    expect((await calls("playVideo")).length).toBeGreaterThanOrEqual(1);
    expect(await paused()).toBe(false);
    expect(await allCallsToMounted()).toBe(true);
    const t = (await youTubeLog(page)).time;
    expect(t).toBeGreaterThanOrEqual(42);
    expect(t).toBeLessThan(52);
  });

  it("Space pauses and plays, `s` takes the playhead, `r` seeks back to the chunk's start", async () => {
    const plays = (await calls("playVideo")).length;
    // Space: pause.
    await page.keyboard.press(" ");
    await expect.poll(async () => (await youTubeLog(page)).state).toBe(YT_STATE.PAUSED);
    expect((await calls("pauseVideo")).length).toBe(1);
    expect(await paused()).toBe(true);
    // Paused at 50 s: `s` sets the corrected start to 0:50.
    await setYouTubeTime(page, 50);
    await page.keyboard.press("s");
    expect(await startShown()).toEqual({ seconds: 50, text: "0:50" });
    // `r`: back to the chunk's start (42 s), playing from there.
    await page.keyboard.press("r");
    await expect.poll(async () => (await calls("seekTo")).map((c) => c[1])).toEqual([42, 42]);
    await expect.poll(async () => (await youTubeLog(page)).state).toBe(YT_STATE.PLAYING);
    expect((await calls("playVideo")).length).toBe(plays + 1);
    const t = (await youTubeLog(page)).time;
    expect(t).toBeGreaterThanOrEqual(42);
    expect(t).toBeLessThan(50);
    // The corrected start is the annotator's, not the replayed playhead.
    expect(await startShown()).toEqual({ seconds: 50, text: "0:50" });
    // Space twice: pause, then play again.
    await page.keyboard.press(" ");
    await expect.poll(async () => (await youTubeLog(page)).state).toBe(YT_STATE.PAUSED);
    expect((await calls("pauseVideo")).length).toBe(2);
    await page.keyboard.press(" ");
    await expect.poll(async () => (await youTubeLog(page)).state).toBe(YT_STATE.PLAYING);
    expect((await calls("playVideo")).length).toBe(plays + 2);
    expect(await allCallsToMounted()).toBe(true);
  });

  it("grades with the keyboard; Enter stores the grade with the start taken from YouTube's playhead", async () => {
    await page.keyboard.press("2");
    expect(await page.getByRole("button", { name: /^Grade 2:/ }).getAttribute("aria-pressed")).toBe("true");
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "annotate-youtube.png"), fullPage: true });
    await page.keyboard.press("Enter");
    await expect
      .poll(
        () =>
          db.judgement.findMany({ where: { poolItemId: items[0].id }, select: { grade: true, startSeconds: true } }),
        { timeout: 15_000 },
      )
      .toEqual([{ grade: 2, startSeconds: 50 }]);
  });

  it("the next item on the same video is cued at its own start in the same player", async () => {
    await expect.poll(() => shownItem()).toBe(items[1].id);
    expect(await page.getByTestId("chunk-text").textContent()).toBe(items[1].text);
    await expect.poll(async () => (await calls("seekTo")).map((c) => c[1])).toEqual([42, 42, 120]);
    // No new player or embed: the same player seeks.
    const log = await youTubeLog(page);
    expect(log.players.map((p, i) => (p.connected ? i : -1)).filter((i) => i >= 0)).toEqual([mounted]);
    expect(stub.embeds.length).toBe(1);
    expect(await allCallsToMounted()).toBe(true);
    expect(log.time).toBeGreaterThanOrEqual(120);
    expect(await startShown()).toEqual({ seconds: 120, text: "2:00" });
    await page.keyboard.press("1");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "End of your queue" }).waitFor();
    await expect
      .poll(
        () =>
          db.judgement.findMany({ where: { poolItemId: items[1].id }, select: { grade: true, startSeconds: true } }),
        { timeout: 15_000 },
      )
      .toEqual([{ grade: 1, startSeconds: 120 }]);
    await expect.poll(() => page.getByTestId("outbox").textContent(), { timeout: 15_000 }).toBe("All grades saved.");
    // Nothing else left the machine: YouTube's API script and embed page were all the player needed.
    expect(stub.blocked).toEqual([]);
    // The page's Content-Security-Policy let the player in and blocked nothing.
    expect(await cspViolations(page)).toEqual([]);
  });
});
