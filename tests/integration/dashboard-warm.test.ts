import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeJudgeLabels, makeProject, makeQueries, makeRun } from "../helpers/factories.ts";

/**
 * The warm-up a server runs at start (instrumentation.ts → lib/dashboard/warm.ts): the most
 * recently active projects' dashboards for the page's default view are computed into the caches
 * the route handlers read, and nothing else.
 */
useTestDatabase();
let db: Db;
const ids: Record<"old" | "labelled" | "newest", number> = { old: 0, labelled: 0, newest: 0 };

async function smallProject(name: string) {
  const p = await makeProject(db, { name });
  const chunks = await makeChunks(db, p.id, ["a", "b"]);
  const queries = await makeQueries(db, p.id, ["q1"]);
  await makeRun(
    db,
    p.id,
    "sysA",
    [
      ["q1", "a", 2],
      ["q1", "b", 1],
    ],
    { queries, chunks },
  );
  await makeJudgeLabels(db, p.id, "j1", [{ queryId: queries.get("q1")!.id, chunkId: chunks.get("a")!.id, grade: 2 }]);
  await db.referenceLabel.create({
    data: { projectId: p.id, source: "gold", queryId: queries.get("q1")!.id, chunkId: chunks.get("a")!.id, grade: 3 },
  });
  return p.id;
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  ids.old = await smallProject("old");
  ids.labelled = await smallProject("labelled");
  ids.newest = await smallProject("newest");
  // "labelled" was created before "newest" but has the latest label event.
  await db.labelEvent.create({
    data: { projectId: ids.labelled, kind: "judgement", after: "{}", createdAt: new Date(Date.now() + 60_000) },
  });
});

describe("dashboard warm-up at server start", () => {
  it("computes the default view of the most recently active projects, latest first", async () => {
    const { clearDashboardCache } = await import("../../lib/dashboard/data.ts");
    const { warmDashboards } = await import("../../lib/dashboard/warm.ts");
    const { panel } = await import("../../lib/dashboard/panels.ts");
    clearDashboardCache();
    expect(await warmDashboards(db, 2)).toEqual([ids.labelled, ids.newest]);
    const again = () => {
      throw new Error("computed again");
    };
    // Served from the cache the route handlers use (the page's default view: human labels, exponential gain).
    for (const id of [ids.labelled, ids.newest]) {
      await expect(panel(db, id, "meta", [], again)).resolves.toMatchObject({ project: { id } });
      await expect(
        panel(db, id, "systems", ["human", undefined, undefined, undefined, "exponential"], again),
      ).resolves.toMatchObject({ tables: [{ source: "human" }] });
    }
    // The third project was left for its first request.
    await expect(panel(db, ids.old, "meta", [], again)).rejects.toThrow("computed again");
  });
});
