import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { makeAnswer } from "../helpers/answer-items.ts";
import { axeScan, describeViolations } from "../helpers/axe.ts";
import type { Db } from "../../lib/db/client.ts";
import { submitAnswerJudgement } from "../../lib/answers/submit.ts";
import { answerReferenceLabels } from "../../lib/answers/reference.ts";
import { saveGuidelines } from "../../lib/projects/guidelines.ts";
import { PASSWORDS, seedAnnotationFixture, type TFixture } from "../integration/annotate-fixture.ts";

/**
 * The answer task in the browser: an annotator labels an answer's claims and its
 * relevance with the keyboard only — s / p / x on the claims, k back to fix one, 2 plays context
 * chunk 2, the relevance key submits and moves on, also offline (the outbox sends it once back
 * online) — and the label is stored; on the next answer
 * m merges two claims (a new claim set) and the label goes on the merged claims. An adjudicator
 * decides an answer disagreement with the keyboard: b takes B's labels, k and x change a claim, 1
 * the relevance, Enter decides, and the reference label is the decision. Both pages show the
 * project's guidelines on g, and the label and the decision record the revision shown.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
let fx: TFixture;
let first: { id: string };
let second: { id: string };
let labelled: { id: string };
let disputed: { id: string };

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  fx = await seedAnnotationFixture(db);
  await saveGuidelines(db, fx.project.id, "Answers: a claim is s only when the context says it.\n", fx.lead.id);
  const chunks = await db.chunk.findMany({
    where: { videoId: fx.fileVideo.id },
    orderBy: { startSeconds: "asc" },
    select: { id: true },
  });
  first = await makeAnswer(db, fx.project.id, {
    system: "gen-a",
    queryId: fx.queries.q1.id,
    claims: ["Two lists are fused by rank.", "The scores are summed.", "It was invented in 2009."],
    context: [chunks[0].id, chunks[2].id],
  });
  second = await makeAnswer(db, fx.project.id, {
    system: "gen-b",
    queryId: fx.queries.q2.id,
    claims: ["Long documents are penalised.", "By their length."],
    context: [chunks[3].id],
  });
  // One the annotator labelled already, between the two in their order: going on skips it.
  labelled = await makeAnswer(db, fx.project.id, {
    system: "gen-b",
    queryId: fx.queries.q1.id,
    claims: ["Done before."],
    context: [chunks[1].id],
  });
  // The annotator's order: first, labelled, then second.
  await db.answerAssignment.createMany({
    data: [
      { answerId: first.id, userId: fx.ann.id, orderKey: 0.1 },
      { answerId: labelled.id, userId: fx.ann.id, orderKey: 0.15 },
      { answerId: second.id, userId: fx.ann.id, orderKey: 0.2 },
    ],
  });
  await submitAnswerJudgement(db, fx.ann.id, {
    answerId: labelled.id,
    claimVersion: 1,
    claimLabels: ["s"],
    relevance: 1,
    timeSpentMs: 51_214,
    idempotencyKey: "e2e-ann-labelled",
  });
  // Two other annotators disagree on a third answer (claim 2: s against n).
  disputed = await makeAnswer(db, fx.project.id, {
    system: "gen-a",
    queryId: fx.queries.q3.id,
    claims: ["Outsiders grade alone.", "They never meet."],
    context: [chunks[1].id],
  });
  await db.answerAssignment.createMany({
    data: [
      { answerId: disputed.id, userId: fx.other.id, orderKey: 0.3 },
      { answerId: disputed.id, userId: fx.outsider.id, orderKey: 0.3 },
    ],
  });
  await submitAnswerJudgement(db, fx.other.id, {
    answerId: disputed.id,
    claimVersion: 1,
    claimLabels: ["s", "s"],
    relevance: 2,
    idempotencyKey: "e2e-other-disputed",
  });
  await submitAnswerJudgement(db, fx.outsider.id, {
    answerId: disputed.id,
    claimVersion: 1,
    claimLabels: ["s", "n"],
    relevance: 2,
    idempotencyKey: "e2e-outsider-disputed",
  });
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const labels = (page: Page) =>
  page.locator("[data-testid=claim]").evaluateAll((els) => els.map((e) => e.getAttribute("data-label")));
const currentClaim = (page: Page) =>
  page
    .locator("[data-testid=claim]")
    .evaluateAll((els) => els.findIndex((e) => e.getAttribute("aria-current") === "true"));

async function stored(answerId: string) {
  for (let i = 0; i < 100; i++) {
    const j = await db.answerJudgement.findFirst({ where: { answerId, userId: fx.ann.id } });
    if (j) return j;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no label of ${answerId} stored`);
}

describe("the answer task", () => {
  it("labels claims and relevance with the keyboard only; the label is stored", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await loginAs(page, server.url, "ann@example.org", PASSWORDS.ann);
    await page.goto(`${server.url}/annotate`);
    const link = page.getByTestId("answers-link");
    await link.waitFor();
    expect(await link.textContent()).toBe("Answers (2)");
    await page.goto(`${server.url}/annotate/answers`);
    await page.locator(`[data-answer-id="${first.id}"][data-ready=true]`).waitFor();
    expect(await page.getByTestId("answer-question").textContent()).toBe("How are the results of two lists combined?");
    expect(await page.getByTestId("answer-position").textContent()).toContain("Answer 1 of 3");
    expect(await currentClaim(page)).toBe(0);
    const grave = (await axeScan(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(describeViolations(grave), "serious or critical axe violations on /annotate/answers").toBe("");

    // g shows the guidelines (the latest revision) beside the answer, and hides them again.
    await page.keyboard.press("g");
    const guide = page.getByTestId("guidelines-panel");
    expect(await guide.getByTestId("guidelines-text").textContent()).toContain(
      "a claim is s only when the context says it",
    );
    expect(await guide.textContent()).toContain("the answer answers it fully");
    await page.keyboard.press("g");
    await guide.waitFor({ state: "detached" });
    // 2 on a claim plays context chunk 2 (the file video's chunk at 30 s).
    await page.keyboard.press("2");
    await page.locator("[data-testid=context-chunk][aria-current=true]").filter({ hasText: "File chunk 2" }).waitFor();

    await page.keyboard.press("s");
    await page.keyboard.press("p");
    expect(await labels(page)).toEqual(["s", "p", ""]);
    expect(await currentClaim(page)).toBe(2);
    await page.keyboard.press("x");
    // After the last claim: the relevance step (no claim current). k goes back to claim 3 to change it.
    expect(await currentClaim(page)).toBe(-1);
    await page.keyboard.press("k");
    expect(await currentClaim(page)).toBe(2);
    await page.keyboard.press("n");
    expect(await labels(page)).toEqual(["s", "p", "n"]);
    // Offline: the relevance key still submits (into the outbox, kept in the browser) and moves on to the next UNFINISHED answer (the labelled one in between is skipped).
    await ctx.setOffline(true);
    await page.keyboard.press("2");
    await page.locator(`[data-answer-id="${second.id}"][data-ready=true]`).waitFor();
    await page.getByTestId("outbox").getByText("1 label waiting to be sent").waitFor();
    expect(await db.answerJudgement.count({ where: { answerId: first.id } })).toBe(0);
    // Back online, the outbox sends it.
    await ctx.setOffline(false);
    const j = await stored(first.id);
    expect({
      claimVersion: j.claimVersion,
      claimLabels: JSON.parse(j.claimLabels) as unknown,
      relevance: j.relevance,
    }).toEqual({ claimVersion: 1, claimLabels: ["s", "p", "n"], relevance: 2 });
    expect(j.guidelineRevision).toBe(1);
    await page.getByTestId("outbox").getByText("All labels saved.").waitFor();

    // m asks first (Esc cancels, nothing changes); m then Enter merges the two claims of the second answer into the annotator's own set.
    expect(await labels(page)).toEqual(["", ""]);
    await page.keyboard.press("m");
    await page.getByTestId("confirm-merge").waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("confirm-merge").waitFor({ state: "detached" });
    expect(await page.locator("[data-testid=claim]").count()).toBe(2);
    expect(await db.answerEvent.count({ where: { answerId: second.id, kind: "merge" } })).toBe(0);
    await page.keyboard.press("m");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=claim]").length === 1);
    // The counters agree with what is shown: the merged claim is unlabelled, and so says the claim count.
    expect(await labels(page)).toEqual([""]);
    expect(await page.getByTestId("claims-labelled").textContent()).toBe("0 of 1 claims labelled");
    expect(await page.locator("[data-testid=claim]").textContent()).toContain(
      "Long documents are penalised. By their length.",
    );
    await page.keyboard.press("s");
    await page.keyboard.press("3");
    // Nothing unfinished is left: the done message.
    await page.getByRole("heading", { name: "All your answers are labelled" }).waitFor();
    const k = await stored(second.id);
    const merge = await db.answerEvent.findFirstOrThrow({ where: { answerId: second.id, kind: "merge" } });
    expect({
      claimVersion: k.claimVersion,
      claimLabels: JSON.parse(k.claimLabels) as unknown,
      relevance: k.relevance,
    }).toEqual({
      claimVersion: (JSON.parse(merge.after) as { claimVersion: number }).claimVersion,
      claimLabels: ["s"],
      relevance: 3,
    });
    expect(
      (await db.answerEvent.findMany({ where: { answerId: second.id }, orderBy: { id: "asc" } })).map((e) => e.kind),
    ).toEqual(["merge", "judgement"]);
    // The merge is the annotator's own: the shared claim set did not move.
    expect((await db.answer.findUniqueOrThrow({ where: { id: second.id } })).claimVersion).toBe(1);

    // u goes back; the own label is shown again, the answer says it is finished and keys change nothing until e.
    await page.keyboard.press("u");
    await page.locator(`[data-answer-id="${second.id}"][data-ready=true]`).waitFor();
    expect(await labels(page)).toEqual(["s"]);
    expect(await page.getByTestId("relevance").getAttribute("data-value")).toBe("3");
    await page.getByTestId("finished-note").waitFor();
    await page.keyboard.press("k");
    await page.keyboard.press("n");
    expect(await labels(page)).toEqual(["s"]);
    await page.getByText("You labelled this answer: e (Edit) to change it").waitFor();
    // Enter only goes on: nothing is sent (time spent and relevance stay), the done message again.
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "All your answers are labelled" }).waitFor();
    const kept = await db.answerJudgement.findFirstOrThrow({ where: { answerId: second.id, userId: fx.ann.id } });
    expect([kept.relevance, kept.timeSpentMs, kept.idempotencyKey]).toEqual([
      k.relevance,
      k.timeSpentMs,
      k.idempotencyKey,
    ]);
    // e unlocks it: relevance 2 is an explicit edit, stored.
    await page.keyboard.press("u");
    await page.locator(`[data-answer-id="${second.id}"][data-ready=true]`).waitFor();
    await page.keyboard.press("e");
    await page.getByTestId("finished-note").getByText("Editing your label").waitFor();
    // j to the relevance step (k moved the cursor to the claim above), then 2.
    await page.keyboard.press("j");
    await page.keyboard.press("2");
    await page.getByRole("heading", { name: "All your answers are labelled" }).waitFor();
    for (
      let i = 0;
      i < 100 &&
      (await db.answerJudgement.findFirstOrThrow({ where: { answerId: second.id, userId: fx.ann.id } })).relevance !==
        2;
      i++
    )
      await new Promise((r) => setTimeout(r, 100));
    expect(
      (await db.answerJudgement.findFirstOrThrow({ where: { answerId: second.id, userId: fx.ann.id } })).relevance,
    ).toBe(2);
    // The one labelled before was never re-sent.
    expect(
      (await db.answerJudgement.findFirstOrThrow({ where: { answerId: labelled.id, userId: fx.ann.id } })).timeSpentMs,
    ).toBe(51_214);
    // A reload with everything labelled opens the done message, not answer 1.
    await page.reload();
    await page.getByRole("heading", { name: "All your answers are labelled" }).waitFor();
    expect(await page.locator("[data-answer-id]").count()).toBe(0);
    await ctx.close();
  });

  it("an adjudicator decides an answer disagreement with the keyboard; the decision is the reference label", async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await loginAs(page, server.url, "adj@example.org", PASSWORDS.adjudicator);
    await page.goto(`${server.url}/adjudicate`);
    const link = page.getByTestId("answer-disagreements-link");
    await link.waitFor();
    expect(await link.textContent()).toBe("Answers (1)");
    await page.goto(`${server.url}/adjudicate/answers`);
    await page.locator(`[data-answer-id="${disputed.id}"][data-ready=true]`).waitFor();
    const grave = (await axeScan(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
    expect(describeViolations(grave), "serious or critical axe violations on /adjudicate/answers").toBe("");
    const finals = () => page.getByTestId("final-label").allTextContents();
    await page.keyboard.press("g");
    await page
      .getByRole("dialog", { name: "Guidelines" })
      .getByText("a claim is s only when the context says it")
      .waitFor();
    await page.keyboard.press("Escape");
    await page.keyboard.press("b");
    expect(await finals()).toEqual(["s", "n"]);
    expect(await page.getByTestId("final-relevance").textContent()).toBe("2");
    await page.keyboard.press("k");
    await page.keyboard.press("x");
    await page.keyboard.press("1");
    expect(await finals()).toEqual(["s", "x"]);
    expect(await page.getByTestId("answer-disagreements-left").textContent()).toBe("1 answer disagreement to decide");
    // r writes the rationale (as on /adjudicate), Esc leaves it.
    await page.keyboard.press("r");
    await page.keyboard.type("the chunk says nothing of meetings");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "End of the answer disagreements" }).waitFor();
    const decision = await db.answerAdjudication.findUniqueOrThrow({ where: { answerId: disputed.id } });
    expect([JSON.parse(decision.claimLabels) as unknown, decision.relevance, decision.rationale]).toEqual([
      ["s", "x"],
      1,
      "the chunk says nothing of meetings",
    ]);
    expect(decision.guidelineRevision).toBe(1);
    // The counts are fresh after the decision: here, and on /adjudicate reached by its link (client navigation, no reload).
    expect(await page.getByTestId("answer-disagreements-left").textContent()).toBe("0 answer disagreements to decide");
    await page.getByRole("link", { name: "Chunk disagreements" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/adjudicate\?project=/);
    await page.waitForFunction(
      () => document.querySelector("[data-testid=answer-disagreements-link]")?.textContent === "Answers (0)",
    );
    const row = (await answerReferenceLabels(db, fx.project.id)).find((r) => r.answerId === disputed.id);
    expect(row).toMatchObject({
      status: "adjudicated",
      relevance: 1,
      claims: [
        { text: "Outsiders grade alone.", label: "s" },
        { text: "They never meet.", label: "x" },
      ],
    });
    await ctx.close();
  });
});
