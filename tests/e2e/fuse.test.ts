import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import type { TErrorBody } from "../../lib/http/route.ts";
import { importRun } from "../../lib/imports/run.ts";
import { createUser } from "../../lib/users/users.ts";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { makeChunks, makeProject, makeQueries } from "../helpers/factories.ts";
import { loginAs } from "../helpers/login.ts";
import { artifactsDir, launchBrowser } from "../helpers/server.ts";

/**
 * The lead fuses two runs on the project page (lib/runs/fuse.ts behind it; the fused values are
 * checked against `assessor fuse` in tests/integration/fuse-stored.test.ts): the new run is
 * reported, stored, and offered by the pool panel; a name already used is refused.
 * Build first: npx next build.
 */
useTestDatabase();
let db: Db;
let browser: Browser;
let page: Page;
let projectId: number;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: "lead-password" });
  await createUser(db, { email: "ann@example.org", name: "Ann", role: "annotator", password: "ann-password" });
  projectId = (await makeProject(db, { name: "Fusion" })).id;
  await makeChunks(db, projectId, ["c1", "c2", "c3", "c4"]);
  await makeQueries(db, projectId, ["q1", "q2"]);
  await importRun(
    db,
    projectId,
    { name: "a.run", bytes: Buffer.from("q1 Q0 c1 1 0.9 A\nq1 Q0 c2 2 0.8 A\nq2 Q0 c3 1 0.7 A\n") },
    { system: "A" },
  );
  await importRun(
    db,
    projectId,
    { name: "b.run", bytes: Buffer.from("q1 Q0 c3 1 0.95 B\nq1 Q0 c1 2 0.5 B\nq2 Q0 c4 1 0.9 B\n") },
    { system: "B" },
  );
});
const server = useTestServer();
beforeAll(async () => {
  browser = await launchBrowser();
  page = await (await browser.newContext()).newPage();
  await loginAs(page, server.url, "lead@example.org", "lead-password");
  await page.getByRole("link", { name: "Fusion" }).click();
  await page.getByRole("heading", { name: "Fusion", level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
});

describe("lead: fuse runs", () => {
  it("fuses two runs with rrf; the new run is stored and offered for pooling", async () => {
    const panel = page.getByRole("region", { name: "Fuse runs" });
    await panel.getByLabel("New system name").fill("hybrid");
    await panel.getByRole("checkbox", { name: "A" }).check();
    await panel.getByRole("checkbox", { name: "B" }).check();
    await panel.getByLabel("Method").selectOption("rrf");
    await panel.getByLabel("k", { exact: true }).fill("60");
    await panel.getByRole("button", { name: "Fuse runs" }).click();
    const status = panel.getByRole("status");
    await status.waitFor();
    // q1: c1 (A1, B2), c3 (B1), c2 (A2); q2: c3 (A1), c4 (B1): 2 queries, 5 lines.
    expect(await status.textContent()).toBe("Fused run “hybrid”: 2 queries, 5 lines (rrf k=60 of A, B).");
    const run = await db.run.findUniqueOrThrow({ where: { projectId_system: { projectId, system: "hybrid" } } });
    expect(run.description).toBe("rrf k=60 of A, B");
    expect(await db.runEntry.count({ where: { runId: run.id } })).toBe(5);

    // The pool panel lists the new run among the runs it can pool.
    const pool = page.getByRole("region", { name: "Build pool" });
    await pool.getByRole("checkbox", { name: "All runs" }).uncheck();
    await pool.getByRole("checkbox", { name: "hybrid" }).waitFor();
    // And the fuse form offers it too.
    await panel.getByRole("checkbox", { name: "hybrid" }).waitFor();

    mkdirSync(artifactsDir, { recursive: true });
    await page.screenshot({ path: join(artifactsDir, "lead-fuse.png"), fullPage: true });
  });

  it("refuses a name already used and a wsum with the wrong number of weights, writing nothing", async () => {
    const runs = await db.run.count();
    const panel = page.getByRole("region", { name: "Fuse runs" });
    await panel.getByLabel("New system name").fill("A");
    await panel.getByRole("button", { name: "Fuse runs" }).click();
    await expect.poll(() => panel.getByRole("alert").textContent()).toContain('a run named "A" already exists');

    await panel.getByLabel("New system name").fill("weighted");
    await panel.getByLabel("Method").selectOption("wsum");
    await panel.getByLabel("Weights").fill("0.7, 0.2, 0.1");
    await panel.getByRole("button", { name: "Fuse runs" }).click();
    await expect.poll(() => panel.getByRole("alert").textContent()).toContain("weights: 2 runs need 2 weights, got 3");
    expect(await db.run.count()).toBe(runs);
  });

  it("the route: lead only, 422 for a bad body, 404 naming the known runs", async () => {
    const post = async (email: string, password: string, body: unknown) =>
      fetch(`${server.url}/api/lead/projects/${projectId}/fuse`, {
        method: "POST",
        headers: { Cookie: await server.cookie(email, password), "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const runs = await db.run.count();
    expect(
      (await post("ann@example.org", "ann-password", { system: "x", runs: ["A", "B"], method: "rrf" })).status,
    ).toBe(403);
    expect(
      (await post("lead@example.org", "lead-password", { system: "x", runs: ["A", "B"], method: "borda" })).status,
    ).toBe(422);
    const unknown = await post("lead@example.org", "lead-password", { system: "x", runs: ["A", "C"], method: "rrf" });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as TErrorBody).error.message).toBe(
      "unknown run: C; runs in this project: A, B, hybrid",
    );
    expect(await db.run.count()).toBe(runs);
  });
});
