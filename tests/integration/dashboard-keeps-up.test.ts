import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeJudgeLabels, makeProject, makeQueries, makeRun, makeUser } from "../helpers/factories.ts";

/**
 * The dashboard keeps up and shows the query log's slice, on
 * the data functions the routes serve (lib/dashboard/panels.ts; the `version` panel is
 * labelSetVersion).
 */
useTestDatabase();
let db: Db;
let dir: string;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  dir = mkdtempSync(join(tmpdir(), "assessor-dash-keeps-up-"));
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

const view = { source: "human" as const, gain: "exponential" as const };

/** The panels by name, as lib/dashboard/routes.ts serves them (that module is server-only: not importable here). */
async function panels() {
  const p = await import("../../lib/dashboard/panels.ts");
  const { labelSetVersion } = await import("../../lib/dashboard/data.ts");
  type TQ = typeof view & { tag?: string };
  const by: Record<string, (db: Db, id: number, q: TQ) => Promise<unknown>> = {
    meta: (d, id) => p.getMeta(d, id),
    calibration: p.getCalibration,
    systems: p.getSystems,
    version: async (d, id) => ({ version: await labelSetVersion(d, id) }),
  };
  return { servePanel: (d: Db, id: string, name: string, q: TQ) => by[name](d, Number(id), q) };
}

async function judgeRun(projectId: number, judge: string, status: string, finishedAt: Date | null) {
  return db.judgeRun.create({
    data: {
      projectId,
      judge,
      model: "m",
      baseUrl: "http://127.0.0.1:9/v1",
      apiKeyEnv: "",
      template: "t",
      templateSha256: "0".repeat(64),
      params: "{}",
      subset: "pool",
      status,
      startedAt: new Date(Date.UTC(2026, 0, 1)),
      finishedAt,
    },
  });
}

describe("default judge: the most recent complete one", () => {
  /**
   * Pool: 4 items (q1/a, q1/b, q2/a, q2/b). Judges, names sorted:
   *   a-partial  imported file, labels on q1/a and q1/b only → 2 of 4 = 50%: partial
   *   b-old      run completed 2026-01-02, all 4 items
   *   c-new      run completed 2026-01-03, all 4 items          → the default
   *   d-running  run still running, all 4 items so far           → partial (its run is not completed)
   * The first alphabetically (the old default) would be a-partial.
   */
  let projectId: number;
  beforeAll(async () => {
    const p = await makeProject(db, { name: "judges" });
    projectId = p.id;
    const chunks = await makeChunks(db, p.id, ["a", "b"]);
    const queries = await makeQueries(db, p.id, ["q1", "q2"]);
    const pairs = [
      ["q1", "a"],
      ["q1", "b"],
      ["q2", "a"],
      ["q2", "b"],
    ].map(([q, c]) => ({ queryId: queries.get(q)!.id, chunkId: chunks.get(c)!.id }));
    await db.poolItem.createMany({ data: pairs.map((x) => ({ projectId, ...x })) });
    await makeJudgeLabels(
      db,
      projectId,
      "a-partial",
      pairs.slice(0, 2).map((x) => ({ ...x, grade: 1 })),
    );
    for (const name of ["b-old", "c-new", "d-running"])
      await makeJudgeLabels(
        db,
        projectId,
        name,
        pairs.map((x) => ({ ...x, grade: 2 })),
      );
    await judgeRun(projectId, "b-old", "completed", new Date(Date.UTC(2026, 0, 2)));
    await judgeRun(projectId, "c-new", "completed", new Date(Date.UTC(2026, 0, 3)));
    await judgeRun(projectId, "d-running", "running", null);
  });

  it("meta marks the partial judges with their coverage and names the default; the panels use it", async () => {
    const { servePanel } = await panels();
    const meta = (await servePanel(db, String(projectId), "meta", view)) as import("../../lib/dashboard/meta.ts").TMeta;
    expect(meta.judges.map((j) => [j.name, j.pooled, j.poolItems, j.coverage, j.status, j.partial])).toEqual([
      ["a-partial", 2, 4, 0.5, "imported", true],
      ["b-old", 4, 4, 1, "completed", false],
      ["c-new", 4, 4, 1, "completed", false],
      ["d-running", 4, 4, 1, "running", true],
    ]);
    expect(meta.defaultJudge).toBe("c-new");
    const calibration = (await servePanel(
      db,
      String(projectId),
      "calibration",
      view,
    )) as import("../../lib/dashboard/calibration.ts").TCalibrationPanel;
    expect(calibration.judge).toBe("c-new");
  });

  it("a run that completes later becomes the default at once (its status is part of the version)", async () => {
    const { servePanel } = await panels();
    const before = (await servePanel(db, String(projectId), "version", view)) as { version: string };
    await db.judgeRun.updateMany({
      where: { projectId, judge: "d-running" },
      data: { status: "completed", finishedAt: new Date(Date.UTC(2026, 0, 4)) },
    });
    const after = (await servePanel(db, String(projectId), "version", view)) as { version: string };
    expect(after.version).not.toBe(before.version);
    const meta = (await servePanel(db, String(projectId), "meta", view)) as import("../../lib/dashboard/meta.ts").TMeta;
    expect(meta.defaultJudge).toBe("d-running");
    expect(meta.judges.find((j) => j.name === "d-running")?.partial).toBe(false);
  });

  it("when no judge is complete (a deeper pool), the one covering most is the default, still partial", async () => {
    const { servePanel } = await panels();
    // Two more pool items: the full judges now cover 4 of 6 (67%), a-partial 2 of 6.
    const chunks = await makeChunks(db, projectId, ["c"]);
    const q = await db.query.findFirstOrThrow({ where: { projectId, externalId: "q1" } });
    const q2 = await db.query.findFirstOrThrow({ where: { projectId, externalId: "q2" } });
    await db.poolItem.createMany({
      data: [q, q2].map((x) => ({ projectId, queryId: x.id, chunkId: chunks.get("c")!.id })),
    });
    const meta = (await servePanel(db, String(projectId), "meta", view)) as import("../../lib/dashboard/meta.ts").TMeta;
    expect(meta.judges.every((j) => j.partial)).toBe(true);
    // Ties at 4 of 6 between b-old, c-new, d-running: the most recently finished, d-running (2026-01-04).
    expect(meta.defaultJudge).toBe("d-running");
  });
});

