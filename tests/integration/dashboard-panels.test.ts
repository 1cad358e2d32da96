import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeJudgeLabels, makeProject, makeQueries, makeRun, makeUser } from "../helpers/factories.ts";

/**
 * The dashboard's data functions on a small project built with factories, with expected values
 * worked by hand in the comments.
 *
 * Queries q1, q2 (q1 tagged "entity"); chunks a..d. Final human labels (imported, source "gold"):
 *   q1: a=3, b=0, c=1      q2: a=2, d=0
 * Judge "j1":  q1: a=3, b=1, c=1   q2: a=1, d=0          (5 pairs, 3 equal)
 * Runs (score order): sysA q1: a, b, c; q2: a, d        sysB q1: b, c, a; q2: d, a
 * Pool item q1/b graded by two annotators: 1 and 2 (timeSpent 10 s and 20 s).
 */
useTestDatabase();
let db: Db;
let projectId: number;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "dash" });
  projectId = p.id;
  const chunks = await makeChunks(db, p.id, ["a", "b", "c", "d"]);
  const queries = await makeQueries(db, p.id, ["q1", "q2"]);
  await db.queryTag.create({ data: { queryId: queries.get("q1")!.id, tag: "entity" } });
  const ids = { queries, chunks };
  const q = (x: string) => queries.get(x)!.id;
  const c = (x: string) => chunks.get(x)!.id;
  await makeRun(
    db,
    p.id,
    "sysA",
    [
      ["q1", "a", 3],
      ["q1", "b", 2],
      ["q1", "c", 1],
      ["q2", "a", 2],
      ["q2", "d", 1],
    ],
    ids,
  );
  await makeRun(
    db,
    p.id,
    "sysB",
    [
      ["q1", "b", 3],
      ["q1", "c", 2],
      ["q1", "a", 1],
      ["q2", "d", 2],
      ["q2", "a", 1],
    ],
    ids,
  );
  const gold: [string, string, number][] = [
    ["q1", "a", 3],
    ["q1", "b", 0],
    ["q1", "c", 1],
    ["q2", "a", 2],
    ["q2", "d", 0],
  ];
  await db.referenceLabel.createMany({
    data: gold.map(([qq, cc, grade]) => ({ projectId: p.id, source: "gold", queryId: q(qq), chunkId: c(cc), grade })),
  });
  const judge: [string, string, number][] = [
    ["q1", "a", 3],
    ["q1", "b", 1],
    ["q1", "c", 1],
    ["q2", "a", 1],
    ["q2", "d", 0],
  ];
  await makeJudgeLabels(
    db,
    p.id,
    "j1",
    judge.map(([qq, cc, grade]) => ({ queryId: q(qq), chunkId: c(cc), grade })),
  );
  const item = await db.poolItem.create({ data: { projectId: p.id, queryId: q("q1"), chunkId: c("b") } });
  const u1 = await makeUser(db, { name: "Ann" });
  const u2 = await makeUser(db, { name: "Bob" });
  for (const [u, grade, ms] of [
    [u1, 1, 10_000],
    [u2, 2, 20_000],
  ] as const) {
    await db.assignment.create({ data: { poolItemId: item.id, userId: u.id, orderKey: 0.5 } });
    await db.judgement.create({
      data: {
        poolItemId: item.id,
        userId: u.id,
        grade,
        startSeconds: 30,
        timeSpentMs: ms,
        idempotencyKey: `k-${u.id}`,
      },
    });
  }
});

const query = { source: "human" as const, gain: "exponential" as const };

