import { randomUUID } from "node:crypto";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import type { Db } from "../../lib/db/client.ts";
import { PASSWORDS, type TFixture } from "../integration/annotate-fixture.ts";

/**
 * Guideline revisions through the served app: the lead saves the guidelines twice on the project
 * page and sees the diff between the two revisions; the routes list revisions with their author and
 * diff two (bad numbers refused, lead only); the annotator's item names the revision it shows and a
 * grade records the one sent. Build first: NEXT_DIST_DIR=.next-x npx next build.
 */
useTestDatabase();
let db: Db;
let fx: TFixture;
let browser: Browser;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  const { seedAnnotationFixture } = await import("../integration/annotate-fixture.ts");
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

describe("guideline revisions", () => {
  it("the lead saves the guidelines twice and sees what changed", async () => {
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await loginAs(page, server.url, "lead@example.org", PASSWORDS.lead);
    await page.goto(`${server.url}/lead/projects/${fx.project.id}`);
    const field = page.getByLabel("Guidelines (Markdown)");
    await field.fill("Grade 3: exact evidence\nGrade 2: partial\n");
    await page.getByRole("button", { name: "Save guidelines" }).click();
    const revisions = page.getByTestId("guideline-revisions");
    await revisions.getByText(/^Revision 1: .*Lena Lead/).waitFor();
    await field.fill("Grade 3: exact evidence\nGrade 2: most of the answer\nGrade 1: on topic\n");
    await page.getByRole("button", { name: "Save guidelines" }).click();
    await revisions.getByText(/^Revision 2: .*Lena Lead/).waitFor();
    // The diff of the last two revisions, shown by default: one line replaced, one added.
    await expect.poll(() => revisions.getByTestId("diff-summary").textContent()).toBe("2 line(s) added, 1 removed");
    const diff = revisions.getByTestId("guidelines-diff");
    expect(await diff.locator("del").innerText()).toBe("- Grade 2: partial");
    expect(await diff.locator("ins").innerText()).toBe("+ Grade 2: most of the answer\n+ Grade 1: on topic");
    expect(await revisions.getByTestId("older-guidelines").textContent()).toContain("Revision 2.");
    // Another pair: from the empty text before the first save.
    await revisions.getByLabel("Compare revision").selectOption("0");
    await expect.poll(() => revisions.getByTestId("diff-summary").textContent()).toBe("3 line(s) added, 0 removed");
    const rows = await db.guidelineRevision.findMany({
      where: { projectId: fx.project.id },
      orderBy: { revision: "asc" },
    });
    expect(rows.map((r) => [r.revision, r.authorId])).toEqual([
      [1, fx.lead.id],
      [2, fx.lead.id],
    ]);
    await ctx.close();
  });

  it("routes: revisions and diff for the lead only; the annotator's grade records the revision shown", async () => {
    const lead = await server.client("lead@example.org", PASSWORDS.lead);
    const base = `/api/lead/projects/${fx.project.id}/guidelines`;
    const list = await lead.getJson<{ revisions: { revision: number; author: { name: string } | null }[] }>(base);
    expect(list.status).toBe(200);
    expect(list.body.revisions.map((r) => [r.revision, r.author?.name])).toEqual([
      [2, "Lena Lead"],
      [1, "Lena Lead"],
    ]);
    const diff = await lead.getJson<{ added: number; removed: number }>(`${base}/diff?from=1&to=2`);
    expect([diff.status, diff.body.added, diff.body.removed]).toEqual([200, 2, 1]);
    expect((await lead.getJson(`${base}/diff?from=one&to=2`)).status).toBe(422);
    expect((await lead.getJson(`${base}/diff?from=1&to=7`)).status).toBe(404);
    const ann = await server.client("ann@example.org", PASSWORDS.ann);
    expect((await ann.getJson(`${base}/diff?from=1&to=2`)).status).toBe(403);

    const [item] = fx.items;
    const shown = await ann.getJson<{ guidelineRevision: number; regrade: boolean }>(`/api/annotate/items/${item.id}`);
    expect([shown.status, shown.body.guidelineRevision, shown.body.regrade]).toEqual([200, 2, false]);
    const body = { poolItemId: item.id, grade: 2, startSeconds: null };
    const refused = await ann.sendJson("/api/annotate/judgements", {
      ...body,
      guidelineRevision: 5,
      idempotencyKey: randomUUID(),
    });
    expect(refused.status).toBe(422);
    // Revision 1: the page was opened before the second save (what was shown is what counts).
    const ok = await ann.sendJson("/api/annotate/judgements", {
      ...body,
      guidelineRevision: 1,
      idempotencyKey: randomUUID(),
    });
    expect(ok.status).toBe(200);
    const stored = await db.judgement.findUniqueOrThrow({
      where: { poolItemId_userId: { poolItemId: item.id, userId: fx.ann.id } },
    });
    expect(stored.guidelineRevision).toBe(1);
  });
});
