import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeAssignedItems, makeJudgeLabels, makeProject, makeUser } from "../helpers/factories.ts";
import { dashboardItems, itemsFromLabels, pseudonym, type TReportItems } from "../../lib/annotators/items.ts";
import { loadItemLabels, ruleSettings } from "../../lib/labels/load.ts";
import { annotatorsReport, type TAnnotatorsMain } from "../../lib/annotators/report.ts";
import { annotatorsCard, ZAnnotatorsQuery, type TAnnotatorsModelPart } from "../../lib/annotators/routes.ts";

/**
 * The Annotators card's items from the dashboard's data (lib/annotators/items.ts dashboardItems)
 * equal the ones from loadItemLabels (the CLI's path) on a real database, before and after label
 * changes, and so do the report's figures: 6 questions × 5 items, three annotators two to an item
 * (every third item disagrees: disputed, half of those adjudicated), one question rejected and one
 * left a draft after grading (their items are not in the dashboard's data), hidden check grades on
 * agreed, adjudicated, disputed and rejected items.
 */
useTestDatabase();
let db: Db;
let projectId: number;
let pool: { id: string; queryId: number; chunkId: number; qid: string; docid: string }[];
let users: { id: string; email: string }[];

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const { submitJudgement } = await import("../../lib/labels/submit.ts");
  const { adjudicate } = await import("../../lib/adjudication/decide.ts");
  const p = await makeProject(db, { name: "card-items", annotatorsPerItem: 2 });
  projectId = p.id;
  users = [
    await makeUser(db, { role: "annotator" }),
    await makeUser(db, { role: "annotator" }),
    await makeUser(db, { role: "annotator" }),
  ];
  const lead = await makeUser(db, { role: "lead" });
  pool = [];
  let n = 0;
  // Questions made in an order their ids and external ids do not share.
  for (const q of ["q5", "q2", "q6", "q1", "q4", "q3"]) {
    const items = await makeAssignedItems(db, p.id, 5, [], q);
    for (const [k, it] of items.entries()) {
      pool.push(it);
      const i = pool.length - 1;
      const pair = [users[i % 3], users[(i + 1) % 3]];
      for (const [m, u] of pair.entries()) {
        await db.assignment.create({ data: { poolItemId: it.id, userId: u.id, orderKey: 0.5 } });
        const grade = (k + (i % 3 === 0 ? m : 0)) % 4;
        await submitJudgement(db, u.id, {
          poolItemId: it.id,
          grade,
          startSeconds: grade > 0 ? 10 + m + k : null,
          notes: "",
          flags: [],
          timeSpentMs: 1000 * (1 + ((i + m) % 7)),
          idempotencyKey: `card-items-${n++}`,
        });
      }
      if (i % 6 === 0)
        await adjudicate(db, lead.id, {
          poolItemId: it.id,
          grade: k % 4,
          startSeconds: null,
          idempotencyKey: `card-items-adj-${i}`,
        });
    }
  }
  await db.query.updateMany({ where: { projectId, externalId: "q2" }, data: { status: "rejected" } });
  await db.query.updateMany({ where: { projectId, externalId: "q4" }, data: { status: "draft" } });
  // Check grades on an adjudicated item (0), a disputed one (3), agreed ones (1, 7) and the rejected question's (5, 8).
  for (const [k, at] of [0, 3, 1, 7, 5, 8].entries())
    await db.checkJudgement.create({
      data: { poolItemId: pool[at].id, userId: users[k % 3].id, grade: k % 4, idempotencyKey: `card-items-check-${k}` },
    });
  const judge = pool.map((it, i) => ({ queryId: it.queryId, chunkId: it.chunkId, grade: (i * 7) % 4 }));
  await makeJudgeLabels(db, p.id, "j1", judge);
});

async function fromLabels(): Promise<TReportItems> {
  const [settings, items] = await Promise.all([ruleSettings(db, projectId), loadItemLabels(db, projectId)]);
  return itemsFromLabels(items, settings, (u) => pseudonym(projectId, u));
}

async function expectSameItems(): Promise<TReportItems> {
  const [cli, dashboard] = await Promise.all([fromLabels(), dashboardItems(db, projectId)]);
  expect(dashboard.items.items).toEqual(cli.items);
  for (const it of pool) expect(dashboard.items.reference(it.id), it.id).toEqual(cli.reference(it.id));
  expect(dashboard.items.reference("no-such-item")).toBeNull();
  return dashboard.items;
}