describe("dashboard panels", () => {
  it("judge vs human: confusion, raw agreement and leniency of the 5 aligned pairs", async () => {
    const { getAgreement } = await import("../../lib/dashboard/panels.ts");
    const panel = await getAgreement(db, projectId, query);
    expect(panel.judges.map((j) => j.name)).toEqual(["j1"]);
    const r = panel.judges[0].report!;
    expect(r.n).toBe(5);
    // pairs (human → judge): 3→3, 0→1, 1→1, 2→1, 0→0; the item q1/b has a disagreement among the
    // annotators, so its imported label (0) is the reference.
    expect(r.confusion).toEqual([
      [1, 1, 0, 0],
      [0, 1, 0, 0],
      [0, 1, 0, 0],
      [0, 0, 0, 1],
    ]);
    expect(r.raw_agreement).toBeCloseTo(3 / 5, 12);
    // leniency = mean(judge − human) = (0 + 1 + 0 − 1 + 0) / 5 = 0
    expect(r.leniency).toBeCloseTo(0, 12);
  });

  it("slices: the entity tag keeps q1's 3 pairs; system sysB has no pool provenance, so none", async () => {
    const { getAgreement } = await import("../../lib/dashboard/panels.ts");
    const tagged = await getAgreement(db, projectId, { ...query, tag: "entity" });
    expect(tagged.judges[0].report!.n).toBe(3);
    const bySystem = await getAgreement(db, projectId, { ...query, system: "sysB" });
    expect(bySystem.judges[0].report).toBeNull();
    expect(bySystem.judges[0].empty).toMatch(/no final human labels in this slice/);
  });

  it("human vs human: one item graded by Ann (1) and Bob (2)", async () => {
    const { getHuman } = await import("../../lib/dashboard/panels.ts");
    const h = await getHuman(db, projectId, query);
    expect(h.items).toBe(1);
    expect(h.pairs.map((p) => p.name)).toEqual(["Ann – Bob"]);
    expect(h.pairs[0].report!.confusion[1][2]).toBe(1);
  });

  it("calibration: 5 human labels against the target 150, grades 0..3 counted 2,1,1,1", async () => {
    const { getCalibration } = await import("../../lib/dashboard/panels.ts");
    const c = await getCalibration(db, projectId, query);
    expect(c.target).toBe(150);
    // Complete questions: q1's one pool item (b) has a final label (imported); q2 has no pool item.
    expect(c.overall).toMatchObject({
      labelled: 5,
      withJudge: 5,
      perGrade: [2, 1, 1, 1],
      thinGrades: [0, 1, 2, 3],
      questions: 2,
      completeQuestions: 1,
    });
    expect(c.byTag).toEqual([
      {
        tag: "entity",
        labelled: 3,
        withJudge: 3,
        perGrade: [1, 1, 0, 1],
        thinGrades: [0, 1, 2, 3],
        questions: 1,
        completeQuestions: 1,
      },
    ]);
  });

  it("systems: Recall@5 ≥1 and MRR per run, by hand; Kendall's tau with both sources", async () => {
    const { getSystems } = await import("../../lib/dashboard/panels.ts");
    const s = await getSystems(db, projectId, { ...query, source: "both" });
    const [human, judge] = s.tables;
    const col = (id: string) => human.columns.findIndex((c) => c.id === id);
    const rowA = human.rows.find((r) => r.system === "sysA")!;
    const rowB = human.rows.find((r) => r.system === "sysB")!;
    // Human ≥1: q1 relevant {a, c}, q2 {a}. sysA: RR q1 = 1 (a), q2 = 1 (a) → MRR 1;
    // sysB: q1 b(0), c(1) → 1/2; q2 d(0), a → 1/2 → MRR 0.5. Recall@5 is 1 for both.
    expect(rowA.cells[col("recip_rank@1")].mean).toBeCloseTo(1, 12);
    expect(rowB.cells[col("recip_rank@1")].mean).toBeCloseTo(0.5, 12);
    expect(rowB.cells[col("recall_5@1")].mean).toBeCloseTo(1, 12);
    // Baseline is sysA (first run): sysB's paired difference on MRR is −0.5.
    expect(rowB.cells[col("recip_rank@1")].test!.meanDiff).toBeCloseTo(-0.5, 12);
    expect(rowA.cells[col("recip_rank@1")].test).toBeNull();
    expect(judge.source).toBe("judge");
    // Judge ≥1: q1 {a, b, c} → sysB RR 1; q2 {a} → 1/2; MRR 0.75 vs sysA 1: same order → tau 1.
    expect(judge.rows.find((r) => r.system === "sysB")!.cells[col("recip_rank@1")].mean).toBeCloseTo(0.75, 12);
    expect(s.tau!.find((t) => t.column === "recip_rank@1")!.tau).toBe(1);
  });

  it("progress: stages and the median seconds per annotator", async () => {
    const { getProgress } = await import("../../lib/dashboard/panels.ts");
    const p = await getProgress(db, projectId);
    // 1 pool item, disagreeing (1 vs 2 under any_difference) → awaiting adjudication; 4 other imported pairs.
    expect(p.stages).toMatchObject({ awaiting_adjudication: 1, imported: 4, total: 5 });
    expect(p.annotators.map((a) => [a.name, a.done, a.medianSeconds])).toEqual([
      ["Ann", 1, 10],
      ["Bob", 1, 20],
    ]);
    expect(p.remainingJudgements).toBe(0);
  });
});

