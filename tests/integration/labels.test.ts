import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import type { TJudgementInput } from "../../lib/labels/schemas.ts";
import { referenceLabels } from "../../lib/labels/reference.ts";
import { stageCounts } from "../../lib/labels/stage.ts";
import { itemStatus, judgementsForItem } from "../../lib/labels/judgements.ts";
import { makeAssignedItems, makeChunks, makeProject, makeQueries, makeUser } from "../helpers/factories.ts";

useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
});

const key = () => randomUUID();
const grade = (poolItemId: string, g: number, startSeconds: number | null = null, idempotencyKey = key()) => ({
  poolItemId,
  grade: g,
  startSeconds,
  idempotencyKey,
});

describe("submitJudgement", () => {
  it("refuses an item that is not assigned to the caller, and writes nothing", async () => {
    const p = await makeProject(db);
    const [ann, other] = [await makeUser(db), await makeUser(db)];
    const [item] = await makeAssignedItems(db, p.id, 1, [ann]);
    await expect(submitJudgement(db, other.id, grade(item.id, 2))).rejects.toMatchObject({
      code: "forbidden",
      message: "this item is not assigned to you",
    });
    expect(await db.judgement.count({ where: { poolItemId: item.id } })).toBe(0);
    expect(await db.labelEvent.count({ where: { poolItemId: item.id } })).toBe(0);
  });

  it("rejects bad input with the field named", async () => {
    const p = await makeProject(db);
    const ann = await makeUser(db);
    const [item] = await makeAssignedItems(db, p.id, 1, [ann]);
    await expect(submitJudgement(db, ann.id, grade(item.id, 4))).rejects.toMatchObject({
      code: "bad_input",
      message: "grade: grade: expected 0–3",
    });
    await expect(submitJudgement(db, ann.id, grade(item.id, 1, -3))).rejects.toMatchObject({ code: "bad_input" });
  });

  it("applies a key once: a retry returns the stored row, concurrent retries write one event", async () => {
    const p = await makeProject(db);
    const ann = await makeUser(db);
    const [item, item2] = await makeAssignedItems(db, p.id, 2, [ann]);
    const k = key();
    const first = await submitJudgement(db, ann.id, {
      ...grade(item.id, 2, 31.5, k),
      notes: "near the end",
      flags: ["unsure"],
      timeSpentMs: 4200,
    });
    expect(first.applied).toBe(true);
    expect(first.judgement).toMatchObject({
      grade: 2,
      startSeconds: 31.5,
      endSeconds: null,
      notes: "near the end",
      flags: '["unsure"]',
      timeSpentMs: 4200,
      idempotencyKey: k,
    });
    const retry = await submitJudgement(db, ann.id, grade(item.id, 2, 31.5, k));
    expect(retry).toEqual({ applied: false, judgement: first.judgement });
    const events = await db.labelEvent.findMany({ where: { poolItemId: item.id } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: "judgement", actorId: ann.id, before: null, idempotencyKey: k });
    expect(JSON.parse(events[0].after)).toEqual({
      grade: 2,
      startSeconds: 31.5,
      endSeconds: null,
      notes: "near the end",
      flags: ["unsure"],
      timeSpentMs: 4200,
    });

    // Five copies of one submission at once (a client retrying over a flaky network).
    const k2 = key();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => submitJudgement(db, ann.id, grade(item2.id, 1, 10, k2))),
    );
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await db.labelEvent.count({ where: { idempotencyKey: k2 } })).toBe(1);
    expect(await db.judgement.count({ where: { poolItemId: item2.id } })).toBe(1);
  });

  it("accepts every edit the same way, recording before and after; the reference follows the editing rule", async () => {
    const p = await makeProject(db); // any_difference, 2 annotators per item
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const [item, agreed] = await makeAssignedItems(db, p.id, 2, [a, b]);
    await submitJudgement(db, a.id, grade(item.id, 3, 40));
    await submitJudgement(db, b.id, grade(item.id, 1, 40)); // disagree (any_difference): disputed for good
    const disputedAt = (await db.poolItem.findUniqueOrThrow({ where: { id: item.id } })).disputedAt;
    expect(disputedAt).toBeInstanceOf(Date);
    const edit = await submitJudgement(db, b.id, grade(item.id, 3, 50)); // now 3/3, starts 40 and 50: would agree
    expect(edit.applied).toBe(true);
    const events = await db.labelEvent.findMany({
      where: { poolItemId: item.id, actorId: b.id },
      orderBy: { id: "asc" },
    });
    expect(events).toHaveLength(2);
    expect(JSON.parse(events[0].before ?? "null")).toBeNull();
    expect(JSON.parse(events[1].before!)).toMatchObject({ grade: 1, startSeconds: 40 });
    expect(JSON.parse(events[1].after)).toMatchObject({ grade: 3, startSeconds: 50 });
    // Editing on is accepted too (no 409 that would tell the peer's grade), and stays disputed.
    expect((await submitJudgement(db, a.id, grade(item.id, 2, 40))).applied).toBe(true);
    expect((await db.poolItem.findUniqueOrThrow({ where: { id: item.id } })).disputedAt).toEqual(disputedAt);
    expect(await itemStatus(db, item.id)).toEqual({
      poolItemId: item.id,
      stage: "awaiting_adjudication",
      decision: { state: "disagreed" },
      final: null,
      judgements: 2,
      disputed: true,
      editedAfterDecision: false,
    });
    expect((await judgementsForItem(db, item.id)).map((j) => [j.userId, j.grade])).toEqual([
      [a.id, 2],
      [b.id, 3],
    ]);

    // An agreed item follows its annotators' edits while they agree, and becomes disputed when they do not.
    await submitJudgement(db, a.id, grade(agreed.id, 3, 40));
    await submitJudgement(db, b.id, grade(agreed.id, 3, 50));
    // 3/3 with starts 40 and 50 → agreed 3 at (40 + 50) / 2 = 45.
    expect((await itemStatus(db, agreed.id))?.final).toEqual({
      grade: 3,
      startSeconds: 45,
      endSeconds: null,
      status: "agreed",
    });
    await submitJudgement(db, b.id, grade(agreed.id, 3, 44)); // still agreed: (40 + 44) / 2 = 42
    expect((await itemStatus(db, agreed.id))?.final).toEqual({
      grade: 3,
      startSeconds: 42,
      endSeconds: null,
      status: "agreed",
    });
    expect((await db.poolItem.findUniqueOrThrow({ where: { id: agreed.id } })).disputedAt).toBeNull();
    await submitJudgement(db, b.id, grade(agreed.id, 0));
    await submitJudgement(db, b.id, grade(agreed.id, 3, 40)); // agree again: too late
    expect(await itemStatus(db, agreed.id)).toMatchObject({
      stage: "awaiting_adjudication",
      final: null,
      disputed: true,
    });
    expect(await itemStatus(db, "missing")).toBeNull();
  });

  it("keeps the time spent when a re-submission changes nothing (a second look is not grading); an edit records its own time", async () => {
    const p = await makeProject(db);
    const ann = await makeUser(db);
    const [item] = await makeAssignedItems(db, p.id, 1, [ann]);
    const first = {
      ...grade(item.id, 2, 12.5),
      notes: "near the end",
      flags: ["unsure", "transcript_error"] satisfies TJudgementInput["flags"],
      timeSpentMs: 51_214,
    };
    await submitJudgement(db, ann.id, first);
    // The same grade, start, notes and flags (flags in another order), 725 ms after opening the item again.
    const again = await submitJudgement(db, ann.id, {
      ...first,
      flags: ["transcript_error", "unsure"] satisfies TJudgementInput["flags"],
      timeSpentMs: 725,
      idempotencyKey: key(),
    });
    expect(again.judgement.timeSpentMs).toBe(51_214);
    expect((await db.judgement.findFirstOrThrow({ where: { poolItemId: item.id } })).timeSpentMs).toBe(51_214);
    // A real edit (another grade) is timed as submitted.
    await submitJudgement(db, ann.id, { ...first, grade: 3, timeSpentMs: 3_000, idempotencyKey: key() });
    expect((await db.judgement.findFirstOrThrow({ where: { poolItemId: item.id } })).timeSpentMs).toBe(3_000);
    // So is a changed note alone.
    await submitJudgement(db, ann.id, { ...first, grade: 3, notes: "", timeSpentMs: 900, idempotencyKey: key() });
    expect((await db.judgement.findFirstOrThrow({ where: { poolItemId: item.id } })).timeSpentMs).toBe(900);
  });
});

