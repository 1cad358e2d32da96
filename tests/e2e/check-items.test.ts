import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { createUser } from "../../lib/users/users.ts";

/**
 * A hidden check item in Chromium. One pool item, its reference settled by an adjudication, is a
 * check item of one annotator (Assignment.checkItem) and an ordinary item of another; each opens
 * /annotate on it and grades it with a key. The page is the same for both (the article's elements,
 * test ids and text), and so are the network answers (item read, grade submission: status, header
 * names, fields). The check grade lands in CheckJudgement, the ordinary one in Judgement.
 */
const CHECKER = { email: "checker@example.org", password: "checker-password-1" };
const PLAIN = { email: "plain@example.org", password: "plain-password-1" };
let itemId = "";

const project = useAnnotatorProject(async (d, f) => {
  // An item on the fixture's file video, served by the app: both pages load it the same way. (The
  // fixture's items come in no fixed order, and its YouTube video never loads without a network:
  // its player neither plays nor fails, so the playhead would never settle.)
  const fileChunks = await d.chunk.findMany({ where: { videoId: f.fileVideo.id }, select: { id: true } });
  const onFile = new Set(fileChunks.map((c) => c.id));
  const item = f.items.find((i) => onFile.has(i.chunkId));
  if (!item) throw new Error("the fixture has no pool item on its file video");
  itemId = item.id;
  await d.adjudication.create({
    data: { poolItemId: item.id, adjudicatorId: f.adjudicator.id, grade: 2, startSeconds: null },
  });
  for (const [u, checkItem] of [
    [CHECKER, true],
    [PLAIN, false],
  ] as const) {
    const user = await createUser(d, { email: u.email, name: u.email, role: "annotator", password: u.password });
    await d.assignment.create({ data: { poolItemId: item.id, userId: user.id, orderKey: 0.5, checkItem } });
  }
});
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What one annotator sees and receives while grading the item with the key 2. */
async function gradeAs(who: { email: string; password: string }) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Nothing leaves the machine: a request to example.org (a URL a fixture may name) fails at once
  // rather than waiting on a DNS lookup without network.
  await ctx.route("https://example.org/**", (route) => route.abort());
  const page = await ctx.newPage();
  const posts: { status: number; headers: string[]; body: unknown }[] = [];
  page.on("response", async (res) => {
    if (res.request().method() === "POST" && res.url().endsWith("/api/annotate/judgements")) {
      const body = (await res.json()) as Record<string, unknown>;
      posts.push({
        status: res.status(),
        headers: Object.keys(res.headers()).sort(),
        body: { ...body, idempotencyKey: typeof body.idempotencyKey },
      });
    }
  });
  await loginAs(page, project.server.url, who.email, who.password);
  await page.goto(`${project.server.url}/annotate?project=${project.fx.project.id}`);
  const article = page.locator("article[data-ready]");
  await article.waitFor();
  expect(await article.getAttribute("data-item-id")).toBe(itemId);
  // The playhead reads –:–– while the video loads: compared once the player has settled on both
  // pages (loaded or failed), as the loading is the network's timing, not the item's.
  await expect.poll(() => page.getByTestId("playhead").innerText(), { timeout: 30_000 }).not.toBe("–:––");
  const view = await article.evaluate((a) => ({
    structure: [a, ...a.querySelectorAll("*")].map((el) => `${el.tagName}:${el.getAttribute("data-testid") ?? ""}`),
    text: (a as HTMLElement).innerText,
  }));
  await page.keyboard.press("2");
  // The grade's accepted answer. A loaded server may first answer 503 or 429 (the outbox sends the
  // grade again after the pause it names): such an answer says nothing about the item, so the
  // accepted one is compared, and the transient ones are printed for the record.
  await expect.poll(() => posts.some((p) => p.status === 200), { timeout: 30_000 }).toBe(true);
  const transient = posts.filter((p) => p.status !== 200);
  if (transient.length) console.log(`${who.email}: answered first ${transient.map((p) => p.status).join(", ")}`);
  expect(transient.every((p) => p.status === 503 || p.status === 429)).toBe(true);
  const accepted = posts.filter((p) => p.status === 200);
  expect(accepted).toHaveLength(1);
  const res = await page.request.get(`${project.server.url}/api/annotate/items/${itemId}`);
  const item = { status: res.status(), headers: Object.keys(res.headers()).sort(), body: await res.json() };
  const queue = await page.request.get(`${project.server.url}/api/annotate/projects`);
  // The counts, with the time of the last grade as its type (the two were graded at different times).
  const counts = (await queue.json()) as { projects: Record<string, unknown>[]; current: unknown };
  const done = { ...counts, projects: counts.projects.map((p) => ({ ...p, lastGradedAt: typeof p.lastGradedAt })) };
  await ctx.close();
  return { view, post: accepted[0], item, done };
}

describe("a hidden check item in the browser", () => {
  it("looks and answers exactly like the same item given as an ordinary one", async () => {
    const check = await gradeAs(CHECKER);
    const plain = await gradeAs(PLAIN);
    expect(check.view).toEqual(plain.view);
    expect(check.post).toEqual(plain.post);
    expect(check.post.status).toBe(200);
    expect(check.item).toEqual(plain.item);
    expect(check.done).toEqual(plain.done);

    const db = project.db;
    const [checker, other] = await Promise.all(
      [CHECKER, PLAIN].map((u) => db.user.findUniqueOrThrow({ where: { email: u.email } })),
    );
    expect(await db.checkJudgement.count({ where: { userId: checker.id, poolItemId: itemId } })).toBe(1);
    expect(await db.judgement.count({ where: { userId: checker.id } })).toBe(0);
    expect(await db.judgement.count({ where: { userId: other.id, poolItemId: itemId } })).toBe(1);
  });
});