describe("final human labels", () => {
  it("are the same set as lib/labels referenceLabels: agreed, adjudicated, imported (latest import wins)", async () => {
    const p = await makeProject(db, { name: "reference-check" });
    const chunks = await makeChunks(db, p.id, ["x1", "x2", "x3", "x4", "x5"]);
    const queries = await makeQueries(db, p.id, ["r1"]);
    const q = queries.get("r1")!.id;
    const c = (x: string) => chunks.get(x)!.id;
    const [u1, u2, adj] = [await makeUser(db), await makeUser(db), await makeUser(db, { role: "adjudicator" })];
    // x1: both annotators say 2 → agreed 2 (wins over the imported 0); x2: 1 vs 3 → adjudicated 3;
    // x3: one grade only → no final label, the import applies; x4: imported by two sources, the
    // later one (newer) wins.
    const items = new Map<string, string>();
    for (const x of ["x1", "x2", "x3"])
      items.set(x, (await db.poolItem.create({ data: { projectId: p.id, queryId: q, chunkId: c(x) } })).id);
    const grade = async (x: string, u: { id: string }, g: number) => {
      await db.assignment.create({ data: { poolItemId: items.get(x)!, userId: u.id, orderKey: 0.1 } });
      await db.judgement.create({
        data: {
          poolItemId: items.get(x)!,
          userId: u.id,
          grade: g,
          startSeconds: g > 0 ? 10 : null,
          idempotencyKey: `ref-${x}-${u.id}`,
        },
      });
    };
    await grade("x1", u1, 2);
    await grade("x1", u2, 2);
    await grade("x2", u1, 1);
    await grade("x2", u2, 3);
    await grade("x3", u1, 1);
    await db.adjudication.create({
      data: { poolItemId: items.get("x2")!, adjudicatorId: adj.id, grade: 3, startSeconds: 12 },
    });
    await db.referenceLabel.create({
      data: {
        projectId: p.id,
        source: "old",
        queryId: q,
        chunkId: c("x1"),
        grade: 0,
        createdAt: new Date("2024-01-01"),
      },
    });
    await db.referenceLabel.create({
      data: {
        projectId: p.id,
        source: "old",
        queryId: q,
        chunkId: c("x3"),
        grade: 0,
        createdAt: new Date("2024-01-01"),
      },
    });
    await db.referenceLabel.create({
      data: {
        projectId: p.id,
        source: "old",
        queryId: q,
        chunkId: c("x4"),
        grade: 1,
        createdAt: new Date("2024-01-01"),
      },
    });
    await db.referenceLabel.create({
      data: {
        projectId: p.id,
        source: "new",
        queryId: q,
        chunkId: c("x4"),
        grade: 3,
        createdAt: new Date("2025-01-01"),
      },
    });
    // x5: two imports at the same time: the source name first in plain string order wins ("Gold" <
    // "gold"), whatever the database's collation.
    await db.referenceLabel.create({
      data: {
        projectId: p.id,
        source: "gold",
        queryId: q,
        chunkId: c("x5"),
        grade: 1,
        createdAt: new Date("2025-02-01"),
      },
    });
    await db.referenceLabel.create({
      data: {
        projectId: p.id,
        source: "Gold",
        queryId: q,
        chunkId: c("x5"),
        grade: 2,
        createdAt: new Date("2025-02-01"),
      },
    });

    const { referenceLabels } = await import("../../lib/labels/reference.ts");
    const { dashboardData } = await import("../../lib/dashboard/data.ts");
    const theirs = (await referenceLabels(db, p.id)).map((r) => ({
      queryId: r.queryId,
      chunkId: r.chunkId,
      grade: r.grade,
      startSeconds: r.startSeconds,
      endSeconds: r.endSeconds,
      status: r.status,
      source: r.source,
    }));
    const { data } = await dashboardData(db, p.id);
    const key = (r: { chunkId: number }) => r.chunkId;
    expect([...data.reference].sort((a, b) => key(a) - key(b))).toEqual(theirs.sort((a, b) => key(a) - key(b)));
    expect(theirs.map((r) => [r.grade, r.status, r.source])).toEqual([
      [2, "agreed", null],
      [3, "adjudicated", null],
      [0, "imported", "old"],
      [3, "imported", "new"],
      [2, "imported", "Gold"],
    ]);
  });
});