describe("submitJudgement on a busy database", () => {
  it.runIf(process.env.TEST_DATABASE_URL === undefined || !/^postgres/.test(process.env.TEST_DATABASE_URL))(
    "SQLite: waits for another connection's write lock without blocking this process, then applies the grade once",
    async () => {
      const p = await makeProject(db);
      const ann = await makeUser(db);
      const [item] = await makeAssignedItems(db, p.id, 1, [ann]);
      // Another writer (an import, or a Prisma transaction of this process) holds the lock.
      const { default: Database } = await import("better-sqlite3");
      const { readDbConfig } = await import("../../lib/db/config.ts");
      const config = readDbConfig();
      if (config.provider !== "sqlite") throw new Error("expected SQLite");
      const other = new Database(config.file);
      other.exec("BEGIN IMMEDIATE");
      let released = false;
      // This timer can only fire if the pending submission leaves the event loop free.
      setTimeout(() => {
        other.exec("COMMIT");
        released = true;
      }, 150);
      const result = await submitJudgement(db, ann.id, grade(item.id, 2, 5));
      other.close();
      expect(released).toBe(true);
      expect(result.applied).toBe(true);
      expect(await db.labelEvent.count({ where: { poolItemId: item.id } })).toBe(1);
    },
  );
});

/** Where a chunk is in the video, as reference labels carry it, read from the database. */
async function placeOf(chunkId: number) {
  const c = await db.chunk.findUniqueOrThrow({
    where: { id: chunkId },
    select: {
      startSeconds: true,
      endSeconds: true,
      video: { select: { externalId: true } },
      chunking: { select: { name: true } },
    },
  });
  return { video: c.video.externalId, chunkStart: c.startSeconds, chunkEnd: c.endSeconds, chunking: c.chunking.name };
}