/** The card's two JSON parts and CSV against the CLI's report, figure for figure. */
async function expectSameReport(judge?: string) {
  const report = await annotatorsReport(db, projectId, { judge });
  const main = (await annotatorsCard(db, String(projectId), ZAnnotatorsQuery.parse({ judge }))) as TAnnotatorsMain;
  const part = (await annotatorsCard(
    db,
    String(projectId),
    ZAnnotatorsQuery.parse({ part: "model" }),
  )) as TAnnotatorsModelPart;
  expect(JSON.stringify({ ...main, model: part.model })).toBe(JSON.stringify(report));
  const csv = await annotatorsCard(db, String(projectId), ZAnnotatorsQuery.parse({ judge, format: "csv" }));
  const { annotatorsCsv } = await import("../../lib/annotators/csv.ts");
  expect(csv).toBeInstanceOf(Response);
  expect(await (csv as Response).text()).toBe(annotatorsCsv(report));
  return report;
}

describe("the Annotators card's items", () => {
  it("equal loadItemLabels' items, in (question id, chunk id) order, with the questions that are not accepted", async () => {
    const items = await expectSameItems();
    // Every pool item has judgements; the rejected and draft questions' items are in too.
    expect(items.items).toHaveLength(30);
    const ids = new Map(pool.map((it) => [`${it.qid}\u0000${it.docid}`, it]));
    const pairs = items.items.map((it) => ids.get(`${it.qid}\u0000${it.docid}`)!);
    expect(pairs.map((p) => [p.queryId, p.chunkId])).toEqual(
      [...pairs].sort((a, b) => a.queryId - b.queryId || a.chunkId - b.chunkId).map((p) => [p.queryId, p.chunkId]),
    );
    expect(items.items.some((it) => it.qid === "q2")).toBe(true);
    expect(items.items.some((it) => it.adjudication !== null)).toBe(true);
    expect(items.items.some((it) => it.final === null)).toBe(true);
  });

  it("give the CLI's report: the card's main part, its model part and its CSV", async () => {
    const report = await expectSameReport();
    expect(report.annotators).toHaveLength(3);
    expect(report.checks.length).toBeGreaterThan(0);
    expect(report.model).not.toBeNull();
    await expectSameReport("j1");
  });

  it("stay equal after label changes, keeping the objects of the items that did not change", async () => {
    const before = (await dashboardItems(db, projectId)).items.items;
    // An agreed item of an accepted question changes grade.
    const changed = pool[1];
    const j = await db.judgement.findFirstOrThrow({ where: { poolItemId: changed.id }, orderBy: { id: "asc" } });
    await db.judgement.update({ where: { id: j.id }, data: { grade: (j.grade + 1) % 4 } });
    const after = (await expectSameItems()).items;
    const at = after.findIndex((it) => it.qid === changed.qid && it.docid === changed.docid);
    expect(after[at]).not.toBe(before[at]);
    // Every other item, of accepted questions or not, is the object it was.
    expect(after.filter((it, i) => it === before[i])).toHaveLength(after.length - 1);
    await expectSameReport();
    // A grade on the rejected question's item, and that question accepted again.
    const r = await db.judgement.findFirstOrThrow({ where: { poolItemId: pool[5].id }, orderBy: { id: "asc" } });
    await db.judgement.update({ where: { id: r.id }, data: { grade: (r.grade + 2) % 4 } });
    await expectSameItems();
    await db.query.updateMany({ where: { projectId, externalId: "q2" }, data: { status: "accepted" } });
    await expectSameItems();
    await expectSameReport("j1");
    // The judge's labels, kept while only grades change, are read again when one of them goes.
    const label = await db.judgeLabel.findFirstOrThrow({ where: { projectId, judge: "j1" }, orderBy: { id: "asc" } });
    await db.judgeLabel.delete({ where: { id: label.id } });
    const report = await expectSameReport("j1");
    expect(report.annotators.reduce((n, a) => n + (a.judge?.n ?? 0), 0)).toBe(2 * pool.length - 2);
  });

  it("refuses part=model as CSV (422)", async () => {
    await expect(
      annotatorsCard(db, String(projectId), ZAnnotatorsQuery.parse({ part: "model", format: "csv" })),
    ).rejects.toMatchObject({ code: "bad_input", message: expect.stringContaining("part=model") as unknown });
    void users;
  });
});
