import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { createTestDatabase, type TestDb } from "../helpers/db.ts";
import type { Db } from "../../lib/db/client.ts";
import { makeAssignedItems, makeProject, makeUser } from "../helpers/factories.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";
import { adjudicate } from "../../lib/adjudication/decide.ts";
import { adjudicationQueue } from "../../lib/adjudication/queue.ts";
import { exportLabels } from "../../lib/exports/labels.ts";
import { referenceLabels } from "../../lib/labels/reference.ts";
import { questionReferenceSpans } from "../../lib/chunkings/transfer.ts";
import { dashboardData, clearDashboardCache } from "../../lib/dashboard/data.ts";
import { answerPlacesByQuery } from "../../lib/dashboard/time.ts";
import { AppError, httpStatus } from "../../lib/errors.ts";

/**
 * The annotator's answer end (the `e` key beside the corrected start), on the database in use
 * (SQLite, or PostgreSQL with TEST_DATABASE_URL): stored with the judgement, refused with a 422
 * naming endSeconds when it is not after the start (or the chunk's start), agreed as the mean of
 * the ends marked, carried by the adjudicator's queue and decision, exported in JSONL and CSV
 * (qrels unchanged), and read by the reference spans (a grade-3 label's [start, end]).
 *
 * Items (makeAssignedItems): i1 is chunk [0, 30], i2 chunk [30, 60], both of one question, each
 * assigned to annotators a and b; two annotators per item, any grade difference disagrees, starts
 * agree within 15 s.
 */
let t: TestDb;
let db: Db;

beforeAll(async () => {
  t = await createTestDatabase();
  db = await (await import("../../lib/db/client.ts")).getDb();
});
afterAll(async () => t.cleanup());

const judged = (poolItemId: string, userId: string) =>
  db.judgement.findUniqueOrThrow({ where: { poolItemId_userId: { poolItemId, userId } } });