describe("empty project", () => {
  it("every panel says what to do next", async () => {
    const p = await makeProject(db, { name: "empty-dash" });
    const { getAgreement, getHuman, getCalibration, getProgress, getSystems, getBreakdowns } =
      await import("../../lib/dashboard/panels.ts");
    expect((await getAgreement(db, p.id, query)).empty).toBe(
      "no judge labels yet: import them with npx assessor import judge --judge NAME FILE",
    );
    expect((await getHuman(db, p.id, query)).empty).toMatch(
      /^no item has been graded by two annotators yet: assign items with npx assessor assign/,
    );
    expect((await getCalibration(db, p.id, query)).empty).toMatch(
      /^no final human labels yet: import existing ones with npx assessor import labels --source NAME FILE/,
    );
    expect((await getProgress(db, p.id)).empty).toMatch(/^no pool yet: import runs \(npx assessor import run FILE\)/);
    const systems = await getSystems(db, p.id, { ...query, source: "both" });
    expect(systems.tables.map((t) => t.empty)).toEqual([
      "no runs yet: import them with npx assessor import run FILE",
      "no runs yet: import them with npx assessor import run FILE",
    ]);
    expect(systems.tau).toBeNull();
    expect((await getBreakdowns(db, p.id, query)).rows).toEqual([]);
  });

  it("human vs human, items assigned to two annotators but not graded by both: says to wait for the grades, not to assign", async () => {
    const p = await makeProject(db, { name: "assigned-dash" });
    const chunks = await makeChunks(db, p.id, ["a", "b"]);
    const queries = await makeQueries(db, p.id, ["q1"]);
    const { getHuman } = await import("../../lib/dashboard/panels.ts");
    const [u1, u2] = [await makeUser(db, { name: "One" }), await makeUser(db, { name: "Two" })];
    for (const c of ["a", "b"]) {
      const item = await db.poolItem.create({
        data: { projectId: p.id, queryId: queries.get("q1")!.id, chunkId: chunks.get(c)!.id },
      });
      for (const u of [u1, u2])
        await db.assignment.create({ data: { poolItemId: item.id, userId: u.id, orderKey: 0.5 } });
      // One grade on the first item: still no item with two.
      if (c === "a")
        await db.judgement.create({
          data: { poolItemId: item.id, userId: u1.id, grade: 2, idempotencyKey: `k-one-${p.id}` },
        });
    }
    const human = await getHuman(db, p.id, query);
    expect(human.empty).toBe(
      "no item has been graded by two annotators yet: 2 items are assigned to two or more annotators, and the figures appear once both have graded one",
    );
    expect(human.overall.empty).toBe(human.empty);
  });

  it("an unknown judge or run is a 404-class error naming what exists", async () => {
    const { getSystems, getAgreement } = await import("../../lib/dashboard/panels.ts");
    await expect(getSystems(db, projectId, { ...query, judge: "nobody" })).rejects.toThrow(
      /no judge named "nobody" in this project; judges: j1/,
    );
    await expect(getAgreement(db, projectId, { ...query, system: "nothing" })).rejects.toThrow(
      /no run named "nothing" in this project; runs: sysA, sysB/,
    );
  });
});

describe("a project that does not exist", () => {
  it("is a 404 (not_found) for every panel alike, the Generation and retest panels included", async () => {
    const { PANELS, servePanel } = await import("../../lib/dashboard/serve.ts");
    const { ZDashboardQuery } = await import("../../lib/dashboard/options.ts");
    const q = ZDashboardQuery.parse({});
    const missing = (await db.project.aggregate({ _max: { id: true } }))._max.id! + 1000;
    for (const name of Object.keys(PANELS))
      await expect(servePanel(db, String(missing), name, q), name).rejects.toMatchObject({
        code: "not_found",
        message: `no project with id ${missing}`,
      });
    expect(await servePanel(db, String(projectId), "retest", q)).toEqual({ runs: [] });
  });
});
