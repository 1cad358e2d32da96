import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { importJudgeLabels, importReferenceLabels, importRun } from "../../lib/imports/index.ts";
import { makeChunks, makeJudgeLabels, makeProject, makeQueries, makeRun, makeUser } from "../helpers/factories.ts";

/**
 * After a label change the dashboard re-reads only what changed (judgements: the rows updated or
 * inserted since the last read) and recomputes only the queries and slices whose labels changed.
 * Each step below changes labels the way the app does and checks that every panel equals the
 * panels computed from scratch (every cache emptied) on the same database.
 */
useTestDatabase();
let db: Db;
let projectId: number;
let items: string[];
let users: { id: string }[];

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "incremental" });
  projectId = p.id;
  const chunks = await makeChunks(db, p.id, ["a", "b", "c", "d", "e"]);
  const queries = await makeQueries(db, p.id, ["q1", "q2", "q3"]);
  await db.queryTag.create({ data: { queryId: queries.get("q1")!.id, tag: "t1" } });
  await db.queryTag.create({ data: { queryId: queries.get("q2")!.id, tag: "t2" } });
  const ids = { queries, chunks };
  const entries = (order: string[]): [string, string, number][] =>
    ["q1", "q2", "q3"].flatMap((q) => order.map((c, i): [string, string, number] => [q, c, 10 - i]));
  await makeRun(db, p.id, "sysA", entries(["a", "b", "c", "d", "e"]), ids);
  await makeRun(db, p.id, "sysB", entries(["e", "d", "c", "b", "a"]), ids);
  await makeRun(db, p.id, "sysC", entries(["c", "a", "e", "b", "d"]), ids);
  const judge = ["q1", "q2", "q3"].flatMap((q, qi) =>
    ["a", "b", "c", "d", "e"].map((c, ci) => ({
      queryId: queries.get(q)!.id,
      chunkId: chunks.get(c)!.id,
      grade: (qi + ci) % 4,
    })),
  );
  await makeJudgeLabels(db, p.id, "j1", judge);
  users = [
    await makeUser(db, { name: "Ann" }),
    await makeUser(db, { name: "Bob" }),
    await makeUser(db, { name: "Cyd" }),
  ];
  items = [];
  for (const q of ["q1", "q2", "q3"])
    for (const c of ["a", "b", "c", "d"])
      items.push(
        (
          await db.poolItem.create({
            data: { projectId: p.id, queryId: queries.get(q)!.id, chunkId: chunks.get(c)!.id },
          })
        ).id,
      );
  // Two annotators per item; they agree on every other item.
  for (let i = 0; i < items.length; i++)
    for (const [k, u] of [users[i % 3], users[(i + 1) % 3]].entries()) {
      await db.assignment.create({ data: { poolItemId: items[i], userId: u.id, orderKey: 0.5 } });
      await db.judgement.create({
        data: {
          poolItemId: items[i],
          userId: u.id,
          grade: (i + (i % 2) * k) % 4,
          startSeconds: 10,
          timeSpentMs: 1000 * (i + 1),
          idempotencyKey: `inc-${i}-${u.id}`,
        },
      });
    }
});

const views = [
  { source: "both" as const, gain: "exponential" as const },
  { source: "human" as const, gain: "linear" as const, tag: "t1", baseline: "sysB" },
];

/** A qrels file over q1–q3 × a–e, graded by `grade`. */
function qrels(name: string, grade: (q: string, c: string, i: number) => number) {
  const lines = ["q1", "q2", "q3"]
    .flatMap((q) => ["a", "b", "c", "d", "e"].map((c) => [q, c] as const))
    .map(([q, c], i) => `${q} 0 ${c} ${grade(q, c, i)}`);
  return { name, bytes: Buffer.from(`${lines.join("\n")}\n`) };
}