/** The AppError a promise rejects with (fails the test when it resolves). */
async function refusal(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe("the answer end", () => {
  it("is stored, refused when not after the start, agreed, adjudicated, exported and read as a span", async () => {
    const p = await makeProject(db, {
      name: "answer-end",
      annotatorsPerItem: 2,
      disagreementRule: "any_difference",
      startToleranceSeconds: 15,
    });
    const [a, b, adj] = [
      await makeUser(db, { role: "annotator" }),
      await makeUser(db, { role: "annotator" }),
      await makeUser(db, { role: "adjudicator" }),
    ];
    const [i1, i2] = await makeAssignedItems(db, p.id, 2, [a, b], "qe");
    const base = { notes: "", flags: [], timeSpentMs: 1000 };

    // a on i2: grade 3 from 35 s to 48 s.
    const first = await submitJudgement(db, a.id, {
      ...base,
      poolItemId: i2.id,
      grade: 3,
      startSeconds: 35,
      endSeconds: 48,
      idempotencyKey: "end-a-i2-1",
    });
    expect(first.judgement.endSeconds).toBe(48);
    expect((await judged(i2.id, a.id)).endSeconds).toBe(48);

    // An end at the start (35 = 35) is refused: 422 naming endSeconds; the stored label and history stay.
    const events = await db.labelEvent.count({ where: { poolItemId: i2.id } });
    const atStart = await refusal(
      submitJudgement(db, a.id, {
        ...base,
        poolItemId: i2.id,
        grade: 3,
        startSeconds: 35,
        endSeconds: 35,
        idempotencyKey: "end-a-i2-2",
      }),
    );
    expect(httpStatus[atStart.code]).toBe(422);
    expect(atStart.message).toMatch(/^endSeconds: expected the answer's end after its start \(35 s\), got 35 s/);
    // Without a corrected start, the end must be after the chunk's start (i2's chunk starts at 30 s).
    const beforeChunk = await refusal(
      submitJudgement(db, a.id, {
        ...base,
        poolItemId: i2.id,
        grade: 3,
        startSeconds: null,
        endSeconds: 30,
        idempotencyKey: "end-a-i2-3",
      }),
    );
    expect(httpStatus[beforeChunk.code]).toBe(422);
    expect(beforeChunk.message).toMatch(/^endSeconds: expected the answer's end after the chunk's start \(30 s\)/);
    expect(beforeChunk.details).toEqual([{ path: "endSeconds", message: "expected after 30 s" }]);
    const kept = await judged(i2.id, a.id);
    expect([kept.startSeconds, kept.endSeconds, kept.idempotencyKey]).toEqual([35, 48, "end-a-i2-1"]);
    expect(await db.labelEvent.count({ where: { poolItemId: i2.id } })).toBe(events);

    // b on i2: 3 from 40 s to 52 s → agreed grade 3, start (35 + 40) / 2 = 37.5, end (48 + 52) / 2 = 50.
    await submitJudgement(db, b.id, {
      ...base,
      poolItemId: i2.id,
      grade: 3,
      startSeconds: 40,
      endSeconds: 52,
      idempotencyKey: "end-b-i2-1",
    });
    // i1: a says 1 (5 s – 20 s), b says 3 (10 s – 25 s): they disagree.
    await submitJudgement(db, a.id, {
      ...base,
      poolItemId: i1.id,
      grade: 1,
      startSeconds: 5,
      endSeconds: 20,
      idempotencyKey: "end-a-i1-1",
    });
    await submitJudgement(db, b.id, {
      ...base,
      poolItemId: i1.id,
      grade: 3,
      startSeconds: 10,
      endSeconds: 25,
      idempotencyKey: "end-b-i1-1",
    });

    // The adjudicator sees each annotator's end beside their start.
    const [waiting] = await adjudicationQueue(db, p.id);
    expect(waiting.poolItemId).toBe(i1.id);
    expect(waiting.labels.map((l) => [l.label, l.grade, l.startSeconds, l.endSeconds])).toEqual([
      ["A", 1, 5, 20],
      ["B", 3, 10, 25],
    ]);

    // A decision whose end is not after its start is refused and writes nothing.
    const bad = await refusal(
      adjudicate(db, adj.id, {
        poolItemId: i1.id,
        grade: 3,
        startSeconds: 8,
        endSeconds: 7.5,
        rationale: "",
        idempotencyKey: "end-adj-1",
      }),
    );
    expect(httpStatus[bad.code]).toBe(422);
    expect(bad.message).toMatch(/^endSeconds: expected the answer's end after the final start \(8 s\), got 7.5 s/);
    expect(await db.adjudication.count({ where: { poolItemId: i1.id } })).toBe(0);
    const made = await adjudicate(db, adj.id, {
      poolItemId: i1.id,
      grade: 3,
      startSeconds: 8,
      endSeconds: 24,
      rationale: "B hears it",
      idempotencyKey: "end-adj-2",
    });
    expect([made.adjudication.startSeconds, made.adjudication.endSeconds]).toEqual([8, 24]);

    // Exports: JSONL and CSV carry the end; qrels stay `qid 0 docid grade`.
    const jsonl = (await exportLabels(db, p.id, "jsonl")).content
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jsonl.map((r) => [r.chunk, r.grade, r.start, r.end, r.status])).toEqual([
      [i1.docid, 3, 8, 24, "adjudicated"],
      [i2.docid, 3, 37.5, 50, "agreed"],
    ]);
    const csv = parse((await exportLabels(db, p.id, "csv")).content, { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => [r.chunk, r.start, r.end])).toEqual([
      [i1.docid, "8", "24"],
      [i2.docid, "37.5", "50"],
    ]);
    expect((await exportLabels(db, p.id, "qrels")).content).toBe(`qe 0 ${i1.docid} 3\nqe 0 ${i2.docid} 3\n`);

    // Reference spans (lib/stats/time/reference.ts): each grade-3 label's [start, end], in start order;
    // the transfer's reading (videos by external id) and the dashboard's (internal id) agree.
    const queryId = i1.queryId;
    const video = await db.chunk.findUniqueOrThrow({ where: { id: i1.chunkId }, include: { video: true } });
    const spans = await questionReferenceSpans(db, [queryId], await referenceLabels(db, p.id));
    expect(spans.get(queryId)).toEqual([
      { video: video.video.externalId, start: 8, end: 24 },
      { video: video.video.externalId, start: 37.5, end: 50 },
    ]);
    clearDashboardCache();
    const { data } = await dashboardData(db, p.id);
    expect(answerPlacesByQuery(data).get(queryId)).toEqual([
      { video: String(video.videoId), start: 8, end: 24 },
      { video: String(video.videoId), start: 37.5, end: 50 },
    ]);
  });
});
