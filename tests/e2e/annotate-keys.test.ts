import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { cspViolations, watchCsp } from "../helpers/csp.ts";
import { stubYouTube } from "../helpers/youtube.ts";
import type { Db } from "../../lib/db/client.ts";
import { PASSWORDS, seedAnnotationFixture, type TFixture } from "../integration/annotate-fixture.ts";

/**
 * Keys for everything an annotator does often, and the project's guidelines:
 * the lead writes Markdown guidelines in the project page; a new annotator has auto-advance on
 * (one key per judgement), sets both flags with f and t, writes a note after n and leaves it
 * with Esc, opens the guidelines with g (grade meanings and the lead's examples), and grades
 * with one key; the ? panel lists the keys; turning auto-advance off stays off after a reload.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
let fx: TFixture;

const GUIDELINES =
  "## Examples of grade 3\n\n- *Who made BM25?* with a chunk that **names Robertson**\n- a second example";

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  fx = await seedAnnotationFixture(db);
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const itemId = (page: Page) => page.locator("[data-ready=true]").getAttribute("data-item-id");

describe("annotator keys and guidelines", () => {
  it("the lead writes guidelines in the project settings", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await loginAs(page, server.url, "lead@example.org", PASSWORDS.lead);
    await page.goto(`${server.url}/lead/projects/${fx.project.id}`);
    await page.getByLabel("Guidelines (Markdown)").fill(GUIDELINES);
    await page.getByRole("button", { name: "Save guidelines" }).click();
    await page.getByText("Guidelines saved.").waitFor();
    expect((await db.project.findUniqueOrThrow({ where: { id: fx.project.id } })).guidelines).toBe(GUIDELINES);
    await ctx.close();
  });

  it("f, t, n, Esc, g and one grade key per judgement; the ? panel lists them", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await watchCsp(ctx);
    await stubYouTube(ctx, server.url);
    const page = await ctx.newPage();
    await loginAs(page, server.url, "ann@example.org", PASSWORDS.ann);
    await page.goto(`${server.url}/annotate`);
    await page.locator("[data-ready=true]").waitFor();
    expect(await page.getByLabel("Auto-advance after grade").isChecked()).toBe(true);

    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    for (const text of [
      "flag or unflag: unsure",
      "flag or unflag: transcript error",
      "write a note",
      "guidelines and grade meanings",
      "auto-advance is on",
    ])
      await help.getByText(text).waitFor();
    await page.keyboard.press("Escape");
    expect(await help.count()).toBe(0);

    await page.keyboard.press("g");
    // A panel beside the item, not a dialog over it.
    const guide = page.getByRole("complementary", { name: "Guidelines" });
    await guide.getByText("contains the exact evidence").waitFor();
    expect(await guide.getByRole("heading", { name: "Examples of grade 3" }).count()).toBe(1);
    expect(await guide.locator("li").count()).toBe(2);
    expect(await guide.locator("strong").textContent()).toBe("names Robertson");
    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "annotate-guidelines.png") });
    await page.keyboard.press("Escape");
    expect(await guide.count()).toBe(0);

    const first = await itemId(page);
    await page.keyboard.press("f");
    await page.keyboard.press("t");
    expect(await page.getByLabel("Unsure").isChecked()).toBe(true);
    expect(await page.getByLabel("Transcript error").isChecked()).toBe(true);
    await page.keyboard.press("t");
    expect(await page.getByLabel("Transcript error").isChecked()).toBe(false);
    await page.keyboard.press("t");
    await page.keyboard.press("n");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Notes");
    await page.keyboard.type("a typo in the captions");
    await page.keyboard.press("Escape");
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe("TEXTAREA");
    // One key: the grade is submitted and the next item comes up.
    await page.keyboard.press("2");
    await page.waitForFunction(
      (old) => document.querySelector("[data-ready=true]")?.getAttribute("data-item-id") !== old,
      first,
    );
    await page.getByText("All grades saved.").waitFor();
    const stored = await db.judgement.findFirstOrThrow({ where: { poolItemId: first ?? "", userId: fx.ann.id } });
    expect({ grade: stored.grade, notes: stored.notes, flags: JSON.parse(stored.flags) as string[] }).toEqual({
      grade: 2,
      notes: "a typo in the captions",
      flags: ["unsure", "transcript_error"],
    });

    // The setting stays: off after a reload once turned off.
    await page.getByLabel("Auto-advance after grade").uncheck();
    await page.reload();
    await page.locator("[data-ready=true]").waitFor();
    expect(await page.getByLabel("Auto-advance after grade").isChecked()).toBe(false);
    const second = await itemId(page);
    await page.keyboard.press("1");
    await page.waitForTimeout(300);
    expect(await itemId(page)).toBe(second);
    expect(await cspViolations(page)).toEqual([]);
    await ctx.close();
  });
});
