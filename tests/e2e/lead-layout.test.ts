import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { axeScan, describeViolations } from "../helpers/axe.ts";
import { PASSWORDS } from "../integration/annotate-fixture.ts";

/**
 * The lead's users and project pages on a phone and by keyboard: at
 * 390 px the pages do not scroll sideways (tables scroll in their own focusable box), axe finds
 * nothing serious (the judge's prompt preview included); the project page's sections have keys
 * (c: the Grading section, whose first Tab stop is "Close grading…") and its nav says what the
 * Grading section offers now; the lead's own row has no Deactivate; an upload without a file says so.
 * Build first: NEXT_DIST_DIR=.next-<branch> npx next build; run with the same NEXT_DIST_DIR.
 */
const project = useAnnotatorProject();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

async function leadPage(width: number): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width, height: 844 } });
  const page = await ctx.newPage();
  await loginAs(page, project.server.url, "lead@example.org", PASSWORDS.lead);
  return { ctx, page };
}

/** The page's width, and what sticks out past the viewport (to name the culprit when it fails). */
async function overflow(page: Page) {
  return page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    outside: [...document.querySelectorAll("body *")]
      .filter((el) => {
        if (el.getBoundingClientRect().right <= window.innerWidth + 0.5) return false;
        // Inside a box that scrolls sideways on its own, it does not widen the page.
        for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
          if (["auto", "scroll", "hidden"].includes(getComputedStyle(a).overflowX)) return false;
        return true;
      })
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`),
    // Text that runs out of its box (a long word) widens the page too.
    text: [...document.querySelectorAll("body *")]
      .flatMap((el) => [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()))
      .filter((n) => {
        const range = document.createRange();
        range.selectNodeContents(n);
        if (range.getBoundingClientRect().right <= window.innerWidth + 0.5) return false;
        for (let a = n.parentElement; a && a !== document.body; a = a.parentElement)
          if (["auto", "scroll", "hidden"].includes(getComputedStyle(a).overflowX)) return false;
        return true;
      })
      .slice(0, 5)
      .map((n) => `${n.parentElement?.tagName.toLowerCase()}: ${n.textContent?.slice(0, 60)}`),
  }));
}

async function noSeriousAxe(page: Page) {
  await page.waitForLoadState("networkidle");
  const grave = (await axeScan(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(describeViolations(grave)).toBe("");
}

describe("lead pages at 390 px and by keyboard", () => {
  it("users: fits 390 px, nothing serious for axe; the lead's own row has no Deactivate", async () => {
    const { ctx, page } = await leadPage(390);
    try {
      await page.goto(`${project.server.url}/lead/users`);
      await page.getByRole("button", { name: "Deactivate ann@example.org" }).waitFor();
      const o = await overflow(page);
      expect(o.outside).toEqual([]);
      expect(o.text).toEqual([]);
      expect(o.width).toBeLessThanOrEqual(390);
      expect(await page.getByRole("button", { name: "Deactivate lead@example.org" }).count()).toBe(0);
      expect(await page.getByText("Your own account: another lead can deactivate it.").count()).toBe(1);
      await noSeriousAxe(page);
    } finally {
      await ctx.close();
    }
  });

  it("project page: fits 390 px with its tables and Delete buttons, nothing serious for axe with the judge's prompt preview shown", async () => {
    const { ctx, page } = await leadPage(390);
    try {
      await page.goto(`${project.server.url}/lead/projects/${project.fx.project.id}`);
      await page.getByRole("heading", { name: "Blind project", level: 1 }).waitFor();
      await page.getByRole("table").first().waitFor();
      const judge = page.getByRole("form", { name: "New judge run" });
      await judge.getByLabel("Judge name").fill("phone-judge");
      await judge.getByLabel("Model").fill("any-model");
      await judge.getByLabel("Base URL").fill("http://127.0.0.1:9/v1");
      await judge.getByRole("button", { name: "Preview prompt" }).click();
      await page.getByTestId("judge-preview").waitFor();
      const o = await overflow(page);
      expect(o.outside).toEqual([]);
      expect(o.text).toEqual([]);
      expect(o.width).toBeLessThanOrEqual(390);
      await noSeriousAxe(page);
    } finally {
      await ctx.close();
    }
  });

  it("project page: c goes to the Grading section, whose next Tab stop is Close grading…; the nav then says Reopen grading; an upload without a file says so", async () => {
    const { ctx, page } = await leadPage(1440);
    try {
      await page.goto(`${project.server.url}/lead/projects/${project.fx.project.id}`);
      await page.getByRole("heading", { name: "Blind project", level: 1 }).waitFor();
      const nav = page.getByRole("navigation", { name: "Sections of this project" });
      expect(
        await nav.getByRole("link", { name: "c Close grading", exact: true }).getAttribute("aria-keyshortcuts"),
      ).toBe("c");
      await page.keyboard.press("c");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("grading-title");
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Close grading…");
      await page.keyboard.press("Enter");
      await page
        .getByRole("group", { name: "Close grading?" })
        .getByRole("button", { name: "Close grading", exact: true })
        .click();
      await page.getByTestId("grading-state").getByText("closed", { exact: true }).waitFor();
      await nav.getByRole("link", { name: "c Reopen grading", exact: true }).waitFor();
      expect(await nav.getByRole("link", { name: "c Close grading", exact: true }).count()).toBe(0);
      // 3: the Imports section; the first upload's button without a file.
      await page.keyboard.press("Escape");
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("3");
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("imports-title");
      const form = page.getByRole("form", { name: "Import videos" });
      await form.getByRole("button", { name: "Upload videos" }).click();
      expect(await form.getByRole("alert").textContent()).toBe(
        "Choose a videos file first: no file is chosen, so nothing was uploaded.",
      );
    } finally {
      await ctx.close();
    }
  });
});
