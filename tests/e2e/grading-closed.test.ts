import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { PASSWORDS } from "../integration/annotate-fixture.ts";

/**
 * Closed grading, final items read-only when revisited, in Chromium: the lead closes grading on
 * the project page (with a confirmation); the annotator's items are then read-only, every one alike
 * (lib/projects/grading.ts: blind), the keys move (Enter, u) and a grade key says why nothing is
 * sent; reopened, grading works again.
 */
const project = useAnnotatorProject();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const itemId = (page: Page) => page.locator("article[data-ready]").getAttribute("data-item-id");
async function nextShown(page: Page, old: string | null): Promise<string | null> {
  await page.waitForFunction((o) => {
    const id = document.querySelector("article[data-ready]")?.getAttribute("data-item-id");
    return Boolean(id) && id !== o;
  }, old);
  return itemId(page);
}

async function leadSets(closed: boolean): Promise<void> {
  const page = await browser.newPage();
  await loginAs(page, project.server.url, "lead@example.org", PASSWORDS.lead);
  await page.goto(`${project.server.url}/lead/projects/${project.fx.project.id}`);
  // The section nav names what the section offers now.
  await page
    .getByRole("navigation", { name: "Sections of this project" })
    .getByRole("link", { name: closed ? "c Close grading" : "c Reopen grading", exact: true })
    .click();
  await page.getByRole("button", { name: closed ? "Close grading…" : "Reopen grading…" }).click();
  const ask = page.getByRole("group", { name: closed ? "Close grading?" : "Reopen grading?" });
  await ask.getByText(closed ? /becomes read-only/ : /can grade and change/).waitFor();
  await ask.getByRole("button", { name: closed ? "Close grading" : "Reopen grading" }).click();
  await page
    .getByTestId("grading-state")
    .getByText(closed ? "closed" : "open", { exact: true })
    .waitFor();
  await page.close();
}

describe("closing grading", () => {
  it("shows every item read-only to the annotator, by keyboard, until the lead reopens it", async () => {
    const { db, fx } = project;
    const page = await browser.newPage();
    await loginAs(page, project.server.url, "ann@example.org", PASSWORDS.ann);
    await page.goto(`${project.server.url}/annotate`);
    await page.locator("article[data-ready]").waitFor();
    const first = await itemId(page);
    await page.keyboard.press("2");
    await nextShown(page, first);
    await expect
      .poll(async () =>
        (await db.judgement.findMany({ where: { poolItemId: first ?? "", userId: fx.ann.id } })).map((j) => j.grade),
      )
      .toEqual([2]);

    await leadSets(true);

    const posted: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().includes("/api/annotate/judgements")) posted.push(r.url());
    });
    await page.reload();
    await page.locator("article[data-ready]").waitFor();
    await page
      .getByTestId("closed-item")
      .getByText(/closed by the lead/)
      .waitFor();
    expect(await page.getByTestId("project-closed").textContent()).toBe("grading closed");
    expect(await page.getByTestId("closed-own").textContent()).toBe("You did not grade this item.");
    expect(await page.getByRole("group", { name: "Grade" }).count()).toBe(0);
    // u: back to the graded item, shown read-only with the grade as stored.
    const second = await itemId(page);
    await page.keyboard.press("u");
    expect(await nextShown(page, second)).toBe(first);
    await expect
      .poll(() => page.getByTestId("closed-own").textContent())
      .toMatch(/^You graded it 2 \(useful but incomplete\), start \d+:\d\d/);
    // A grade key sends nothing and says why; Enter moves on.
    await page.keyboard.press("3");
    await page
      .getByRole("alert")
      .getByText(/Grading is closed in this project/)
      .waitFor();
    await page.keyboard.press("Enter");
    expect(await nextShown(page, first)).toBe(second);
    expect(posted).toEqual([]);
    expect(
      (await db.judgement.findMany({ where: { poolItemId: first ?? "", userId: fx.ann.id } })).map((j) => j.grade),
    ).toEqual([2]);

    await leadSets(false);
    await page.reload();
    await page.locator("article[data-ready]").waitFor();
    expect(await page.getByTestId("closed-item").count()).toBe(0);
    expect(await page.getByTestId("project-closed").count()).toBe(0);
    const now = await itemId(page);
    await page.keyboard.press("1");
    await nextShown(page, now);
    await expect
      .poll(async () =>
        (await db.judgement.findMany({ where: { poolItemId: now ?? "", userId: fx.ann.id } })).map((j) => j.grade),
      )
      .toEqual([1]);
    await page.close();
  });
});
