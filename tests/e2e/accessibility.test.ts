import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { stubYouTube } from "../helpers/youtube.ts";
import { axeScan, describeViolations, impactCounts, IMPACTS } from "../helpers/axe.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { PASSWORDS } from "../integration/annotate-fixture.ts";

/**
 * axe-core on every page: each role signs in through the login page and opens
 * its pages with content shown (an item to grade, a disagreement, labels beside a judge on the
 * dashboard, a draft question to review); each page has exactly one `main` landmark and no
 * serious or critical axe violation. The counts per page are printed at the end.
 * Build first: NEXT_DIST_DIR=.next-a11y npx next build; run with the same NEXT_DIST_DIR.
 */
const project = useAnnotatorProject(async (db, fx) => {
  // One disagreement for the adjudicator; two agreed items on chunks the judge graded, so the
  // dashboard shows human labels beside the judge's (confusion cells, intervals).
  await submitJudgement(db, fx.ann.id, {
    poolItemId: fx.items[0].id,
    grade: 1,
    startSeconds: 10,
    notes: "mentions it only",
    flags: [],
    timeSpentMs: 1,
    idempotencyKey: "a11y-ann-0",
  });
  await submitJudgement(db, fx.other.id, {
    poolItemId: fx.items[0].id,
    grade: 3,
    startSeconds: 20,
    notes: "exact answer",
    flags: ["unsure"],
    timeSpentMs: 1,
    idempotencyKey: "a11y-oth-0",
  });
  const judged = new Set((await db.judgeLabel.findMany({ select: { chunkId: true } })).map((j) => j.chunkId));
  const agreed = fx.items.filter((i) => i.id !== fx.items[0].id && judged.has(i.chunkId)).slice(0, 2);
  for (const [n, item] of agreed.entries()) {
    for (const user of [fx.ann, fx.other]) {
      await submitJudgement(db, user.id, {
        poolItemId: item.id,
        grade: 2 * n,
        startSeconds: null,
        notes: "",
        flags: [],
        timeSpentMs: 1,
        idempotencyKey: `a11y-${user.id}-${item.id}`,
      });
    }
  }
  // A draft question with its place, for the lead's review page.
  await db.query.create({
    data: {
      projectId: fx.project.id,
      externalId: "w1",
      text: "Where is fusion explained?",
      status: "draft",
      authorId: fx.lead.id,
      places: { create: [{ videoId: fx.fileVideo.id, startSeconds: 12 }] },
    },
  });
});
let browser: Browser;
const counts: Record<string, { n: ReturnType<typeof impactCounts>; ids: string[] }> = {};

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  console.log(
    [
      "axe violations (nodes) per page: critical/serious/moderate/minor",
      ...Object.entries(counts).map(([p, c]) => `  ${p}: ${IMPACTS.map((i) => c.n[i]).join("/")} ${c.ids.join(", ")}`),
    ].join("\n"),
  );
  await browser?.close();
});

async function context(): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await stubYouTube(ctx, project.server.url);
  return { ctx, page: await ctx.newPage() };
}

/** Scans the page as shown once `ready` is visible: one main landmark, nothing serious or critical. */
async function check(page: Page, name: string, ready: Locator) {
  await ready.first().waitFor();
  await page.waitForLoadState("networkidle");
  const violations = await axeScan(page);
  counts[name] = { n: impactCounts(violations), ids: violations.map((v) => `${v.id} (${v.impact ?? "?"})`) };
  const grave = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect.soft(describeViolations(grave), `${name}: serious or critical axe violations`).toBe("");
  expect.soft(await page.getByRole("main").count(), `${name}: main landmarks`).toBe(1);
}

async function visit(email: string, password: string, pages: [path: string, ready: (p: Page) => Locator][]) {
  const { ctx, page } = await context();
  try {
    await loginAs(page, project.server.url, email, password);
    for (const [path, ready] of pages) {
      await page.goto(`${project.server.url}${path}`);
      await check(page, path, ready(page));
    }
  } finally {
    await ctx.close();
  }
}

describe("accessibility (axe-core) of every page", () => {
  it("login", async () => {
    const { ctx, page } = await context();
    try {
      await page.goto(`${project.server.url}/login`);
      await check(page, "/login", page.locator("button[type=submit]:enabled"));
    } finally {
      await ctx.close();
    }
  });

  it("annotator: an item to grade", async () => {
    await visit("ann@example.org", PASSWORDS.ann, [["/annotate", (p) => p.locator("article[data-ready=true]")]]);
  });

  it("adjudicator: a disagreement", async () => {
    await visit("adj@example.org", PASSWORDS.adjudicator, [
      ["/adjudicate", (p) => p.locator(`article[data-item-id="${project.fx.items[0].id}"]`)],
    ]);
  });

  it("lead: projects, project, users, questions, write, dashboard", async () => {
    const id = project.fx.project.id;
    await visit("lead@example.org", PASSWORDS.lead, [
      ["/lead", (p) => p.getByRole("link", { name: "Blind project" })],
      [`/lead/projects/${id}`, (p) => p.getByRole("heading", { name: "Blind project", level: 1 })],
      ["/lead/users", (p) => p.getByRole("button", { name: "Deactivate ann@example.org" })],
      [`/lead/projects/${id}/questions`, (p) => p.getByTestId("review-w1")],
      ["/write", (p) => p.getByTestId("write-video")],
      ["/dashboard", (p) => p.getByTestId("confusion")],
    ]);
  });
});
