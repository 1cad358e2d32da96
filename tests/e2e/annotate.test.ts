import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { twoKeyGrading } from "../helpers/csp.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";

/**
 * The whole labelling loop in Chromium: the lead uploads the demo files (videos,
 * WebVTT transcripts, queries, two runs cut down to two queries) and builds and assigns the pool
 * through the lead pages; two annotators grade every item with the keyboard only, disagreeing on
 * some and setting corrected starts from the playing video with `s`; the adjudicator resolves the
 * disagreements with the keyboard; the lead downloads the qrels, which equal the expected file.
 * Build first: NEXT_DIST_DIR=.next-annotate npx next build; run with the same NEXT_DIST_DIR.
 */
const root = join(import.meta.dirname, "..", "..");
useTestDatabase();
let db: Db;
let browser: Browser;
let dir: string;

const QUERIES = ["q06", "q07"];
const PASSWORD = "e2e-password-1";

/** The demo run, cut to the two queries and their top 2: a pool small enough to grade in a test. */
function cutRun(file: string): string {
  const lines = readFileSync(join(root, file), "utf8")
    .split("\n")
    .filter((l) => QUERIES.includes(l.split(/\s+/)[0]) && Number(l.split(/\s+/)[3]) <= 2);
  return lines.join("\n") + "\n";
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "assessor-annotate-e2e-"));
  writeFileSync(join(dir, "bm25.trec"), cutRun("demo/runs/bm25.trec"));
  writeFileSync(join(dir, "hybrid.trec"), cutRun("demo/runs/hybrid-rrf.trec"));
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: PASSWORD });
  await createUser(db, { email: "adj@example.org", name: "Adam Adjudicator", role: "adjudicator", password: PASSWORD });
  await createUser(db, { email: "ann1@example.org", name: "Ann One", role: "annotator", password: PASSWORD });
  await createUser(db, { email: "ann2@example.org", name: "Ann Two", role: "annotator", password: PASSWORD });
  await db.project.create({ data: { name: "demo" } });
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function upload(page: Page, kind: string, file: string, options: Record<string, string> = {}) {
  const form = page.getByRole("form", { name: `Import ${kind}` });
  await form.getByLabel(/file$/).setInputFiles(file);
  for (const [label, value] of Object.entries(options)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole("button", { name: /^Upload/ }).click();
  const outcome = form.locator("[role=status], [role=alert]");
  await outcome.first().waitFor();
  const text = (await outcome.first().textContent()) ?? "";
  expect(text, `${kind} ${file}`).toMatch(/^Imported /);
}

/** Items in (qid, docid) order with the grades the test gives them. */
type TPlan = {
  id: string;
  question: string;
  chunkText: string;
  chunkStart: number;
  qid: string;
  docid: string;
  ann1: number;
  ann2: number;
  final: number;
};
let plan: TPlan[] = [];

async function loadPlan() {
  const items = await db.poolItem.findMany({
    select: {
      id: true,
      query: { select: { externalId: true, text: true } },
      chunk: { select: { externalId: true, text: true, startSeconds: true } },
    },
  });
  items.sort((a, b) =>
    a.query.externalId + " " + a.chunk.externalId < b.query.externalId + " " + b.chunk.externalId ? -1 : 1,
  );
  // Even positions: both annotators agree. Odd positions: they differ by one or two grades and
  // the adjudicator decides a third value (all chosen by hand).
  plan = items.map((it, i) => {
    const ann1 = [3, 2, 1, 0][i % 4];
    const ann2 = i % 2 === 0 ? ann1 : [3, 0, 1, 2][i % 4];
    const final = i % 2 === 0 ? ann1 : [3, 1, 1, 1][i % 4];
    return {
      id: it.id,
      question: it.query.text,
      chunkText: it.chunk.text,
      chunkStart: it.chunk.startSeconds,
      qid: it.query.externalId,
      docid: it.chunk.externalId,
      ann1,
      ann2,
      final,
    };
  });
}

async function currentPlan(page: Page): Promise<TPlan> {
  const article = page.locator("article[data-ready]");
  await article.waitFor();
  const id = await article.getAttribute("data-item-id");
  const p = plan.find((x) => x.id === id);
  if (!p) throw new Error(`item ${id} is not in the plan`);
  // What the page shows is the item's question and chunk.
  expect(await page.getByTestId("question").textContent()).toBe(p.question);
  expect(await page.getByTestId("chunk-text").textContent()).toBe(p.chunkText);
  return p;
}

async function gradeAllByKeyboard(email: string, which: "ann1" | "ann2"): Promise<Map<string, number>> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await twoKeyGrading(ctx);
  const page = await ctx.newPage();
  await loginAs(page, server.url, email, PASSWORD);
  expect(new URL(page.url()).pathname).toBe("/annotate");
  const starts = new Map<string, number>();
  for (let n = 0; n < plan.length; n++) {
    const p = await currentPlan(page);
    // The video is cued at the chunk's start and plays from there; once it is ~1 s in, `s` takes the playhead.
    await page.waitForFunction(
      (start) => {
        const v = document.querySelector("[data-testid=player] video") as HTMLVideoElement | null;
        return !!v && !v.paused && v.currentTime >= start + 0.8 && v.currentTime < start + 10;
      },
      p.chunkStart,
      { timeout: 20_000 },
    );
    await page.keyboard.press("s");
    const start = Number(await page.getByTestId("start").getAttribute("data-seconds"));
    expect(start).toBeGreaterThanOrEqual(p.chunkStart + 0.8);
    expect(start).toBeLessThan(p.chunkStart + 10);
    // Then one second later with `]`.
    await page.keyboard.press("]");
    expect(Number(await page.getByTestId("start").getAttribute("data-seconds"))).toBeCloseTo(start + 1, 5);
    starts.set(p.id, start + 1);
    await page.keyboard.press(String(p[which]));
    expect(
      await page.getByRole("button", { name: new RegExp(`^Grade ${p[which]}:`) }).getAttribute("aria-pressed"),
    ).toBe("true");
    if (n === 0 && which === "ann1") {
      // Every control has an accessible name (aria-label, a <label>, or its text).
      const unnamed = await page.evaluate(() =>
        [...document.querySelectorAll("main button, main input, main textarea, main select")]
          .filter(
            (el) =>
              !(
                el.getAttribute("aria-label")?.trim() ||
                ((el as HTMLInputElement).labels?.length ?? 0) > 0 ||
                (el.tagName === "BUTTON" && el.textContent?.trim())
              ),
          )
          .map((el) => el.outerHTML.slice(0, 80)),
      );
      expect(unnamed).toEqual([]);
      for (const name of [
        "Grade 0: irrelevant",
        "Grade 1: related but does not answer",
        "Grade 2: useful but incomplete",
        "Grade 3: contains the exact evidence",
        "s: at playhead: set start to playhead",
        "−1 s: start 1 second earlier",
        "+5 s: start 5 seconds later",
        "r replay from chunk start",
        "Space play/pause: play or pause",
        "Enter: Submit and next",
        "u back to the previous item",
        "? keys: show keyboard shortcuts",
        "g guidelines: show the guidelines",
      ]) {
        expect(await page.getByRole("button", { name, exact: true }).count(), name).toBe(1);
      }
      for (const name of ["Notes", "Transcript error", "Unsure", "Auto-advance after grade"])
        expect(await page.getByLabel(name, { exact: true }).count(), name).toBe(1);
      // `?` shows the keys; Escape hides them.
      await page.keyboard.press("?");
      await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
      await page.keyboard.press("Escape");
      // Keys typed in the notes are text, not commands.
      await page.getByLabel("Notes", { exact: true }).focus();
      await page.keyboard.type("s 3 [ r");
      await page.keyboard.press("Escape");
      expect(await page.getByLabel("Notes", { exact: true }).inputValue()).toBe("s 3 [ r");
      expect(Number(await page.getByTestId("start").getAttribute("data-seconds"))).toBeCloseTo(start + 1, 5);
      mkdirSync(artifactsDir, { recursive: true });
      await page.screenshot({ path: join(artifactsDir, "annotate.png"), fullPage: true });
    }
    await page.keyboard.press("Enter");
    await expect
      .poll(() =>
        page
          .locator("article[data-ready]")
          .getAttribute("data-item-id", { timeout: 1000 })
          .catch(() => null),
      )
      .not.toBe(p.id);
  }
  await page.getByRole("heading", { name: "End of your queue" }).waitFor();
  await expect.poll(() => page.getByTestId("outbox").textContent(), { timeout: 15_000 }).toBe("All grades saved.");
  // Back with `u` to the last item: the own grade is shown again.
  await page.keyboard.press("u");
  const last = await currentPlan(page);
  expect(
    await page.getByRole("button", { name: new RegExp(`^Grade ${last[which]}:`) }).getAttribute("aria-pressed"),
  ).toBe("true");
  await ctx.close();
  return starts;
}