function runLines(tag: string, order: string[]) {
  return (
    ["q1", "q2", "q3"].flatMap((q) => order.map((c, i) => `${q} Q0 ${c} ${i + 1} ${10 - i} ${tag}`)).join("\n") + "\n"
  );
}

async function panels() {
  const { allPanels } = await import("../../lib/dashboard/panels.ts");
  return Promise.all(views.map((v) => allPanels(db, projectId, v)));
}

async function fromScratch() {
  const { clearDashboardCache } = await import("../../lib/dashboard/data.ts");
  const { clearReportCache } = await import("../../lib/dashboard/agreement.ts");
  clearDashboardCache();
  clearReportCache();
  return panels();
}

describe("dashboard after label changes", () => {
  it("equals the panels computed from scratch after each change", async () => {
    const { dashboardData } = await import("../../lib/dashboard/data.ts");
    await fromScratch();
    const human = async () =>
      (await dashboardData(db, projectId)).data.reference.map((r) => [r.queryId, r.chunkId, r.grade, r.status]).sort();
    const before = await human();
    const steps: [string, () => Promise<unknown>][] = [
      // An agreed item becomes a disagreement (its final label goes away).
      [
        "judgement edited",
        async () =>
          db.judgement.updateMany({ where: { poolItemId: items[0], userId: users[0].id }, data: { grade: 3 } }),
      ],
      [
        "adjudication added",
        async () =>
          db.adjudication.create({
            data: { poolItemId: items[0], adjudicatorId: users[2].id, grade: 2, startSeconds: 5 },
          }),
      ],
      [
        "judgement added",
        async () =>
          db.judgement.create({
            data: { poolItemId: items[4], userId: users[0].id, grade: 1, timeSpentMs: 5000, idempotencyKey: "inc-new" },
          }),
      ],
      ["judgement deleted", async () => db.judgement.deleteMany({ where: { poolItemId: items[3] } })],
      [
        "edited twice, then another added",
        async () => {
          await db.judgement.updateMany({ where: { poolItemId: items[7] }, data: { grade: 0 } });
          await db.judgement.updateMany({ where: { poolItemId: items[8] }, data: { grade: 2 } });
          await db.judgement.create({
            data: { poolItemId: items[9], userId: users[2].id, grade: 3, idempotencyKey: "inc-new-2" },
          });
        },
      ],
      [
        "judge labels imported",
        async () => {
          const labels = await db.judgeLabel.findMany({
            where: { projectId, judge: "j1" },
            select: { queryId: true, chunkId: true, grade: true },
          });
          await makeJudgeLabels(
            db,
            projectId,
            "j0",
            labels.map((l) => ({ ...l, grade: 3 - l.grade })),
          );
        },
      ],
      // Through the importers: a file with new grades for labels already there updates the rows in
      // place (same count, same largest id), and a replaced run keeps its id.
      [
        "judge labels re-imported with new grades",
        () =>
          importJudgeLabels(
            db,
            projectId,
            qrels("j1.qrels", (q, c, i) => (i * 3) % 4),
            { judge: "j1" },
          ),
      ],
      [
        "reference labels imported",
        () =>
          importReferenceLabels(
            db,
            projectId,
            qrels("gold.qrels", (q, c, i) => i % 4),
            { source: "gold" },
          ),
      ],
      [
        "reference labels re-imported with new grades",
        () =>
          importReferenceLabels(
            db,
            projectId,
            qrels("gold.qrels", (q, c, i) => (i + 2) % 4),
            { source: "gold" },
          ),
      ],
      [
        "run replaced",
        () =>
          importRun(
            db,
            projectId,
            { name: "sysA.run", bytes: Buffer.from(runLines("sysA", ["d", "e", "a", "c", "b"])) },
            { system: "sysA", replace: true },
          ),
      ],
    ];
    for (const [name, change] of steps) {
      await change();
      const incremental = await panels();
      expect(incremental, name).toEqual(await fromScratch());
    }
    // The steps did change the final human labels.
    expect(await human()).not.toEqual(before);
  });
});