describe("reference labels and stages", () => {
  it("combine agreed, awaiting, assigned, unassigned and imported pairs; a human final label wins over an import", async () => {
    const p = await makeProject(db, { startToleranceSeconds: 10 });
    const [a, b] = [await makeUser(db), await makeUser(db)];
    const items = await makeAssignedItems(db, p.id, 4, [a, b], "q1");
    // item 0: agreed 2, starts 20 and 30 → mean 25. item 1: 2 vs 2 but starts 0 and 11 > 10 → awaiting.
    // item 2: one grade only → assigned. item 3: nothing → assigned.
    await submitJudgement(db, a.id, grade(items[0].id, 2, 20));
    await submitJudgement(db, b.id, grade(items[0].id, 2, 30));
    await submitJudgement(db, a.id, grade(items[1].id, 2, 0));
    await submitJudgement(db, b.id, grade(items[1].id, 2, 11));
    await submitJudgement(db, a.id, grade(items[2].id, 0));
    // An unassigned pool item, and an import covering item 0 (overridden) and a pair outside the pool.
    const q = await db.query.findFirstOrThrow({ where: { projectId: p.id, externalId: "q1" } });
    const extra = await makeChunks(db, p.id, ["x1", "x2"]);
    await db.poolItem.create({ data: { projectId: p.id, queryId: q.id, chunkId: extra.get("x1")!.id } });
    await db.referenceLabel.createMany({
      data: [
        { projectId: p.id, source: "old", queryId: q.id, chunkId: items[0].chunkId, grade: 0 },
        { projectId: p.id, source: "old", queryId: q.id, chunkId: extra.get("x2")!.id, grade: 3, startSeconds: 12 },
      ],
    });
    expect(await referenceLabels(db, p.id)).toEqual([
      {
        queryId: q.id,
        chunkId: items[0].chunkId,
        qid: "q1",
        docid: "q1-c1",
        poolItemId: items[0].id,
        grade: 2,
        startSeconds: 25,
        endSeconds: null,
        status: "agreed",
        annotators: 2,
        source: null,
        flags: [],
        notes: [],
        revision: null,
        ...(await placeOf(items[0].chunkId)),
      },
      {
        queryId: q.id,
        chunkId: extra.get("x2")!.id,
        qid: "q1",
        docid: "x2",
        poolItemId: null,
        grade: 3,
        startSeconds: 12,
        endSeconds: null,
        status: "imported",
        annotators: 0,
        source: "old",
        flags: [],
        notes: [],
        revision: null,
        ...(await placeOf(extra.get("x2")!.id)),
      },
    ]);
    expect(await stageCounts(db, p.id)).toEqual({
      unassigned: 1,
      assigned: 2,
      agreed: 1,
      awaiting_adjudication: 1,
      adjudicated: 0,
      imported: 1,
      total: 6,
      imported_pooled: 1,
      imported_regrading: 1,
    });
    const other = await makeProject(db);
    await makeQueries(db, other.id, ["z"]);
    expect(await stageCounts(db, other.id)).toMatchObject({ total: 0 });
  });
});
