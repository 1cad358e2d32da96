import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { makeProject } from "../helpers/factories.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { PASSWORDS } from "../integration/annotate-fixture.ts";

/**
 * The adjudicator by keyboard alone, in Chromium: the picker opens on the project
 * with work and shows pending counts; `a` / `b` take an annotator's grade and start; the final start
 * defaults to the annotators' mean within the tolerance (15 s) and is unchosen beyond it (never the
 * chunk start); `r` focuses the rationale; `g` shows the guidelines; `u` reopens the last decision
 * as a revision (both decisions kept in LabelEvent), also after a reload (the server gives the
 * adjudicator's last decision). Keys are counted per adjudication.
 * Build first: NEXT_DIST_DIR=.next-<branch> npx next build; run with the same NEXT_DIST_DIR.
 */
const project = useAnnotatorProject(async (db, fx) => {
  // A project without disagreements whose name sorts first: the page must not open on it.
  await makeProject(db, { name: "AAA nothing to decide" });
  await db.project.update({
    where: { id: fx.project.id },
    data: { guidelines: "## Grade 3\nThe chunk **answers** the question." },
  });
  for (const [i, [ga, sa, gb, sb]] of setups.entries()) {
    const item = fx.items[i];
    setupOf.set(item.id, setups[i]);
    await submitJudgement(db, fx.ann.id, {
      poolItemId: item.id,
      grade: ga,
      startSeconds: sa,
      notes: i === 0 ? "only mentions it" : "",
      flags: i === 0 ? ["unsure"] : [],
      timeSpentMs: 1,
      idempotencyKey: `adjk-a-${i}`,
    });
    await submitJudgement(db, fx.other.id, {
      poolItemId: item.id,
      grade: gb,
      startSeconds: sb,
      notes: "",
      flags: i === 2 ? ["transcript_error"] : [],
      timeSpentMs: 1,
      idempotencyKey: `adjk-b-${i}`,
    });
  }
});
let browser: Browser;
let page: Page;
// Per item: A's and B's grade and start.
const setups: [number, number | null, number, number | null][] = [
  [1, 48, 3, 66], // starts 18 s apart: beyond the tolerance, no default start
  [2, 30, 3, 36], // within: the default is their mean, 33 s
  [0, null, 2, 50], // A says not relevant
];
const setupOf = new Map<string, (typeof setups)[number]>();
let keys = 0;
const press = async (key: string) => {
  keys++;
  await page.keyboard.press(key);
};

beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await loginAs(page, project.server.url, "adj@example.org", PASSWORDS.adjudicator);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

const currentItem = async () => (await page.locator("article[data-item-id]").getAttribute("data-item-id")) as string;
const startShown = async () => page.getByTestId("start").getAttribute("data-seconds");

