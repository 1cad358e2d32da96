import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { assign } from "../../lib/assignment/assign.ts";
import { importReferenceLabels } from "../../lib/imports/index.ts";
import { stageCounts } from "../../lib/labels/stage.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { makeChunks, makeProject, makeQueries, makeUser } from "../helpers/factories.ts";

/** Reference labels: imported human labels are reference labels; pooled items that have one leave the annotation queue. */
useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
});

/** One query with chunks c1…c6 pooled, two annotators. */
async function setup() {
  const p = await makeProject(db);
  const q = (await makeQueries(db, p.id, ["q1"])).get("q1")!;
  const chunks = await makeChunks(db, p.id, ["c1", "c2", "c3", "c4", "c5", "c6", "x9"]);
  const ids = ["c1", "c2", "c3", "c4", "c5", "c6"];
  await db.poolItem.createMany({
    data: ids.map((c) => ({ projectId: p.id, queryId: q.id, chunkId: chunks.get(c)!.id })),
  });
  const items = new Map(
    (await db.poolItem.findMany({ where: { projectId: p.id }, include: { chunk: true } })).map((i) => [
      i.chunk.externalId,
      i.id,
    ]),
  );
  const tag = randomUUID().slice(0, 8);
  const users = await Promise.all(["a", "b"].map((n) => makeUser(db, { email: `${n}-${tag}@example.org` })));
  return { p, items, users, emails: users.map((u) => u.email) };
}

const qrels = (name: string, lines: string[]) => ({ name, bytes: Buffer.from(lines.map((l) => `${l}\n`).join("")) });
const assignedItems = async (projectId: number) =>
  new Set(
    (await db.assignment.findMany({ where: { poolItem: { projectId } }, select: { poolItemId: true } })).map(
      (a) => a.poolItemId,
    ),
  );

describe("imported reference labels and the annotation queue", () => {
  it("at import: releases the assignments of newly labelled pooled items without a grade; a graded item keeps its assignments", async () => {
    const { p, items, users, emails } = await setup();
    await assign(db, p.id, { perItem: 2, annotators: emails, seed: 1 });
    expect(await db.assignment.count({ where: { poolItem: { projectId: p.id } } })).toBe(12);
    // c2 has one grade already (by a), so it stays with both its annotators.
    await submitJudgement(db, users[0].id, {
      poolItemId: items.get("c2")!,
      grade: 2,
      startSeconds: null,
      notes: "",
      flags: [],
      timeSpentMs: null,
      idempotencyKey: randomUUID(),
    });

    // c1, c2, c3 labelled, and x9 (outside the pool).
    const r = await importReferenceLabels(
      db,
      p.id,
      qrels("old.qrels", ["q1 0 c1 3", "q1 0 c2 1", "q1 0 c3 0", "q1 0 x9 2"]),
      { source: "old" },
    );
    expect(r).toMatchObject({ created: 4, released: 2 });
    const left = await assignedItems(p.id);
    expect(
      [...items]
        .filter(([, id]) => left.has(id))
        .map(([c]) => c)
        .sort(),
    ).toEqual(["c2", "c4", "c5", "c6"]);
    expect(await db.assignment.count({ where: { poolItemId: items.get("c2")! } })).toBe(2);
    expect(await db.judgement.count({ where: { poolItemId: items.get("c2")! } })).toBe(1);

    // c1, c3 imported (in the pool, no assignment), x9 imported (outside the pool); c2 is assigned
    // (one grade of two), so it is the one pooled labelled item still in annotation.
    expect(await stageCounts(db, p.id)).toEqual({
      unassigned: 0,
      assigned: 4,
      agreed: 0,
      awaiting_adjudication: 0,
      adjudicated: 0,
      imported: 3,
      total: 7,
      imported_pooled: 3,
      imported_regrading: 1,
    });

    // Importing the file again, or a second source for the same pairs, releases nothing more.
    expect(
      await importReferenceLabels(db, p.id, qrels("old.qrels", ["q1 0 c1 3", "q1 0 c2 1", "q1 0 c3 0", "q1 0 x9 2"]), {
        source: "old",
      }),
    ).toMatchObject({ created: 0, released: 0 });
    // Assigning again skips the labelled items (c2 too: it keeps the assignments it had); nothing is missing.
    const again = await assign(db, p.id, { perItem: 2, annotators: emails, seed: 2 });
    expect(again).toMatchObject({ items: 3, created: 0, labelledSkipped: 3 });
    expect(await assignedItems(p.id)).toEqual(left);
  });

  it("at assign: labelled items are left out unless includeLabelled, which assigns them to re-grade (and a later re-import keeps those)", async () => {
    const { p, items, emails } = await setup();
    await importReferenceLabels(db, p.id, qrels("gold.qrels", ["q1 0 c1 3", "q1 0 c2 1"]), { source: "gold" });
    const first = await assign(db, p.id, { perItem: 2, annotators: emails, seed: 3 });
    expect(first).toMatchObject({ items: 4, itemsToppedUp: 4, created: 8, labelledSkipped: 2 });
    const without = await assignedItems(p.id);
    expect(without.has(items.get("c1")!) || without.has(items.get("c2")!)).toBe(false);
    expect(await stageCounts(db, p.id)).toMatchObject({
      imported: 2,
      assigned: 4,
      imported_pooled: 2,
      imported_regrading: 0,
    });

    const regrade = await assign(db, p.id, { perItem: 2, annotators: emails, seed: 4, includeLabelled: true });
    expect(regrade).toMatchObject({ items: 6, itemsToppedUp: 2, created: 4, labelledSkipped: 0 });
    expect(await stageCounts(db, p.id)).toMatchObject({
      imported: 0,
      assigned: 6,
      imported_pooled: 2,
      imported_regrading: 2,
    });

    // New grades for pairs labelled already (an update of gold, another source) release nothing.
    const r = await importReferenceLabels(db, p.id, qrels("gold.qrels", ["q1 0 c1 2", "q1 0 c2 1"]), {
      source: "gold",
    });
    expect(r).toMatchObject({ updated: 1, released: 0 });
    expect(
      await importReferenceLabels(db, p.id, qrels("other.qrels", ["q1 0 c1 2"]), { source: "other" }),
    ).toMatchObject({ created: 1, released: 0 });
    expect((await assignedItems(p.id)).size).toBe(6);
  });

  it("refuses to assign when every pooled item is labelled, naming --include-labelled", async () => {
    const { p, emails } = await setup();
    await importReferenceLabels(
      db,
      p.id,
      qrels(
        "all.qrels",
        ["c1", "c2", "c3", "c4", "c5", "c6"].map((c) => `q1 0 ${c} 1`),
      ),
      { source: "all" },
    );
    await expect(assign(db, p.id, { perItem: 1, annotators: emails })).rejects.toThrow(/--include-labelled/);
    expect(await db.assignment.count({ where: { poolItem: { projectId: p.id } } })).toBe(0);
  });
});