describe("lead → two annotators → adjudicator → qrels, in Chromium", () => {
  it("the lead uploads the demo files, builds the pool and assigns it", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await loginAs(page, server.url, "lead@example.org", PASSWORD);
    await page.getByRole("link", { name: "demo" }).click();
    await page.getByRole("heading", { name: "demo", level: 1 }).waitFor();
    await upload(page, "videos", join(root, "demo/videos.jsonl"));
    for (const v of ["bm25", "rrf", "ndcg"])
      await upload(page, "transcript", join(root, `demo/transcripts/${v}.vtt`), {
        "Video id": v,
        "Chunk seconds": "20",
        "Overlap seconds": "5",
      });
    await upload(page, "queries", join(root, "demo/queries.jsonl"));
    await upload(page, "run", join(dir, "bm25.trec"), { "System name": "bm25" });
    await upload(page, "run", join(dir, "hybrid.trec"), { "System name": "hybrid-rrf" });
    const pool = page.getByRole("region", { name: "Build pool" });
    await pool.getByLabel("Depth").fill("2");
    await pool.getByRole("button", { name: "Preview the pool" }).click();
    await pool.getByRole("button", { name: "Build the pool" }).click();
    await pool.getByRole("status").waitFor();
    const assign = page.getByRole("region", { name: "Assign" });
    await assign.getByLabel("Annotators per item").fill("2");
    await assign.getByRole("button", { name: "Preview the assignment" }).click();
    await assign.getByRole("button", { name: "Assign", exact: true }).click();
    await assign.getByRole("status").waitFor();
    await ctx.close();
    await loadPlan();
    expect(plan.length).toBeGreaterThanOrEqual(4);
    expect(new Set(plan.map((p) => p.qid))).toEqual(new Set(QUERIES));
    expect(await db.assignment.count()).toBe(plan.length * 2);
  });

  it("two annotators grade every item with the keyboard, setting starts from the player", async () => {
    const starts1 = await gradeAllByKeyboard("ann1@example.org", "ann1");
    const starts2 = await gradeAllByKeyboard("ann2@example.org", "ann2");
    for (const [email, which, starts] of [
      ["ann1@example.org", "ann1", starts1],
      ["ann2@example.org", "ann2", starts2],
    ] as const) {
      const rows = await db.judgement.findMany({
        where: { user: { email } },
        select: { poolItemId: true, grade: true, startSeconds: true },
      });
      expect(rows.length).toBe(plan.length);
      for (const r of rows) {
        const p = plan.find((x) => x.id === r.poolItemId)!;
        expect(r.grade).toBe(p[which]);
        expect(r.startSeconds).toBeCloseTo(starts.get(r.poolItemId)!, 5);
      }
    }
  });

  it("the adjudicator resolves the disagreements with the keyboard", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await loginAs(page, server.url, "adj@example.org", PASSWORD);
    expect(new URL(page.url()).pathname).toBe("/adjudicate");
    const disagreements = plan.filter((p) => p.ann1 !== p.ann2);
    for (let n = 0; n < disagreements.length; n++) {
      const article = page.locator("article[data-ready]");
      await article.waitFor();
      const shownId = await article.getAttribute("data-item-id");
      const p = plan.find((x) => x.id === shownId)!;
      expect(p.ann1).not.toBe(p.ann2);
      // A is ann1 (graded first), B is ann2; names never shown.
      expect(await page.getByTestId("label-A").locator("td").first().textContent()).toContain(String(p.ann1));
      expect(await page.getByTestId("label-B").locator("td").first().textContent()).toContain(String(p.ann2));
      expect(await page.locator("main").textContent()).not.toContain("Ann One");
      // `a`/`b` takes that annotator's grade and start (the one who did not grade 0: a grade-0 label
      // has no start), the digit sets the final grade, `[` moves the start 1 s earlier.
      await page.keyboard.press(p.ann1 !== 0 ? "a" : "b");
      await page.keyboard.press(String(p.final));
      await page.keyboard.press("[");
      if (n === 0) {
        mkdirSync(artifactsDir, { recursive: true });
        await page.screenshot({ path: join(artifactsDir, "adjudicate.png"), fullPage: true });
      }
      await page.keyboard.press("Enter");
      await expect.poll(() => db.adjudication.count({ where: { poolItemId: p.id } })).toBe(1);
      // The page moves on once the server has answered.
      await expect
        .poll(() =>
          page
            .locator("article[data-ready]")
            .getAttribute("data-item-id", { timeout: 1000 })
            .catch(() => null),
        )
        .not.toBe(p.id);
    }
    await page.getByRole("heading", { name: "End of the disagreements" }).waitFor();
    const decided = await db.adjudication.findMany({ select: { poolItemId: true, grade: true, startSeconds: true } });
    expect(decided.length).toBe(disagreements.length);
    for (const d of decided) {
      const p = plan.find((x) => x.id === d.poolItemId)!;
      expect(d.grade).toBe(p.final);
      // A is the first grader (ann1), B ann2; `[` moved the taken start 1 s earlier (never below 0). A grade-0 decision has no start.
      const taken = await db.judgement.findFirstOrThrow({
        where: { poolItemId: d.poolItemId, user: { email: p.ann1 !== 0 ? "ann1@example.org" : "ann2@example.org" } },
        select: { startSeconds: true },
      });
      if (p.final === 0) expect(d.startSeconds).toBeNull();
      else expect(d.startSeconds).toBeCloseTo(Math.max(0, (taken.startSeconds ?? 0) - 1), 5);
    }
    await ctx.close();
  });

  it("the lead downloads the qrels, equal to the expected file", async () => {
    const ctx = await browser.newContext({ acceptDownloads: true });
    const page = await ctx.newPage();
    await loginAs(page, server.url, "lead@example.org", PASSWORD);
    await page.getByRole("link", { name: "demo" }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download qrels" }).click(),
    ]);
    // Expected: every item, agreed ones with the annotators' grade and the rest with the
    // adjudicator's, one line per (qid, docid) in that order: "qid 0 docid grade".
    const expected = plan.map((p) => `${p.qid} 0 ${p.docid} ${p.final}\n`).join("");
    expect(readFileSync(await download.path(), "utf8")).toBe(expected);
    await ctx.close();
  });
});
