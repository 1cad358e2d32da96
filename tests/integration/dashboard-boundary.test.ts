import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { createTestDatabase, type TestDb } from "../helpers/db.ts";
import { makeRun } from "../helpers/factories.ts";
import { makeGenerationProject } from "../helpers/generation-project.ts";

/**
 * The dashboard's boundary (lib/dashboard/load/view.ts): everything a panel needs is loaded
 * first; the panels then compute from what was loaded, with the database out of reach, and give
 * what the route serves. A read writes nothing: a run without its packed ranking is read from its
 * entries and gets its row from the prepare step only (lib/dashboard/rankings.ts).
 */
let tdb: TestDb;
let db: Db;
let projectId: number;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  projectId = (await makeGenerationProject(db, "boundary")).project.id;
  const ids = {
    queries: new Map((await db.query.findMany({ where: { projectId } })).map((x) => [x.externalId, x])),
    chunks: new Map((await db.chunk.findMany({ where: { projectId } })).map((x) => [x.externalId, x])),
  };
  await makeRun(
    db,
    projectId,
    "bm25",
    [
      ["q1", "a", 3],
      ["q1", "b", 2],
      ["q2", "c", 1],
      ["q3", "a", 1],
    ],
    ids,
  );
});

afterAll(async () => {
  await tdb?.cleanup();
});

describe("the dashboard boundary", () => {
  it("every panel computes from the loaded view with the database out of reach, as served", async () => {
    const { PANEL_COMPUTE } = await import("../../lib/dashboard/panels.ts");
    const { servePanel } = await import("../../lib/dashboard/serve.ts");
    const { loadView } = await import("../../lib/dashboard/load/view.ts");
    const { ZDashboardQuery } = await import("../../lib/dashboard/options.ts");
    const { closeReadSql } = await import("../../lib/db/read.ts");
    const q = ZDashboardQuery.parse({});
    const names = Object.keys(PANEL_COMPUTE) as (keyof typeof PANEL_COMPUTE)[];
    const served = new Map<string, unknown>();
    for (const name of names) served.set(name, await servePanel(db, String(projectId), name, q));
    const view = await loadView(db, projectId, { rankings: true, generation: true, retest: true, trust: true });
    expect(view.rankings.size).toBe(1);
    expect(view.generation?.answers.length).toBeGreaterThan(0);

    // The database out of reach: no read connection, and a URL that leads nowhere.
    closeReadSql();
    const url = process.env.DATABASE_URL;
    process.env.DATABASE_URL =
      tdb.provider === "sqlite" ? "file:/nonexistent/boundary/none.db" : "postgresql://nobody@127.0.0.1:9/none";
    try {
      for (const name of names) {
        const compute = PANEL_COMPUTE[name].compute as (v: typeof view, o: typeof q) => unknown;
        expect(compute(view, q), name).toEqual(served.get(name));
      }
    } finally {
      process.env.DATABASE_URL = url;
    }
  });

  it("a read writes nothing: the run's packed ranking comes from the prepare step", async () => {
    const { clearDashboardCache } = await import("../../lib/dashboard/data.ts");
    const { getSystems } = await import("../../lib/dashboard/panels.ts");
    const { packMissingRankings } = await import("../../lib/dashboard/rankings.ts");
    clearDashboardCache();
    const fromEntries = await getSystems(db, projectId, { source: "human", gain: "exponential" });
    expect(fromEntries.tables[0].rows.length).toBe(1);
    expect(await db.runRanking.count()).toBe(0);
    const run = await db.run.findFirstOrThrow({ where: { projectId } });
    expect(await packMissingRankings(db, projectId)).toEqual([run.id]);
    expect(await db.runRanking.count()).toBe(1);
    expect(await packMissingRankings(db, projectId)).toEqual([]);
    clearDashboardCache();
    expect(await getSystems(db, projectId, { source: "human", gain: "exponential" })).toEqual(fromEntries);
  });

  it("only the load modules and the entry points reach the database: panel modules import neither a client nor the SQL runner", () => {
    const root = join(import.meta.dirname, "..", "..", "lib", "dashboard");
    // The load, the entry points that call it, and the runner itself.
    const allowed = /^(load\/|data\.ts$|panels\.ts$|serve\.ts$|warm\.ts$|routes\.ts$|rankings\.ts$|sql\.ts$)/;
    const reaching =
      /import\s+(?!type\b)[^;]*from\s+"[./]*(db\/client|db\/sql|sql)\.ts"|\bgetDb\(|\$queryRaw|import\s+(?!type\b)[^;]*from\s+"[./]*load\/(?!cache)[a-z-]+\.ts"/;
    const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(20);
    const offending = files
      .map((f) => relative(root, join(root, f)))
      .filter((f) => !allowed.test(f) && reaching.test(readFileSync(join(root, f), "utf8")));
    expect(offending).toEqual([]);
  });
});
