import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { artifactsDir, launchBrowser, type RunningServer } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { formatClock } from "../../lib/annotate/format.ts";
import { PASSWORDS, SECRETS, type TFixture } from "../integration/annotate-fixture.ts";

/**
 * Two adjudicators on the same disagreement at once, in Chromium: the first
 * decision stands; the second adjudicator's Enter gets a 409 and the page shows the decision that
 * stands. Keyboard only; A and B are shown, never the annotators' names; `?` shows the keys.
 * Build first: NEXT_DIST_DIR=.next-annotate npx next build; run with the same NEXT_DIST_DIR.
 */
const project = useAnnotatorProject(async (db, fx) => {
  // One disagreement: the annotator under test says 1 at 10 s, the other 3 at 20 s.
  await submitJudgement(db, fx.ann.id, {
    poolItemId: fx.items[0].id,
    grade: 1,
    startSeconds: 10,
    notes: "mentions it only",
    flags: [],
    timeSpentMs: 1,
    idempotencyKey: "e2e-adj-ann-1",
  });
  await submitJudgement(db, fx.other.id, {
    poolItemId: fx.items[0].id,
    grade: 3,
    startSeconds: 20,
    notes: "exact answer",
    flags: ["unsure"],
    timeSpentMs: 1,
    idempotencyKey: "e2e-adj-oth-1",
  });
});
let db: Db;
let server: RunningServer;
let browser: Browser;
let fx: TFixture;

beforeAll(async () => {
  ({ db, fx, server } = project);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

async function open(email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await loginAs(page, server.url, email, password);
  await page.locator(`article[data-item-id="${fx.items[0].id}"]`).waitFor();
  return page;
}

describe("adjudication in the browser", () => {
  it("shows A and B without names; the second of two concurrent decisions sees the one that stands", async () => {
    const first = await open("adj@example.org", PASSWORDS.adjudicator);
    const second = await open("adj2@example.org", PASSWORDS.adjudicator2);

    const table = first.getByRole("table", { name: "Annotators' labels" });
    expect(await table.locator("tbody tr").allInnerTexts()).toEqual([
      "A\t1 related but does not answer\t0:10\t—\tmentions it only\t—",
      "B\t3 contains the exact evidence\t0:20\t—\texact answer\tUnsure",
    ]);
    const text = (await first.locator("main").textContent()) ?? "";
    for (const s of ["Ann Annotator", SECRETS.otherName, SECRETS.otherEmail, SECRETS.judge, ...SECRETS.systems])
      expect(text).not.toContain(s);

    await first.keyboard.press("?");
    await first.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    await first.keyboard.press("Escape");
    expect(await first.getByRole("dialog", { name: "Keyboard shortcuts" }).count()).toBe(0);

    // The rationale is typed in its field: grade keys there are text, not grades.
    await first.keyboard.press("2");
    await first.getByLabel("Rationale").focus();
    await first.keyboard.type("says it, but 3 overstates");
    await first.keyboard.press("Escape");
    expect(await first.getByRole("button", { name: /^Grade 2:/ }).getAttribute("aria-pressed")).toBe("true");
    await first.keyboard.press("]");
    await first.keyboard.press("Shift+BracketRight");

    await second.keyboard.press("0");
    mkdirSync(artifactsDir, { recursive: true });
    await first.screenshot({ path: join(artifactsDir, "adjudicate-decision.png"), fullPage: true });

    await first.keyboard.press("Enter");
    await expect.poll(() => db.adjudication.count()).toBe(1);
    await second.keyboard.press("Enter");
    const alert = second.getByRole("alert").filter({ hasText: "Another adjudicator decided this item first" });
    await alert.waitFor();
    // The start began at the annotators' mean (10 s and 20 s, within the 15 s tolerance: 15 s;
    // never the chunk's start), then ] (+1 s) and Shift+] (+5 s).
    expect(await second.getByTestId("standing").textContent()).toBe(
      `grade 2, start ${formatClock(21)}: “says it, but 3 overstates”`,
    );
    await second.screenshot({ path: join(artifactsDir, "adjudicate-conflict.png"), fullPage: true });
    const stored = await db.adjudication.findFirstOrThrow({
      select: { grade: true, startSeconds: true, rationale: true, adjudicator: { select: { email: true } } },
    });
    expect(stored).toEqual({
      grade: 2,
      startSeconds: 21,
      rationale: "says it, but 3 overstates",
      adjudicator: { email: "adj@example.org" },
    });
  });
});