describe("default judge before any pool", () => {
  it("coverage is unknown, so only the run's status counts: the most recent finished judge", async () => {
    const p = await makeProject(db, { name: "no-pool" });
    const chunks = await makeChunks(db, p.id, ["a"]);
    const queries = await makeQueries(db, p.id, ["q1"]);
    const pair = [{ queryId: queries.get("q1")!.id, chunkId: chunks.get("a")!.id, grade: 1 }];
    await makeJudgeLabels(db, p.id, "x-done", pair);
    await makeJudgeLabels(db, p.id, "y-stopped", pair);
    await judgeRun(p.id, "x-done", "completed", new Date(Date.UTC(2026, 0, 2)));
    await judgeRun(p.id, "y-stopped", "stopped", new Date(Date.UTC(2026, 0, 3)));
    const { servePanel } = await panels();
    const meta = (await servePanel(db, String(p.id), "meta", view)) as import("../../lib/dashboard/meta.ts").TMeta;
    expect(meta.judges.map((j) => [j.name, j.coverage, j.status, j.partial])).toEqual([
      ["x-done", null, "completed", false],
      ["y-stopped", null, "stopped", true],
    ]);
    expect(meta.defaultJudge).toBe("x-done");
  });
});

describe("the label-set version the page polls", () => {
  it("is unchanged without a change and changes with a grade", async () => {
    const p = await makeProject(db, { name: "versions" });
    const chunks = await makeChunks(db, p.id, ["a"]);
    const queries = await makeQueries(db, p.id, ["q1"]);
    const item = await db.poolItem.create({
      data: { projectId: p.id, queryId: queries.get("q1")!.id, chunkId: chunks.get("a")!.id },
    });
    const u = await makeUser(db);
    await db.assignment.create({ data: { poolItemId: item.id, userId: u.id, orderKey: 0.5 } });
    const j = await db.judgement.create({
      data: { poolItemId: item.id, userId: u.id, grade: 1, idempotencyKey: `k-${u.id}` },
    });
    const { servePanel } = await panels();
    const v = async () => ((await servePanel(db, String(p.id), "version", view)) as { version: string }).version;
    const first = await v();
    expect(await v()).toBe(first);
    await new Promise((r) => setTimeout(r, 5));
    await db.judgement.update({ where: { id: j.id }, data: { grade: 2 } });
    expect(await v()).not.toBe(first);
  });
});

