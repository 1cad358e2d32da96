import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";

/**
 * Writing a question in Chromium by keyboard only: the lead opens /write on the demo's
 * videos, plays the video with Space, marks the answer's start with `m` (within 0.5 s of the
 * video's current time), nudges it with `]`, types the question and a tag, saves with Enter, and
 * finds it in the review list, where accepting it makes it a question that is pooled (a draft
 * ranked by the same run is not). An annotator
 * without the project's permission gets 403 from the write routes.
 * Build first: NEXT_DIST_DIR=.next-questions npx next build; run with the same NEXT_DIST_DIR.
 */
const root = join(import.meta.dirname, "..", "..");
const PASSWORD = "e2e-password-1";
useTestDatabase();
let db: Db;
let browser: Browser;
let projectId: number;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: PASSWORD });
  await createUser(db, { email: "ann@example.org", name: "Ann", role: "annotator", password: PASSWORD });
  projectId = (await db.project.create({ data: { name: "demo" } })).id;
  const { importVideos, importQueries } = await import("../../lib/imports/index.ts");
  await importVideos(db, projectId, join(root, "demo", "videos.jsonl"));
  await importQueries(db, projectId, join(root, "demo", "queries.jsonl"));
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

describe("write a question by keyboard", () => {
  it("marks the start at the playhead, saves, and the lead finds and accepts it in the review list", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await loginAs(page, server.url, "lead@example.org", PASSWORD);
      await page.goto(`${server.url}/write`);
      await page.getByTestId("write-video").waitFor();
      await page.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 1);
      await page.locator("h1").click(); // focus leaves every field: the keys are the page's
      await page.keyboard.press(" ");
      await page.waitForFunction(() => (document.querySelector("video")?.currentTime ?? 0) > 1.5, undefined, {
        timeout: 20_000,
      });
      await page.keyboard.press("m");
      const now = await page.evaluate(() => document.querySelector("video")!.currentTime);
      const place = page.getByTestId("write-place-0");
      await place.waitFor();
      const marked = Number(await place.getAttribute("data-start"));
      expect(Math.abs(marked - now)).toBeLessThanOrEqual(0.5);
      await page.keyboard.press("]");
      await expect.poll(async () => Number(await place.getAttribute("data-start"))).toBeCloseTo(marked + 1, 5);
      await page.keyboard.press(" "); // pause
      await page.keyboard.press("t");
      await page.keyboard.type("How does BM25 saturate term frequency?");
      await page.keyboard.press("Escape");
      await page.keyboard.press("g");
      await page.keyboard.type("concept, e2e");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.getByTestId("write-notice").textContent()).toMatch(/^Saved w1 \(draft\)/);

      const q = await db.query.findFirstOrThrow({
        where: { projectId, externalId: "w1" },
        include: { places: true, tags: true, authorUser: true },
      });
      expect([q.text, q.status, q.authorUser?.name, q.tags.map((t) => t.tag).sort()]).toEqual([
        "How does BM25 saturate term frequency?",
        "draft",
        "Lena Lead",
        ["concept", "e2e"],
      ]);
      expect(q.places.map((p) => p.startSeconds)).toEqual([marked + 1]);

      await page.goto(`${server.url}/lead/projects/${projectId}/questions`);
      const row = page.getByTestId("review-w1");
      await row.waitFor();
      expect(await row.textContent()).toContain("How does BM25 saturate term frequency?");
      expect(await row.getAttribute("data-status")).toBe("draft");
      await page.getByTestId("overlap-note").waitFor();
      expect(await page.getByTestId("overlap-note").textContent()).toContain("68.8% vs 63.2%");
      await row.getByRole("button", { name: "Accept" }).click();
      await expect.poll(() => row.getAttribute("data-status")).toBe("accepted");
      expect((await db.query.findFirstOrThrow({ where: { projectId, externalId: "w1" } })).status).toBe("accepted");

      // Accepted, it is pooled; a draft ranked by the same run is not. The run
      // ranks the bm25 video's first two chunks for w1 and for a draft d1.
      const { importTranscript, importRun } = await import("../../lib/imports/index.ts");
      await importTranscript(db, projectId, join(root, "demo", "transcripts", "bm25.vtt"), { video: "bm25" });
      await db.query.create({
        data: { projectId, externalId: "d1", text: "A draft nobody accepted", status: "draft" },
      });
      const chunks = await db.chunk.findMany({
        where: { projectId },
        orderBy: { startSeconds: "asc" },
        take: 2,
        select: { externalId: true },
      });
      const runText =
        ["w1", "d1"]
          .flatMap((qid) => chunks.map((c, i) => `${qid} Q0 ${c.externalId} ${i + 1} ${2 - i} e2e`))
          .join("\n") + "\n";
      await importRun(db, projectId, { name: "written.trec", bytes: Buffer.from(runText) }, { system: "e2e" });
      await page.goto(`${server.url}/lead/projects/${projectId}`);
      const pool = page.getByRole("region", { name: "Build pool" });
      await pool.getByRole("button", { name: "Preview the pool" }).click();
      const preview = pool.getByRole("group", { name: "Build the pool?" });
      await preview.waitFor();
      await preview.getByRole("button", { name: "Build the pool" }).click();
      await pool.getByRole("status").waitFor();
      const pooled = await db.poolItem.findMany({
        where: { projectId },
        select: { query: { select: { externalId: true } }, chunk: { select: { externalId: true } } },
      });
      expect(pooled.map((i) => `${i.query.externalId}/${i.chunk.externalId}`).sort()).toEqual(
        chunks.map((c) => `w1/${c.externalId}`).sort(),
      );
    } catch (e) {
      await page.screenshot({ path: join(artifactsDir, "questions-write.png") }).catch(() => undefined);
      throw e;
    } finally {
      await context.close();
    }
  }, 180_000);

  it("never drops an answer end: a start nudged past the end is refused with a message, a reversed mark swapped with one; tags stay after a save", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const seek = (t: number) => page.evaluate((x) => (document.querySelector("video")!.currentTime = x), t);
    const place = page.getByTestId("write-place-0");
    const span = async () => [
      Number(await place.getAttribute("data-start")),
      Number(await place.getAttribute("data-end")),
    ];
    try {
      await loginAs(page, server.url, "lead@example.org", PASSWORD);
      await page.goto(`${server.url}/write`);
      await page.getByTestId("write-video").waitFor();
      await page.waitForFunction(() => (document.querySelector("video")?.readyState ?? 0) >= 1);
      await page.locator("h1").click();
      // The report: m at 3 s, M at 6 s, then ] and } (start 3 → 4 → 9, past the end).
      await seek(3);
      await page.keyboard.press("m");
      await seek(6);
      await page.keyboard.press("M");
      await expect.poll(span).toEqual([3, 6]);
      await page.keyboard.press("]");
      await expect.poll(span).toEqual([4, 6]);
      await page.keyboard.press("}");
      await expect
        .poll(() => page.getByTestId("write-notice").textContent())
        .toBe("The start cannot move past the end (0:06): mark a later end with M first.");
      expect(await span()).toEqual([4, 6]);
      expect(await place.textContent()).toBe("0:04–0:06");
      // An end marked before the start: swapped, and said so.
      await seek(2);
      await page.keyboard.press("M");
      await expect
        .poll(() => page.getByTestId("write-notice").textContent())
        .toBe("The end was before the start: swapped, the answer place is now 0:02–0:04.");
      expect(await span()).toEqual([2, 4]);
      await page.keyboard.press("t");
      await page.keyboard.type("Where is the end kept?");
      await page.keyboard.press("Escape");
      await page.keyboard.press("g");
      await page.keyboard.type("ends, e2e");
      await page.keyboard.press("Enter");
      await expect.poll(() => page.getByTestId("write-notice").textContent()).toMatch(/^Saved w\d+ \(draft\)/);
      const qid = /Saved (w\d+)/.exec((await page.getByTestId("write-notice").textContent()) ?? "")![1];
      const q = await db.query.findFirstOrThrow({ where: { projectId, externalId: qid }, include: { places: true } });
      expect(q.places.map((p) => [p.startSeconds, p.endSeconds])).toEqual([[2, 4]]);
      // The tags stay filled in for the next question; the text is cleared.
      expect(await page.getByTestId("write-tags").inputValue()).toBe("ends, e2e");
      expect(await page.getByTestId("write-text").inputValue()).toBe("");
    } catch (e) {
      await page.screenshot({ path: join(artifactsDir, "questions-write-ends.png") }).catch(() => undefined);
      throw e;
    } finally {
      await context.close();
    }
  }, 120_000);

  it("refuses an end before its start on the server too: 422 naming the field, on writing and on editing", async () => {
    const cookie = await server.cookie("lead@example.org", PASSWORD);
    const headers = { Cookie: cookie, Origin: server.url, "Content-Type": "application/json" };
    const video = await db.video.findFirstOrThrow({ where: { projectId } });
    const reversed = [{ videoId: video.id, start: 9, end: 6 }];
    const post = await fetch(`${server.url}/api/write/projects/${projectId}/questions`, {
      method: "POST",
      headers,
      body: JSON.stringify({ text: "reversed", tags: [], places: reversed }),
    });
    expect(post.status).toBe(422);
    expect(
      ((await post.json()) as { error: { details: { path: string }[] } }).error.details.map((d) => d.path),
    ).toEqual(["places.0.end"]);
    const q = await db.query.findFirstOrThrow({ where: { projectId } });
    const patch = await fetch(`${server.url}/api/lead/projects/${projectId}/questions/${q.id}`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ places: reversed }),
    });
    expect(patch.status).toBe(422);
    expect(
      ((await patch.json()) as { error: { details: { path: string }[] } }).error.details.map((d) => d.path),
    ).toEqual(["places.0.end"]);
  }, 60_000);

  it("reviews at 390 px: fits the screen; places show start and end, play beside the place and are edited; history reads as changes; one name per author; the distribution explained", async () => {
    const lead = await db.user.findUniqueOrThrow({ where: { email: "lead@example.org" } });
    const video = await db.video.findFirstOrThrow({ where: { projectId, externalId: "bm25" } });
    const long = `${"A very long question about term saturation ".repeat(4)}withanunbreakablewordthatgoesonandonandonforeverandeverandever?`;
    const { createQuestion, updateQuestion } = await import("../../lib/questions/store.ts");
    const q = await createQuestion(db, projectId, lead.id, {
      text: long,
      tags: ["a-rather-long-tag-name-for-the-narrow-screen"],
      places: [{ videoId: video.id, start: 3, end: 9 }],
      status: "draft",
    });
    await createQuestion(db, projectId, lead.id, {
      text: long,
      tags: [],
      places: [{ videoId: video.id, start: 40, end: null }],
      status: "draft",
    });
    await updateQuestion(db, projectId, q.id, lead.id, { status: "accepted" });
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    try {
      await loginAs(page, server.url, "lead@example.org", PASSWORD);
      await page.goto(`${server.url}/lead/projects/${projectId}/questions`);
      const card = page.getByTestId(`review-${q.qid}`);
      await card.waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      // The demo's imported author "lead" is the lead's email's local part: shown by the lead's name, as the written questions are.
      expect(await page.getByTestId("review-q01").getByTestId("author").textContent()).toBe("by Lena Lead");
      expect(await card.getByTestId("author").textContent()).toBe("by Lena Lead");
      expect(await page.getByTestId("by-author").locator("tbody tr td:first-child").allTextContents()).toEqual([
        "Lena Lead",
        "(no author)",
      ]); // "(no author)": the draft d1 made above
      expect(await page.getByTestId("by-author-legend").textContent()).toContain(
        "distribution: questions by overlap: under 25% · 25–50% · 50–75% · 75% and more",
      );
      // The place with its end; clicking it shows the player beside it, in view.
      const placeButton = card.getByTestId("place-0");
      expect(await placeButton.textContent()).toBe("bm25 0:03–0:09");
      await placeButton.focus();
      await page.keyboard.press("Enter");
      const player = card.getByTestId("place-player");
      await player.waitFor();
      await expect
        .poll(() =>
          player.evaluate((el) => {
            const r = el.getBoundingClientRect();
            return r.top >= 0 && r.top < window.innerHeight;
          }),
        )
        .toBe(true);
      // Edit the end: one before the start is refused on the page, a later one saved.
      await card.getByRole("button", { name: "Edit" }).click();
      const end = card.getByLabel("answer place 1 end");
      await end.fill("0:02");
      await card.getByRole("button", { name: "Save" }).click();
      expect(await card.getByTestId("edit-problem").textContent()).toBe(
        "Answer place 1: its end (0:02) is before its start (0:03). Change one of them.",
      );
      await end.fill("0:12");
      await card.getByRole("button", { name: "Save" }).click();
      await expect.poll(() => placeButton.textContent()).toBe("bm25 0:03–0:12");
      expect(
        (await db.queryPlace.findMany({ where: { queryId: q.id } })).map((p) => [p.startSeconds, p.endSeconds]),
      ).toEqual([[3, 12]]);
      // The history as changes, not JSON.
      await card.getByRole("button", { name: "History" }).click();
      const history = card.getByTestId("history");
      await expect.poll(() => history.textContent()).toContain("places: bm25 0:03–0:09 → bm25 0:03–0:12");
      const text = (await history.textContent()) ?? "";
      expect(text).toContain("status: draft → accepted");
      expect(text).not.toMatch(/[{}"]/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } catch (e) {
      await page
        .screenshot({ path: join(artifactsDir, "questions-review-390.png"), fullPage: true })
        .catch(() => undefined);
      throw e;
    } finally {
      await context.close();
    }
  }, 120_000);

  it("refuses the write routes to an annotator the project does not allow (403), and allows them once it does", async () => {
    const cookie = await server.cookie("ann@example.org", PASSWORD);
    const headers = { Cookie: cookie, Origin: server.url, "Content-Type": "application/json" };
    const video = await db.video.findFirstOrThrow({ where: { projectId } });
    const body = JSON.stringify({ text: "a draft", tags: [], places: [{ videoId: video.id, start: 3, end: null }] });
    expect((await fetch(`${server.url}/api/write/projects/${projectId}`, { headers })).status).toBe(403);
    expect(
      (await fetch(`${server.url}/api/write/projects/${projectId}/questions`, { method: "POST", headers, body }))
        .status,
    ).toBe(403);
    expect((await fetch(`${server.url}/api/lead/projects/${projectId}/questions`, { headers })).status).toBe(403);
    await db.project.update({ where: { id: projectId }, data: { annotatorsMayAuthor: true } });
    const res = await fetch(`${server.url}/api/write/projects/${projectId}/questions`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        text: "a draft",
        tags: [],
        places: [{ videoId: video.id, start: 3, end: null }],
        status: "accepted",
      }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("draft"); // an annotator's question is always a draft
    expect(
      (await fetch(`${server.url}/api/write/projects/${projectId}/transcript?video=${video.id}`, { headers })).status,
    ).toBe(403);
  }, 60_000);
});
