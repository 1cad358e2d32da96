import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { seedTransferProject } from "../helpers/transfer-project.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";

/**
 * The lead pools one chunking for what label transfer left from the project
 * page: the Build pool panel's chunking choice, and the saved count in its answer.
 * Project: tests/helpers/transfer-project.ts (B's run: 60 top-10 pairs, 48 with a transfer label).
 * Build first: NEXT_DIST_DIR=.next-<branch> npx next build; run with the same NEXT_DIST_DIR.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: "lead-password" });
  const { projectId } = await seedTransferProject(db, { name: "Grid" });
  const { transferJudge } = await import("../../lib/chunkings/transfer.ts");
  await transferJudge(db, projectId, { from: "A", to: "B" });
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
  await loginAs(page, server.url, "lead@example.org", "lead-password");
  await page.getByRole("link", { name: "Grid" }).click();
  await page.getByRole("heading", { name: "Grid", level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
});

describe("pool one chunking from the project page", () => {
  it("pools only what the transfer left unjudged and shows the saved count", async () => {
    const pool = page.getByRole("region", { name: "Build pool" });
    await pool.getByLabel("Depth").fill("10");
    await pool.getByLabel("Chunking").selectOption("B");
    // A preview first (a dry run), then the confirmation.
    await pool.getByRole("button", { name: "Preview the pool" }).click();
    const preview = pool.getByRole("group", { name: "Build the pool?" });
    await preview.waitFor();
    expect(await preview.textContent()).toContain("Label transfer saves 48 items of chunking B.");
    expect(await db.poolItem.count()).toBe(0);
    await preview.getByRole("button", { name: "Build the pool" }).click();
    await pool.getByRole("status").waitFor();
    const text = (await pool.getByRole("status").textContent()) ?? "";
    expect(text).toContain("Label transfer saved 48 items of chunking B.");
    expect(text).toContain("This added 12 new items to the pool");
    expect(await db.poolItem.count()).toBe(12);
  });
});
