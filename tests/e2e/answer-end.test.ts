import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import type { TFixture } from "../integration/annotate-fixture.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { twoKeyGrading } from "../helpers/csp.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { formatClock } from "../../lib/annotate/format.ts";
import { PASSWORDS } from "../integration/annotate-fixture.ts";

/**
 * The answer-end key in Chromium: on /annotate the annotator sets the start from the playing video
 * with `s`, lets it play on and marks the answer's end with `e` (listed in the `?` keys); Enter
 * saves it (Judgement.endSeconds) and a reload shows it again on the item; the adjudicator sees
 * each annotator's end beside their start, `b` takes B's label with its end, and the decision
 * stores it (Adjudication.endSeconds).
 * The annotator's queue is cut to one item on the fixture's file video (demo/media/bm25.mp4, which
 * plays); the other annotator graded it 0 first, so the two disagree and A is the other annotator.
 * Build first: NEXT_DIST_DIR=.next-<branch> npx next build; run with the same NEXT_DIST_DIR.
 */
let browser: Browser;
let target: { id: string; chunkStart: number };

const project = useAnnotatorProject(async (db: Db, fx: TFixture) => {
  const mine = await db.assignment.findMany({
    where: { userId: fx.ann.id },
    select: { poolItemId: true, poolItem: { select: { chunk: { select: { videoId: true, startSeconds: true } } } } },
    orderBy: { orderKey: "asc" },
  });
  const onFile = mine.find((a) => a.poolItem.chunk.videoId === fx.fileVideo.id && a.poolItem.chunk.startSeconds > 0);
  if (!onFile) throw new Error("the fixture gives the annotator no item on the file video");
  target = { id: onFile.poolItemId, chunkStart: onFile.poolItem.chunk.startSeconds };
  await db.assignment.deleteMany({ where: { userId: fx.ann.id, poolItemId: { not: target.id } } });
  await db.assignment.upsert({
    where: { poolItemId_userId: { poolItemId: target.id, userId: fx.other.id } },
    create: { poolItemId: target.id, userId: fx.other.id, orderKey: 0.5 },
    update: {},
  });
  await submitJudgement(db, fx.other.id, {
    poolItemId: target.id,
    grade: 0,
    startSeconds: null,
    notes: "",
    flags: [],
    timeSpentMs: 1,
    idempotencyKey: "answer-end-other-1",
  });
});

beforeAll(async () => {
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const seconds = async (page: Page, id: "start" | "end") => page.getByTestId(id).getAttribute("data-seconds");
/** Resolves once the page's video plays at or after `t` seconds. */
const playedTo = (page: Page, t: number) =>
  page.waitForFunction(
    (at) => {
      const v = document.querySelector("[data-testid=player] video") as HTMLVideoElement | null;
      return !!v && !v.paused && v.currentTime >= at;
    },
    t,
    { timeout: 20_000 },
  );

describe("the answer-end key", () => {
  let end = 0;

  it("e marks the end from the playhead; Enter saves it; a reload shows it on the item", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await twoKeyGrading(ctx);
    const page = await ctx.newPage();
    await loginAs(page, project.server.url, "ann@example.org", PASSWORDS.ann);
    await page.locator(`article[data-item-id="${target.id}"][data-ready=true]`).waitFor();
    expect(await seconds(page, "end")).toBe("");
    expect(await page.getByTestId("end").textContent()).toBe("not marked");

    // `?` lists the key beside the start's keys.
    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await help.waitFor();
    expect(await help.textContent()).toContain("the answer ends at the playhead (optional; Shift+E clears it)");
    await page.keyboard.press("Escape");

    await playedTo(page, target.chunkStart + 0.8);
    await page.keyboard.press("s");
    const start = Number(await seconds(page, "start"));
    expect(start).toBeGreaterThanOrEqual(target.chunkStart + 0.8);
    await playedTo(page, start + 1.5);
    await page.keyboard.press("e");
    end = Number(await seconds(page, "end"));
    expect(end).toBeGreaterThan(start);
    expect(await page.getByTestId("end").textContent()).toBe(formatClock(end));
    // Shift+E clears it; e marks it again (the video has played on: a later end).
    await page.keyboard.press("Shift+E");
    expect(await seconds(page, "end")).toBe("");
    await page.keyboard.press("e");
    end = Number(await seconds(page, "end"));
    expect(end).toBeGreaterThan(start);

    await page.keyboard.press("3");
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => {
        const j = await project.db.judgement.findFirst({
          where: { poolItemId: target.id, userId: project.fx.ann.id },
          select: { grade: true, startSeconds: true, endSeconds: true },
        });
        return j;
      })
      .toEqual({ grade: 3, startSeconds: start, endSeconds: end });

    // A reload: the queue is done; u goes back to the item, which shows the saved end.
    await page.reload();
    await page.getByRole("region", { name: "End of queue" }).waitFor();
    await page.keyboard.press("u");
    await page.locator(`article[data-item-id="${target.id}"]`).waitFor();
    await expect.poll(() => seconds(page, "end")).toBe(String(end));
    expect(await seconds(page, "start")).toBe(String(start));
    await ctx.close();
  });

  it("the adjudicator sees each annotator's end beside their start; b takes B's end into the decision", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await loginAs(page, project.server.url, "adj@example.org", PASSWORDS.adjudicator);
    await page.locator(`article[data-item-id="${target.id}"]`).waitFor();
    const table = page.getByRole("table", { name: "Annotators' labels" });
    expect(await table.locator("thead th").allTextContents()).toEqual([
      "Annotator",
      "Grade",
      "Start",
      "End",
      "Notes",
      "Flags",
    ]);
    // A: the other annotator's 0 (no start, no end); B: the annotator's 3 with its end.
    expect(await page.getByTestId("end-A").textContent()).toBe("—");
    expect(await page.getByTestId("end-B").textContent()).toBe(formatClock(end));
    await page.keyboard.press("b");
    expect(await seconds(page, "end")).toBe(String(end));
    await page.keyboard.press("Enter");
    await expect
      .poll(() =>
        project.db.adjudication.findUnique({
          where: { poolItemId: target.id },
          select: { grade: true, endSeconds: true },
        }),
      )
      .toEqual({ grade: 3, endSeconds: end });
    await ctx.close();
  });
});