describe("the query log's slice: questions imported from a log are tagged log", () => {
  /**
   * Questions q1, q2 written by hand; log1, log2 from a query log (assessor import query-log),
   * accepted after review. One run, sysA, ranks chunks a, b, c (in that order) for every question.
   * Final human labels (imported, source gold):
   *   q1: a=2            → first relevant (grade ≥ 1) at rank 1: reciprocal rank 1
   *   q2: a=0, b=2       → rank 2: 1/2
   *   log1: a=0, b=0, c=1 → rank 3: 1/3
   *   log2: a=0, b=0      → judged, nothing relevant: 0
   * MRR (≥1) over all questions: (1 + 1/2 + 1/3 + 0) / 4 = 11/24 = 0.458333…
   * on the log slice:            (1/3 + 0) / 2 = 1/6 = 0.166666…
   */
  let projectId: number;
  beforeAll(async () => {
    const p = await makeProject(db, { name: "with-log" });
    projectId = p.id;
    const chunks = await makeChunks(db, p.id, ["a", "b", "c"]);
    const hand = await makeQueries(db, p.id, ["q1", "q2"]);
    const file = join(dir, "log.jsonl");
    writeFileSync(
      file,
      [
        '{"text": "how do I reset the router", "time": "2026-11-01T10:00:00Z"}',
        '{"text": "what is a mesh network", "time": "2026-11-01T10:05:00Z"}',
        '{"text": "How do I reset the router?", "time": "2026-11-02T09:00:00Z"}',
      ].join("\n") + "\n",
    );
    const { importQueryLog } = await import("../../lib/questions/log-import.ts");
    const imported = await importQueryLog(db, projectId, file);
    // The third line normalises to the first: two distinct questions.
    expect(imported.created).toBe(2);
    const logQueries = await db.query.findMany({
      where: { projectId, externalId: { startsWith: "log" } },
      include: { tags: true },
      orderBy: { externalId: "asc" },
    });
    expect(logQueries.map((q) => [q.externalId, q.status, q.tags.map((t) => t.tag)])).toEqual([
      ["log1", "draft", ["log"]],
      ["log2", "draft", ["log"]],
    ]);
    await db.query.updateMany({
      where: { projectId, externalId: { startsWith: "log" } },
      data: { status: "accepted" },
    });
    const queries = new Map([...hand, ...logQueries.map((q) => [q.externalId, q] as const)]);
    const ids = { queries, chunks };
    await makeRun(
      db,
      p.id,
      "sysA",
      ["q1", "q2", "log1", "log2"].flatMap(
        (q) =>
          [
            [q, "a", 3],
            [q, "b", 2],
            [q, "c", 1],
          ] as [string, string, number][],
      ),
      ids,
    );
    const gold: [string, string, number][] = [
      ["q1", "a", 2],
      ["q2", "a", 0],
      ["q2", "b", 2],
      ["log1", "a", 0],
      ["log1", "b", 0],
      ["log1", "c", 1],
      ["log2", "a", 0],
      ["log2", "b", 0],
    ];
    await db.referenceLabel.createMany({
      data: gold.map(([q, c, grade]) => ({
        projectId,
        source: "gold",
        queryId: queries.get(q)!.id,
        chunkId: chunks.get(c)!.id,
        grade,
      })),
    });
  });

  it("offers the log slice and its systems table differs from all questions", async () => {
    const { servePanel } = await panels();
    const meta = (await servePanel(db, String(projectId), "meta", view)) as import("../../lib/dashboard/meta.ts").TMeta;
    expect(meta.tags).toEqual(["log"]);
    type TPanel = import("../../lib/dashboard/systems.ts").TSystemsPanel;
    const mrr = (panel: TPanel) => {
      const t = panel.tables[0];
      const col = t.columns.findIndex((c) => c.id === "recip_rank@1");
      return { queries: t.queries, mean: t.rows[0].cells[col].mean };
    };
    const all = mrr((await servePanel(db, String(projectId), "systems", view)) as TPanel);
    const log = mrr((await servePanel(db, String(projectId), "systems", { ...view, tag: "log" })) as TPanel);
    expect(all.queries).toBe(4);
    expect(all.mean).toBeCloseTo(11 / 24, 10);
    expect(log.queries).toBe(2);
    expect(log.mean).toBeCloseTo(1 / 6, 10);
  });
});
