import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { pseudonym } from "../../lib/annotators/report.ts";

/**
 * The lead's data path in Chromium: upload every import kind through the page (seeing a bad
 * file's errors by line, and nothing written), build the pool, assign, watch progress, download
 * the qrels. Build first: NEXT_DIST_DIR=.next-auth npx next build; run with the same NEXT_DIST_DIR.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
let page: Page;
let dir: string;

const files: Record<string, string> = {
  "videos.jsonl":
    [
      '{"id":"v1","title":"Intro","url":"https://example.org/v1.mp4","duration":120}',
      '{"id":"v2","title":"Talk","url":"https://example.org/v2.mp4","duration":30}',
    ].join("\n") + "\n",
  "chunks.jsonl":
    [
      '{"id":"c1","video":"v1","start":0,"end":10,"text":"one"}',
      '{"id":"c2","video":"v1","start":10,"end":20,"text":"two"}',
      '{"id":"c3","video":"v1","start":20,"end":30,"text":"three"}',
      '{"id":"c4","video":"v1","start":30,"end":40,"text":"four"}',
    ].join("\n") + "\n",
  "talk.vtt":
    "WEBVTT\n\n00:00:00.000 --> 00:00:05.000\nhello there\n\n00:00:05.000 --> 00:00:10.000\nthis is a talk\n\n00:00:10.000 --> 00:00:15.000\nabout evaluation\n",
  "queries.jsonl":
    [
      '{"id":"q1","text":"what is one?","tags":["named-entity"]}',
      '{"id":"q2","text":"what is four?","start":30,"video":"v1"}',
    ].join("\n") + "\n",
  "runA.txt": "q1 Q0 c1 1 0.9 A\nq1 Q0 c2 2 0.8 A\nq2 Q0 c3 1 0.7 A\nq2 Q0 c4 2 0.6 A\n",
  // Line 2: the score is not a number.
  "runB-bad.txt": "q1 Q0 c3 1 0.95 B\nq1 Q0 c1 2 high B\n",
  "runB.txt": "q1 Q0 c3 1 0.95 B\nq1 Q0 c1 2 0.5 B\nq2 Q0 c4 1 0.9 B\n",
  "prior.qrels": "q1 0 c1 3\nq2 0 c4 1\n",
  "judge.qrels": "q1 0 c1 2\nq1 0 c3 1\nq2 0 c3 0\nq2 0 c4 2\n",
  "answers.jsonl":
    [
      '{"qid":"q1","answer":"One is c1. Dr. Who said so at 2:30.","context":["c1","c2"]}',
      '{"qid":"q2","answer":"Four.","context":["c4"],"citations":[{"sentence":0,"chunks":["c4"]}]}',
    ].join("\n") + "\n",
  // Line 2: a chunk the project does not have.
  "answers-bad.jsonl":
    ['{"qid":"q1","answer":"One.","context":["c1"]}', '{"qid":"q2","answer":"Four.","context":["c9"]}'].join("\n") +
    "\n",
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "assessor-lead-e2e-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: "lead-password" });
  await createUser(db, { email: "ann@example.org", name: "Ann", role: "annotator", password: "ann-password" });
  await createUser(db, { email: "bob@example.org", name: "Bob", role: "annotator", password: "bob-password" });
  await db.project.create({ data: { name: "Demo" } });
  // The fixtures' videos are on example.org: the operator allows that host, so the import has no warning.
});
const server = useTestServer({ env: { ASSESSOR_MEDIA_HOSTS: "https://example.org" } });
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await loginAs(page, server.url, "lead@example.org", "lead-password");
  await page.getByRole("link", { name: "Demo" }).click();
  await page.getByRole("heading", { name: "Demo", level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function upload(kind: string, file: string, options: Record<string, string> = {}): Promise<string> {
  const form = page.getByRole("form", { name: `Import ${kind}` });
  await form.getByLabel(/file$/).setInputFiles(join(dir, file));
  for (const [label, value] of Object.entries(options)) await form.getByLabel(label, { exact: true }).fill(value);
  await form.getByRole("button", { name: /^Upload/ }).click();
  const outcome = form.locator("[role=status], [role=alert]");
  await outcome.first().waitFor();
  return (await outcome.first().textContent()) ?? "";
}

describe("lead: imports, pool, assignment, progress, exports", () => {
  it("uploads every kind of import the CLI offers", async () => {
    expect(await upload("videos", "videos.jsonl")).toBe(
      "Imported videos.jsonl: 2 rows (2 new, 0 updated, 0 unchanged).",
    );
    expect(await upload("chunks", "chunks.jsonl")).toBe(
      "Imported chunks.jsonl: 4 rows (4 new, 0 updated, 0 unchanged).",
    );
    // 15 s of captions in chunks of 10 s without overlap: [0,10) and [10,15].
    expect(await upload("transcript", "talk.vtt", { "Video id": "v2", "Chunk seconds": "10" })).toMatch(
      /^Imported talk\.vtt: 2 rows \(2 new, 0 updated, 0 unchanged\)\. Chunk ids: /,
    );
    expect(await upload("queries", "queries.jsonl")).toBe(
      "Imported queries.jsonl: 2 rows (2 new, 0 updated, 0 unchanged).",
    );
    expect(await upload("run", "runA.txt", { "System name": "A" })).toBe(
      "Imported runA.txt: 4 rows (4 new, 0 updated, 0 unchanged).",
    );
    expect(await upload("reference labels", "prior.qrels", { Source: "prior study" })).toMatch(
      /^Imported prior\.qrels: 2 rows/,
    );
    expect(await upload("judge labels", "judge.qrels", { "Judge name": "gpt-judge" })).toMatch(
      /^Imported judge\.qrels: 4 rows/,
    );
    expect(await db.video.count()).toBe(2);
    expect(await db.chunk.count({ where: { video: { externalId: "v2" } } })).toBe(2);
    expect(await db.judgeLabel.count()).toBe(4);
    expect(await db.referenceLabel.count()).toBe(2);
  });

  it("lists a bad file's errors by line and writes nothing from it", async () => {
    const message = await upload("run", "runB-bad.txt", { "System name": "B" });
    expect(message).toContain("1 error: nothing from this file was imported.");
    const errors = page
      .getByRole("form", { name: "Import run" })
      .getByRole("list", { name: "Errors by line" })
      .getByRole("listitem");
    expect(await errors.count()).toBe(1);
    expect(await errors.first().textContent()).toMatch(/^runB-bad\.txt:2: score: /);
    expect(await db.run.count({ where: { system: "B" } })).toBe(0);
    // The corrected file goes in.
    expect(await upload("run", "runB.txt", { "System name": "B" })).toBe(
      "Imported runB.txt: 3 rows (3 new, 0 updated, 0 unchanged).",
    );
  });

  it("uploads a generator's answers with a system name, split into claims; a bad file lists its errors by line", async () => {
    const bad = await upload("answers", "answers-bad.jsonl", { "System name": "rag-a" });
    expect(bad).toContain("1 error: nothing from this file was imported.");
    const errors = page
      .getByRole("form", { name: "Import answers" })
      .getByRole("list", { name: "Errors by line" })
      .getByRole("listitem");
    expect(await errors.first().textContent()).toBe(
      'answers-bad.jsonl:2: context.0: unknown chunk "c9"; expected the id of a chunk of chunking "default"',
    );
    expect(await db.answer.count()).toBe(0);
    expect(await upload("answers", "answers.jsonl", { "System name": "rag-a" })).toBe(
      "Imported answers.jsonl: 2 rows (2 new, 0 updated, 0 unchanged).",
    );
    const a = await db.answer.findFirstOrThrow({
      where: { system: "rag-a", query: { externalId: "q1" } },
      include: { claims: { orderBy: { position: "asc" } } },
    });
    expect(a.claims.map((c) => c.text)).toEqual(["One is c1.", "Dr. Who said so at 2:30."]);
  });

  it("builds the pool at depth 1 over both runs", async () => {
    const pool = page.getByRole("region", { name: "Build pool" });
    await pool.getByLabel("Depth").fill("1");
    // A preview first (a dry run: nothing written), then the confirmation.
    await pool.getByRole("button", { name: "Preview the pool" }).click();
    const preview = pool.getByRole("group", { name: "Build the pool?" });
    await preview.waitFor();
    expect(await preview.textContent()).toContain("This will add 4 new items to the pool, 4 items in all.");
    expect(await db.poolItem.count()).toBe(0);
    await preview.getByRole("button", { name: "Build the pool" }).click();
    await pool.getByRole("status").waitFor();
    // Top 1 by score (lib/stats/order.ts): q1 → A: c1 (0.9), B: c3 (0.95); q2 → A: c3 (0.7), B: c4 (0.9).
    const items = await db.poolItem.findMany({
      select: { query: { select: { externalId: true } }, chunk: { select: { externalId: true } } },
    });
    expect(items.map((i) => `${i.query.externalId}/${i.chunk.externalId}`).sort()).toEqual([
      "q1/c1",
      "q1/c3",
      "q2/c3",
      "q2/c4",
    ]);
    expect(await pool.getByRole("status").textContent()).toContain(
      "This added 4 new items to the pool, 4 items in all.",
    );
    expect(await pool.getByRole("status").getByRole("link").textContent()).toBe("assign the new items to annotators");
    // q1/c1 and q2/c4 carry imported reference labels: stage "imported" until assigned.
    await expect.poll(() => page.locator('[data-stage="unassigned"]').textContent()).toBe("2");
    expect(await page.locator('[data-stage="imported"]').textContent()).toBe("2");
  });

  it("assigns every item to both annotators", async () => {
    const assign = page.getByRole("region", { name: "Assign" });
    await assign.getByLabel("Annotators per item").fill("2");
    // q1/c1 and q2/c4 have imported labels: they leave the queue unless re-graded.
    await assign.getByLabel(/Re-grade items that already have an imported label/).check();
    await assign.getByRole("button", { name: "Preview the assignment" }).click();
    const preview = assign.getByRole("group", { name: "Assign these items?" });
    await preview.waitFor();
    expect(await preview.textContent()).toMatch(
      /This will make 8 assignments on 4 pool items \(2 annotators per item\): (ann|bob)@example\.org \+4, (ann|bob)@example\.org \+4\./,
    );
    expect(await db.assignment.count()).toBe(0);
    await preview.getByRole("button", { name: "Assign", exact: true }).click();
    await assign.getByRole("status").waitFor();
    expect(await assign.getByRole("status").textContent()).toContain("Made 8 assignments on 4 pool items");
    for (const email of ["ann@example.org", "bob@example.org"])
      expect(await db.assignment.count({ where: { user: { email } } })).toBe(4);
    await expect.poll(() => page.locator('[data-stage="assigned"]').textContent()).toBe("4");
  });

  it("shows progress per annotator and downloads the qrels", async () => {
    // Two annotators agree on q1/c3; Ann also grades q2/c3 (timings: Ann 4 s and 10 s, Bob 6 s).
    const item = async (q: string, c: string) =>
      (await db.poolItem.findFirstOrThrow({ where: { query: { externalId: q }, chunk: { externalId: c } } })).id;
    const ann = await db.user.findUniqueOrThrow({ where: { email: "ann@example.org" } });
    const bob = await db.user.findUniqueOrThrow({ where: { email: "bob@example.org" } });
    await submitJudgement(db, ann.id, {
      poolItemId: await item("q1", "c3"),
      grade: 2,
      startSeconds: 20,
      timeSpentMs: 4000,
      idempotencyKey: "e2e-ann-1",
    });
    await submitJudgement(db, bob.id, {
      poolItemId: await item("q1", "c3"),
      grade: 2,
      startSeconds: 20,
      timeSpentMs: 6000,
      idempotencyKey: "e2e-bob-1",
    });
    await submitJudgement(db, ann.id, {
      poolItemId: await item("q2", "c3"),
      grade: 0,
      startSeconds: null,
      timeSpentMs: 10000,
      idempotencyKey: "e2e-ann-2",
    });

    const progress = page.getByRole("region", { name: "Progress per annotator" });
    await progress.getByRole("button", { name: "Refresh progress and status" }).click();
    // Medians by hand: Ann (4 s + 10 s) / 2 = 7 s → 0:07; Bob 6 s → 0:06.
    await expect
      .poll(() => progress.locator("tbody tr").allInnerTexts())
      .toEqual(["Ann ann@example.org\t2\t4\t0:07", "Bob bob@example.org\t1\t4\t0:06"]);

    // The status counts follow: q1/c3 agreed, the other three still assigned.
    await expect.poll(() => page.locator('[data-stage="agreed"]').textContent()).toBe("1");
    expect(await page.locator('[data-stage="assigned"]').textContent()).toBe("3");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download qrels" }).click(),
    ]);
    // The version in the file name: the label set's sha256, first 12 digits.
    expect(download.suggestedFilename()).toMatch(/^Demo\.[0-9a-f]{12}\.qrels$/);
    // Imported q1/c1 (3) and q2/c4 (1), plus the agreed q1/c3 (2), in (query, chunk) order.
    expect(readFileSync(await download.path(), "utf8")).toBe("q1 0 c1 3\nq1 0 c3 2\nq2 0 c4 1\n");

    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download labels (CSV)" }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe(
      download.suggestedFilename().replace(/^Demo\.(\w+)\.qrels$/, "Demo.labels.$1.csv"),
    );
    // No comment line: the header row first; the new columns (flags, notes, revision, end, then who
    // labelled by pseudonymous id and the guidelines revisions, none sent here) at the end.
    const csvLines = readFileSync(await csv.path(), "utf8")
      .trimEnd()
      .split("\n");
    const projectId = (await db.project.findFirstOrThrow({ where: { name: "Demo" } })).id;
    const [annId, bobId] = await Promise.all(
      ["ann@example.org", "bob@example.org"].map(
        async (email) => (await db.user.findUniqueOrThrow({ where: { email } })).id,
      ),
    );
    expect(csvLines).toEqual([
      "query,chunk,grade,start,status,annotators,source,video,chunk_start,chunk_end,chunking,flags,notes,revision,end,labelled_by,guideline_revisions",
      "q1,c1,3,,imported,0,prior study,v1,0,10,default,,,,,,",
      `q1,c3,2,20,agreed,2,,v1,20,30,default,,,,,${pseudonym(projectId, annId)};${pseudonym(projectId, bobId)},;`,
      "q2,c4,1,,imported,0,prior study,v1,30,40,default,,,,,,",
    ]);
    const [version] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Version file: labels (CSV)" }).click(),
    ]);
    expect(version.suggestedFilename()).toBe(`${csv.suggestedFilename()}.version.json`);
    expect(JSON.parse(readFileSync(await version.path(), "utf8"))).toMatchObject({
      format: "csv",
      label_set_version: { labels: 3, project: "Demo" },
    });

    const [jsonl] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download labels (JSONL)" }).click(),
    ]);
    const jsonLines = readFileSync(await jsonl.path(), "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonLines).toHaveLength(4);
    expect(jsonLines[2]).toEqual({
      query: "q1",
      chunk: "c3",
      grade: 2,
      start: 20,
      status: "agreed",
      annotators: 2,
      source: null,
      video: "v1",
      chunk_start: 20,
      chunk_end: 30,
      chunking: "default",
      flags: [],
      notes: [],
      revision: null,
      end: null,
      labelled_by: [pseudonym(projectId, annId), pseudonym(projectId, bobId)],
      guideline_revisions: [null, null],
    });

    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "lead-project.png"), fullPage: true });
  });

  it("shows a progress bar while a large file uploads", async () => {
    // ~4 MB of run lines naming an unknown chunk, sent at 1 MB/s: the bar is visible for seconds.
    const big =
      Array.from({ length: 100_000 }, (_, i) => `q1 Q0 nochunk${i} ${i + 1} ${1 - i / 1e6} C`).join("\n") + "\n";
    writeFileSync(join(dir, "big.run"), big);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 1_000_000,
    });
    const form = page.getByRole("form", { name: "Import run" });
    await form.getByLabel(/file$/).setInputFiles(join(dir, "big.run"));
    await form.getByLabel("System name", { exact: true }).fill("C");
    await form.getByRole("button", { name: /^Upload/ }).click();
    const bar = form.getByRole("progressbar", { name: "Uploading run" });
    await bar.waitFor();
    await expect
      .poll(async () => Number(await bar.evaluate((el) => (el as HTMLProgressElement).value)), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await form.getByRole("alert").waitFor({ timeout: 120_000 });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    expect(await form.getByRole("alert").textContent()).toContain("big.run:1: ");
    expect(await db.run.count({ where: { system: "C" } })).toBe(0);
  });
});
