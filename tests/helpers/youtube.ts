import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";

/**
 * YouTube without the internet: the browser's requests to YouTube are answered locally.
 * - https://www.youtube.com/iframe_api gets tests/fixtures/youtube/iframe_api.js, a fake IFrame
 *   Player API that records what the page asks of it in window.__yt;
 * - https://www.youtube.com/embed/… (the player's iframe) gets a one-line HTML page naming the video;
 * - every other request that leaves `origin` is aborted and listed in `blocked`.
 */
export type TYouTubeStub = { blocked: string[]; embeds: string[] };

const API_URL = "https://www.youtube.com/iframe_api";
const EMBED_PREFIX = "https://www.youtube.com/embed/";
const fakeApi = readFileSync(join(import.meta.dirname, "..", "fixtures", "youtube", "iframe_api.js"), "utf8");

export async function stubYouTube(context: BrowserContext, origin: string): Promise<TYouTubeStub> {
  const stub: TYouTubeStub = { blocked: [], embeds: [] };
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (url.startsWith(origin + "/") || url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    if (url === API_URL || url.startsWith(API_URL + "?"))
      return route.fulfill({ status: 200, contentType: "text/javascript", body: fakeApi });
    if (url.startsWith(EMBED_PREFIX)) {
      stub.embeds.push(url);
      // Says what it is in screenshots: the black box is the stub, not a broken player.
      return route.fulfill({
        status: 200,
        contentType: "text/html",
        body: `<!doctype html><title>stub</title><p style="color:#ccc;font:14px sans-serif">YouTube embed (stubbed, offline): ${new URL(url).pathname.split("/").pop()}</p>`,
      });
    }
    stub.blocked.push(url);
    return route.abort("blockedbyclient");
  });
  return stub;
}

/**
 * What the fake API recorded (see tests/fixtures/youtube/iframe_api.js): each player's iframe src
 * and whether that iframe is in the document; calls as [player index, name, ...args].
 */
export type TYouTubeLog = {
  players: { src: string; connected: boolean }[];
  calls: [number, string, ...(number | boolean)[]][];
  state: number;
  time: number;
};

export function youTubeLog(page: Page): Promise<TYouTubeLog> {
  return page.evaluate(() => {
    type TFake = {
      players: HTMLIFrameElement[];
      calls: [number, string, ...(number | boolean)[]][];
      state: number;
      now: () => number;
    };
    const yt = (window as unknown as { __yt?: TFake }).__yt;
    if (!yt) return { players: [], calls: [], state: NaN, time: NaN };
    return {
      players: yt.players.map((f) => ({ src: f.src, connected: f.isConnected })),
      calls: yt.calls.map((c) => [...c] as [number, string, ...(number | boolean)[]]),
      state: yt.state,
      time: yt.now(),
    };
  });
}

/** Moves the fake player's playhead to `seconds` (it keeps running from there while playing). */
export async function setYouTubeTime(page: Page, seconds: number): Promise<void> {
  await page.evaluate(
    (t) => (window as unknown as { __yt: { setTime: (t: number) => void } }).__yt.setTime(t),
    seconds,
  );
}

/** YT.PlayerState values (https://developers.google.com/youtube/iframe_api_reference#Playback_status). */
export const YT_STATE = { PLAYING: 1, PAUSED: 2 } as const;
