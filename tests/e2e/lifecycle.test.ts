import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

/**
 * The lead's lifecycle controls in Chromium: runs listed with their sizes, one
 * deleted after a confirmation (its pool items stay), the chunks downloaded as JSONL, and the
 * project deleted by typing its name: refused while it holds human labels, then forced (a backup
 * of the labels is written on the server first) and the lead lands on the project list.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
let page: Page;
let projectId: number;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: "lead-password" });
  const p = await db.project.create({ data: { name: "Doomed" } });
  projectId = p.id;
  const v = await db.video.create({
    data: { projectId, externalId: "v1", title: "Intro", url: "https://www.youtube.com/watch?v=abcdefghijk" },
  });
  const q = await db.query.create({ data: { projectId, externalId: "q1", text: "what?" } });
  const c1 = await db.chunk.create({
    data: {
      chunkingId: await defaultChunkingId(db, projectId),
      projectId: projectId,
      externalId: "c1",
      videoId: v.id,
      startSeconds: 0,
      endSeconds: 10,
      text: "one",
    },
  });
  const c2 = await db.chunk.create({
    data: {
      chunkingId: await defaultChunkingId(db, projectId),
      projectId: projectId,
      externalId: "c2",
      videoId: v.id,
      startSeconds: 10,
      endSeconds: 20,
      text: "two",
    },
  });
  for (const system of ["bm25", "mistake"])
    await db.run.create({
      data: {
        chunkingId: await defaultChunkingId(db, projectId),
        projectId: projectId,
        system,
        contentHash: `h-${system}`,
        entries: {
          create: [
            { queryId: q.id, chunkId: c1.id, rank: 1, score: 2 },
            { queryId: q.id, chunkId: c2.id, rank: 2, score: 1 },
          ],
        },
      },
    });
  const item = await db.poolItem.create({ data: { projectId, queryId: q.id, chunkId: c1.id } });
  await db.referenceLabel.create({ data: { projectId, source: "prior", queryId: q.id, chunkId: c1.id, grade: 3 } });
  expect(item.id).toBeTruthy();
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ acceptDownloads: true })).newPage();
  await loginAs(page, server.url, "lead@example.org", "lead-password");
  await page.goto(`${server.url}/lead/projects/${projectId}`);
  await page.getByRole("heading", { name: "Doomed", level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
});

describe("lead: runs, chunks and the project's deletion", () => {
  it("lists runs, deletes one after confirming, and keeps the pool", async () => {
    const section = page.getByRole("region", { name: "Runs and chunks" });
    await section.locator("tr[data-run=mistake]").waitFor();
    expect(await section.locator("tr[data-run=bm25] td").nth(1).textContent()).toBe("2");
    await section.locator("tr[data-run=mistake]").getByRole("button", { name: "Delete…" }).click();
    await section.getByRole("button", { name: "Delete mistake" }).click();
    await section.getByRole("status").waitFor();
    expect(await section.getByRole("status").textContent()).toContain("Deleted run mistake (2 entries)");
    await section.locator("tr[data-run=mistake]").waitFor({ state: "detached" });
    expect((await db.run.findMany()).map((r) => r.system)).toEqual(["bm25"]);
    expect(await db.poolItem.count()).toBe(1);
  });

  it("downloads the chunks as the chunk import's JSONL", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download chunks (JSONL)" }).click(),
    ]);
    const text = readFileSync((await download.path())!, "utf8");
    expect(
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { id: "c1", video: "v1", start: 0, end: 10, text: "one" },
      { id: "c2", video: "v1", start: 10, end: 20, text: "two" },
    ]);
  });

  it("deletes the project only when its name is typed, and human labels only when asked", async () => {
    const section = page.getByRole("region", { name: "Delete project" });
    const button = section.getByRole("button", { name: "Delete project" });
    await section.getByLabel(/Type the project's name/).fill("Doom");
    expect(await button.isDisabled()).toBe(true);
    await section.getByLabel(/Type the project's name/).fill("Doomed");
    await button.click();
    await section.getByRole("alert").waitFor();
    expect(await section.getByRole("alert").textContent()).toContain('project "Doomed" holds 1 human labels');
    expect(await db.project.count()).toBe(1);
    await section.getByLabel(/Also delete human labels/).check();
    await button.click();
    await expect.poll(() => db.project.count(), { timeout: 30_000 }).toBe(0);
    await page.waitForURL(`${server.url}/lead`, { waitUntil: "commit" });
    const events = await db.referenceLabel.count();
    expect(events).toBe(0);
  });
});
