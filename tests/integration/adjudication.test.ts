import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { itemStatus } from "../../lib/labels/judgements.ts";
import { referenceLabels } from "../../lib/labels/reference.ts";
import { adjudicationQueue } from "../../lib/adjudication/queue.ts";
import { adjudicate } from "../../lib/adjudication/decide.ts";
import { makeAssignedItems, makeProject, makeUser } from "../helpers/factories.ts";

useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
});

const submit = (userId: string, poolItemId: string, grade: number, startSeconds: number | null, notes = "") =>
  submitJudgement(db, userId, { poolItemId, grade, startSeconds, notes, idempotencyKey: randomUUID() });

describe("adjudication", () => {
  it("queues disagreements with labels A and B (first submitted first), no names; decides once; 409 with the standing decision", async () => {
    const p = await makeProject(db);
    const [a, b] = [await makeUser(db, { name: "Alice Secret" }), await makeUser(db, { name: "Bob Secret" })];
    const [adj1, adj2] = [await makeUser(db, { role: "adjudicator" }), await makeUser(db, { role: "adjudicator" })];
    const items = await makeAssignedItems(db, p.id, 3, [a, b], "q7");
    await submit(b.id, items[0].id, 3, 12, "says it outright");
    await submit(a.id, items[0].id, 1, 14, "only related");
    await submit(a.id, items[1].id, 2, 5);
    await submit(b.id, items[1].id, 2, 6); // agreed: not queued
    await submit(a.id, items[2].id, 0, null); // incomplete: not queued

    const queue = await adjudicationQueue(db, p.id);
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({
      poolItemId: items[0].id,
      query: { externalId: "q7" },
      chunk: { externalId: "q7-c1", video: { title: expect.any(String) } },
    });
    expect(queue[0].labels).toEqual([
      { label: "A", grade: 3, startSeconds: 12, endSeconds: null, notes: "says it outright", flags: [], history: [3] },
      { label: "B", grade: 1, startSeconds: 14, endSeconds: null, notes: "only related", flags: [], history: [1] },
    ]);
    const text = JSON.stringify(queue);
    for (const secret of ["Alice", "Bob", a.id, b.id, a.email, b.email]) expect(text).not.toContain(secret);

    // Two adjudicators at once: one decision stands, the other gets a conflict carrying it.
    const results = await Promise.allSettled([
      adjudicate(db, adj1.id, {
        poolItemId: items[0].id,
        grade: 2,
        startSeconds: 13,
        rationale: "partial answer",
        idempotencyKey: randomUUID(),
      }),
      adjudicate(db, adj2.id, {
        poolItemId: items[0].id,
        grade: 3,
        startSeconds: 12,
        rationale: "full answer",
        idempotencyKey: randomUUID(),
      }),
    ]);
    const ok = results.filter((r) => r.status === "fulfilled");
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(1);
    const stored = await db.adjudication.findUniqueOrThrow({ where: { poolItemId: items[0].id } });
    const err = failed[0].reason as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe("conflict");
    expect(err.details).toEqual({
      standing: {
        grade: stored.grade,
        startSeconds: stored.startSeconds,
        endSeconds: null,
        rationale: stored.rationale,
        revision: 1,
      },
    });
    expect(await db.labelEvent.count({ where: { poolItemId: items[0].id, kind: "adjudication" } })).toBe(1);

    expect(await adjudicationQueue(db, p.id)).toEqual([]);
    const ref = await referenceLabels(db, p.id);
    expect(ref.map((r) => [r.docid, r.grade, r.startSeconds, r.status, r.annotators])).toEqual([
      ["q7-c1", stored.grade, stored.startSeconds, "adjudicated", 2],
      ["q7-c2", 2, 5.5, "agreed", 2],
    ]);
    // An annotator's later edit is accepted as any other (no 409 telling them the item was disputed),
    // kept in the history and flagged to the adjudicator, and the adjudicated label stands.
    expect((await submit(a.id, items[0].id, 3, 12)).applied).toBe(true);
    expect((await referenceLabels(db, p.id))[0]).toMatchObject({
      grade: stored.grade,
      startSeconds: stored.startSeconds,
      status: "adjudicated",
    });
    expect(await itemStatus(db, items[0].id)).toMatchObject({
      stage: "adjudicated",
      editedAfterDecision: true,
      final: { grade: stored.grade, status: "adjudicated" },
    });
    expect(await itemStatus(db, items[1].id)).toMatchObject({ stage: "agreed", editedAfterDecision: false });
  });

  it("keeps a disputed item in the queue when later edits agree, showing each annotator's grade history", async () => {
    const p = await makeProject(db);
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const adj = await makeUser(db, { role: "adjudicator" });
    const [item] = await makeAssignedItems(db, p.id, 1, [a, b]);
    await submit(a.id, item.id, 2, 10);
    await submit(b.id, item.id, 0, null);
    await submit(a.id, item.id, 1, 10);
    await submit(a.id, item.id, 0, null); // now 0/0: agrees, but the item was disputed
    const queue = await adjudicationQueue(db, p.id);
    expect(queue.map((q) => q.poolItemId)).toEqual([item.id]);
    expect(queue[0].labels.map((l) => [l.label, l.grade, l.history])).toEqual([
      ["A", 0, [2, 1, 0]],
      ["B", 0, [0]],
    ]);
    expect((await referenceLabels(db, p.id)).length).toBe(0);
    expect(
      (await adjudicate(db, adj.id, { poolItemId: item.id, grade: 1, startSeconds: 10, idempotencyKey: randomUUID() }))
        .applied,
    ).toBe(true);
    expect(await adjudicationQueue(db, p.id)).toEqual([]);
  });

  it("is idempotent per key and refuses items that are not disagreements and callers who are not adjudicators", async () => {
    const p = await makeProject(db);
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const adj = await makeUser(db, { role: "adjudicator" });
    const items = await makeAssignedItems(db, p.id, 2, [a, b]);
    await submit(a.id, items[0].id, 0, null);
    await submit(b.id, items[0].id, 3, 60);
    const k = randomUUID();
    const first = await adjudicate(db, adj.id, {
      poolItemId: items[0].id,
      grade: 3,
      startSeconds: 60,
      rationale: "clear",
      idempotencyKey: k,
    });
    const again = await adjudicate(db, adj.id, {
      poolItemId: items[0].id,
      grade: 3,
      startSeconds: 60,
      rationale: "clear",
      idempotencyKey: k,
    });
    expect(first.applied).toBe(true);
    expect(again).toEqual({ applied: false, adjudication: first.adjudication });
    const event = await db.labelEvent.findFirstOrThrow({ where: { idempotencyKey: k } });
    expect(JSON.parse(event.after)).toEqual({
      grade: 3,
      startSeconds: 60,
      endSeconds: null,
      rationale: "clear",
      revision: 1,
    });
    expect(JSON.parse(event.before!)).toEqual({
      labels: [
        { grade: 0, startSeconds: null, endSeconds: null },
        { grade: 3, startSeconds: 60, endSeconds: null },
      ],
    });

    await expect(
      adjudicate(db, adj.id, { poolItemId: items[1].id, grade: 1, startSeconds: null, idempotencyKey: randomUUID() }),
    ).rejects.toMatchObject({
      code: "conflict",
      message: "this item is still waiting for its annotators' grades",
    });
    await expect(
      adjudicate(db, a.id, { poolItemId: items[1].id, grade: 1, startSeconds: null, idempotencyKey: randomUUID() }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      adjudicate(db, adj.id, { poolItemId: "nope", grade: 1, startSeconds: null, idempotencyKey: randomUUID() }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await db.adjudication.count({ where: { poolItemId: items[1].id } })).toBe(0);
  });
});
