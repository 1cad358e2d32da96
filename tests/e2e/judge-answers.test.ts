import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { launchBrowser } from "../helpers/server.ts";
import { loginAs } from "../helpers/login.ts";
import { startFakeLlm, type TFakeLlm } from "../helpers/fake-llm.ts";
import { seedAnswerProject } from "../helpers/answers-fixture.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";

/**
 * The lead's Judge section on generated answers in Chromium: the target choice
 * switches the subset field, the template and its placeholders; the preview shows an answer's
 * numbered claims; a run on one system's answers reaches 100% and writes answer labels. The model
 * is the fake OpenAI-compatible server answering `{"claims": [...], "relevance": N}`.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
let page: Page;
let fake: TFakeLlm;
let projectId: number;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: "lead-password" });
  const seeded = await seedAnswerProject(db, { name: "Answered", queries: 3 });
  projectId = seeded.project.id;
  fake = await startFakeLlm({
    models: ["fake-judge"],
    script: (req) => {
      const n = Number(/<claims count="(\d+)">/.exec(req.prompt)?.[1] ?? "0");
      return {
        kind: "answer",
        text: JSON.stringify({ claims: Array.from({ length: n }, (_, i) => ["s", "p", "n"][i % 3]), relevance: 2 }),
      };
    },
  });
});
const server = useTestServer({ env: { E2E_JUDGE_API_KEY: "sk-e2e-secret" } });
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
  await loginAs(page, server.url, "lead@example.org", "lead-password");
  await page.goto(`${server.url}/lead/projects/${projectId}`);
  await page.getByRole("heading", { name: "LLM judge" }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await fake?.close();
});

describe("lead: the LLM judge on generated answers", () => {
  it("the target choice switches subset and template; preview shows the claims; a run labels one system's answers", async () => {
    const form = page.getByRole("form", { name: "New judge run" });
    // Keyboard, as a person picks a radio button.
    await form.getByLabel(/Question–chunk pairs/).focus();
    await page.keyboard.press("ArrowRight");
    expect(await form.getByLabel(/Generated answers/).isChecked()).toBe(true);
    expect(await form.getByLabel("Answers", { exact: true }).inputValue()).toBe("all");
    expect(await form.getByRole("button", { name: /Try on/ }).count()).toBe(0);
    await form.getByRole("button", { name: "Edit the prompt template" }).click();
    expect(await form.getByLabel("Template").inputValue()).toContain("{{claims}}");

    await form.getByRole("button", { name: "Preview prompt" }).click();
    const preview = page.getByTestId("judge-preview");
    await preview.waitFor();
    expect(await preview.textContent()).toMatch(/1\. Claim 1 on question 0: fact number 0\./);
    expect(await preview.textContent()).toMatch(/\[1\] (Ranking talk|Fusion lecture) \(/);

    await form.getByLabel("Judge name").fill("web-answers");
    await form.getByLabel("Model").fill("fake-judge");
    await form.getByLabel("Base URL").fill(fake.url);
    await form.getByLabel("API key variable").fill("E2E_JUDGE_API_KEY");
    await form.getByLabel("Answers", { exact: true }).fill("system:gen-b");
    await form.getByRole("button", { name: "Start run" }).click();
    await page.getByText(/Run \d+ \(web-answers\) started on 3 task/).waitFor({ timeout: 20_000 });
    const row = page.locator('[data-judge-run="web-answers"]');
    await expect
      .poll(async () => row.locator("[data-status]").getAttribute("data-status"), { timeout: 30_000 })
      .toBe("completed");
    expect(await row.textContent()).toMatch(/answers: system:gen-b/);
    expect(await row.locator("[data-progress]").textContent()).toContain("3/3 (100%)");
    const labels = await db.answerJudgeLabel.findMany({
      where: { projectId, judge: "web-answers" },
      include: { answer: true },
    });
    expect(labels.map((l) => [l.answer.system, l.claimLabels, l.relevance])).toEqual(
      Array.from({ length: 3 }, () => ["gen-b", '["s","p","n"]', 2]),
    );
  });

  it("a subset that is not one of answers is refused in the page's words; nothing is written", async () => {
    const cookie = await server.cookie("lead@example.org", "lead-password");
    const r = await fetch(`${server.url}/api/lead/projects/${projectId}/judge`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json", origin: server.url },
      body: JSON.stringify({
        judge: "bad",
        target: "answers",
        only: "pool",
        model: "fake-judge",
        baseUrl: fake.url,
        apiKeyEnv: "E2E_JUDGE_API_KEY",
      }),
    });
    expect(r.status).toBe(422);
    const body = await r.text();
    expect(body).toContain('the “Answers” field: \\"pool\\" is not a subset of answers');
    expect(await db.judgeRun.count({ where: { judge: "bad" } })).toBe(0);
  });
});
