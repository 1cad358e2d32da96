import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { makeUser, TEST_PASSWORD } from "../helpers/factories.ts";
import { makeGenerationProject } from "../helpers/generation-project.ts";
import { loginAs } from "../helpers/login.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";

/**
 * The lead sees the dashboard's Generation section on the hand-made project of
 * tests/helpers/generation-project.ts (values derived in tests/integration/generation-panel.test.ts):
 * per system faithfulness, the judge vs people figures beside RAGAS's, the attribution tables and
 * the scatter; changing the baseline moves the paired tests. Keeps a screenshot
 * (test-results/generation.png).
 * Build first: NEXT_DIST_DIR=.next-gen npx next build; run with the same NEXT_DIST_DIR.
 */
useTestDatabase();
let browser: Browser;
let page: Page;
let projectId: number;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  const db = await getDb();
  projectId = (await makeGenerationProject(db)).project.id;
  await makeUser(db, { email: "lead@gen.example", role: "lead" });
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
});

afterAll(async () => {
  await browser?.close();
});

const section = () => page.locator('[data-panel="generation"]');

describe("the Generation section", () => {
  it("shows per system faithfulness and relevance with intervals, on people's and the judge's labels", async () => {
    await loginAs(page, server.url, "lead@gen.example", TEST_PASSWORD);
    await page.goto(`${server.url}/dashboard?project=${projectId}`);
    await section().getByRole("heading", { name: "Generation" }).waitFor();
    const human = section().getByTestId("generation-table-human");
    await human.waitFor();
    // sysA: (5/6 + 0 + 1)/3 = 0.611; sysB: (0.25 + 0.75)/2 = 0.500, 2 labelled answers with claims.
    const faith = human.locator('[data-col="faithfulness"] [data-value]');
    await expect.poll(() => faith.allTextContents()).toEqual(["0.611", "0.500"]);
    await expect
      .poll(() => human.locator('[data-col="relevance"] [data-value]').allTextContents())
      .toEqual(["2.00", "1.67"]);
    expect(await human.locator('[data-col="faithfulness"]').nth(1).textContent()).toMatch(/n=2.*Δ \+0\.083, p=1\.000/);
    await section().getByTestId("generation-table-judge").waitFor();
  });

  it("compares the judge with people on claims and faithfulness, beside RAGAS's published figures", async () => {
    // κ (linear) = 31/46 = 0.674; raw agreement 6/10; MAD 2/15 = 0.133; ρ = 0.821.
    expect(await section().getByTestId("claims-kappa").textContent()).toBe("0.674");
    expect(await section().getByTestId("claims-agreement").textContent()).toBe("60%");
    expect(await section().getByTestId("faithfulness-mad").textContent()).toBe("0.133");
    expect(await section().getByTestId("faithfulness-rho").textContent()).toBe("0.821");
    const ragas = section().getByTestId("generation-ragas");
    expect(await ragas.textContent()).toContain("RAGAS (Es et al., 2023), as quoted in the evaluation plan");
    expect(await ragas.locator("tbody tr").first().locator("td").allTextContents()).toEqual(["95%", "60%"]);
  });

  it("shows the attribution tables with counts and example questions, and the scatter", async () => {
    const at1 = section().getByTestId("attribution-1");
    expect(await at1.locator('[data-cell="retrieval_failed"] [data-count]').textContent()).toBe("1");
    expect(await at1.locator('[data-cell="generator_failed"]').textContent()).toContain("e.g. q1");
    expect(await at1.locator('[data-cell="fine"] [data-count]').textContent()).toBe("2");
    expect(
      await section()
        .getByTestId("attribution-2")
        .locator('[data-cell="good_without_evidence"] [data-count]')
        .textContent(),
    ).toBe("2");
    await section().getByTestId("generation-scatter").locator("svg").first().waitFor();
    mkdirSync(artifactsDir, { recursive: true });
    await section().screenshot({ path: join(artifactsDir, "generation.png") });
  });

  it("moves the paired tests to another baseline", async () => {
    await section().getByLabel("Baseline system").selectOption("sysB");
    const human = section().getByTestId("generation-table-human");
    await expect.poll(() => human.locator('[data-col="faithfulness"]').first().textContent()).toMatch(/Δ -0\.083/);
  });
});