describe("adjudication by keyboard", () => {
  it("opens on the project with work; the picker shows the pending counts", async () => {
    await page.locator("article[data-item-id]").waitFor();
    const picker = page.getByLabel("Project");
    expect(await picker.locator("option:checked").textContent()).toBe("Blind project — 3 to decide");
    expect(await picker.locator("option").allTextContents()).toEqual([
      "AAA nothing to decide — nothing to decide",
      "Blind project — 3 to decide",
    ]);
    // The buttons say what their keys do here: Backspace goes back, u reopens.
    expect(
      await page.getByRole("button", { name: "Backspace back to the previous item", exact: true }).textContent(),
    ).toBe("Backspace ◂ back");
    expect(
      await page.getByRole("button", { name: "u reopen the last decision to revise it", exact: true }).count(),
    ).toBe(1);
    expect(await page.getByRole("button", { name: /^u back/ }).count()).toBe(0);
  });

  it("decides three disagreements with a / b, the default start, r and Enter; g shows the guidelines; u revises the last", async () => {
    const { db } = project;
    await press("g");
    const guide = page.getByRole("dialog", { name: "Guidelines" });
    await guide.waitFor();
    expect(await guide.textContent()).toContain("The chunk answers the question.");
    await press("Escape");
    expect(await guide.count()).toBe(0);
    keys = 0;

    const perItem: number[] = [];
    const decidedIds: string[] = [];
    for (let n = 0; n < 3; n++) {
      const before = keys;
      const id = await currentItem();
      decidedIds.push(id);
      const [ga, sa, , sb] = setupOf.get(id)!;
      // The annotators' flags and notes are on every item.
      expect(await page.getByRole("table", { name: "Annotators' labels" }).locator("tbody tr").count()).toBe(2);
      if (sa !== null && sb !== null && Math.abs(sa - sb) > 15) {
        expect(await startShown()).toBe(""); // unchosen, not the chunk's start
        await press("b");
        expect(Number(await startShown())).toBe(sb);
      } else if (sa !== null && sb !== null) {
        expect(Number(await startShown())).toBe((sa + sb) / 2);
        await press("3");
      } else {
        expect(ga).toBe(0);
        await press("a");
        await press("r");
        await page.keyboard.type("A reads it right"); // text, not keys: not counted
        await press("Escape");
      }
      await press("Enter");
      await page.waitForFunction(
        (prev) => document.querySelector("article[data-item-id]")?.getAttribute("data-item-id") !== prev,
        id,
      );
      perItem.push(keys - before);
    }
    await page.getByRole("region", { name: "End of queue" }).waitFor();
    await expect.poll(() => db.adjudication.count()).toBe(3);
    // The picker's count follows the decisions, without a reload.
    await expect
      .poll(() => page.getByLabel("Project").locator("option:checked").textContent())
      .toBe("Blind project — nothing to decide");
    const byItem = new Map((await db.adjudication.findMany()).map((a) => [a.poolItemId, a]));
    for (const [id, [ga, sa, gb, sb]] of setupOf) {
      const a = byItem.get(id)!;
      if (sa !== null && sb !== null && Math.abs(sa - sb) > 15) expect([a.grade, a.startSeconds]).toEqual([gb, sb]);
      else if (sa !== null && sb !== null) expect([a.grade, a.startSeconds]).toEqual([3, (sa + sb) / 2]);
      else expect([a.grade, a.startSeconds, a.rationale]).toEqual([ga, null, "A reads it right"]);
    }
    // Keys per adjudication: 2 taking A's or B's label or the default start; 4 with a rationale (+ its text).
    console.log(
      `adjudicator keystrokes per adjudication: ${perItem.join(", ")} (mean ${(perItem.reduce((s, x) => s + x, 0) / perItem.length).toFixed(2)})`,
    );
    expect(perItem.slice().sort()).toEqual([2, 2, 4]);

    // u reopens the last decision (the third item decided); b then Enter revises it to B's label.
    const lastId = decidedIds[2];
    const [, , gb, sb] = setupOf.get(lastId)!;
    await press("u");
    await page.locator(`article[data-item-id="${lastId}"]`).waitFor();
    expect(await page.getByText("revising decision 1").count()).toBe(1);
    await press("b");
    await press("Enter");
    await expect
      .poll(async () => (await db.adjudication.findUniqueOrThrow({ where: { poolItemId: lastId } })).revision)
      .toBe(2);
    expect(
      await db.adjudication.findUniqueOrThrow({
        where: { poolItemId: lastId },
        select: { grade: true, startSeconds: true },
      }),
    ).toEqual({ grade: gb, startSeconds: sb });
    expect(await db.labelEvent.count({ where: { poolItemId: lastId, kind: "adjudication" } })).toBe(2);
  });

  it("u on a later visit reopens the adjudicator's last decision, asked of the server", async () => {
    const { db } = project;
    // The revision of the previous test is this adjudicator's latest decision in the project.
    const latest = await db.labelEvent.findFirstOrThrow({ where: { kind: "adjudication" }, orderBy: { id: "desc" } });
    const standing = await db.adjudication.findUniqueOrThrow({ where: { poolItemId: latest.poolItemId! } });
    // A later visit: nothing waits anywhere now, so the project is named in the URL (the picker would open on the first by name).
    await page.goto(`${project.server.url}/adjudicate?project=${project.fx.project.id}`);
    await page.getByRole("region", { name: "End of queue" }).waitFor();
    await press("u");
    await page.locator(`article[data-item-id="${standing.poolItemId}"]`).waitFor();
    expect(await page.getByText(`revising decision ${standing.revision}`).count()).toBe(1);
    await press("a");
    await press("Enter");
    await expect
      .poll(
        async () => (await db.adjudication.findUniqueOrThrow({ where: { poolItemId: standing.poolItemId } })).revision,
      )
      .toBe(standing.revision + 1);
    const [ga, sa] = setupOf.get(standing.poolItemId)!;
    expect(
      await db.adjudication.findUniqueOrThrow({
        where: { poolItemId: standing.poolItemId },
        select: { grade: true, startSeconds: true },
      }),
    ).toEqual({ grade: ga, startSeconds: ga === 0 ? null : sa });
  });
});
