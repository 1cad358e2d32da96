import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { buildPool } from "../../lib/pooling/build.ts";
import { importQueries } from "../../lib/imports/queries.ts";
import { exportQuestions } from "../../lib/questions/export.ts";
import {
  createQuestion,
  questionHistory,
  requireAuthor,
  updateQuestion,
  writeContext,
  writeTranscript,
} from "../../lib/questions/store.ts";
import { importQueryLog } from "../../lib/questions/log-import.ts";
import { reviewData } from "../../lib/questions/review.ts";
import { AppError, httpStatus, ValidationError } from "../../lib/errors.ts";
import { makeChunks, makeProject, makeRun, makeUser } from "../helpers/factories.ts";

/**
 * Questions written and reviewed in Assessor, on the suite's database (SQLite, or
 * PostgreSQL with TEST_DATABASE_URL): several answer places, drafts never pooled, edit history,
 * who may write (an annotator without the project's permission is refused with 403), query logs.
 */
useTestDatabase();
let db: Db;
let tmp: string;
const file = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  tmp = mkdtempSync(join(tmpdir(), "questions-test-"));
});

describe("import and export with several answer places", () => {
  it("keeps the old single form, accepts places, and writes them back", async () => {
    const p = await makeProject(db);
    const chunks = await makeChunks(db, p.id, ["a1", "a2"]);
    const v1 = (await db.chunk.findUniqueOrThrow({ where: { id: chunks.get("a1")!.id }, include: { video: true } }))
      .video.externalId;
    const f = file(
      "q.jsonl",
      `{"id":"q1","text":"what is pooling?","author":"ana","start":31,"video":"${v1}","tags":["concept"]}\n{"id":"q2","text":"who introduced kappa?","places":[{"video":"${v1}","start":5,"end":9},{"video":"${v1}","start":40}]}\n`,
    );
    expect(await importQueries(db, p.id, f)).toMatchObject({ created: 2 });
    const qs = await db.query.findMany({
      where: { projectId: p.id },
      include: { places: { orderBy: { id: "asc" } } },
      orderBy: { externalId: "asc" },
    });
    expect(
      qs.map((q) => [q.externalId, q.status, q.authorId, q.places.map((x) => [x.startSeconds, x.endSeconds])]),
    ).toEqual([
      ["q1", "accepted", null, [[31, null]]],
      [
        "q2",
        "accepted",
        null,
        [
          [5, 9],
          [40, null],
        ],
      ],
    ]);
    const out = await exportQuestions(db, p.id, "jsonl");
    expect(out.content.split("\n")[1]).toBe(
      `{"id":"q2","text":"who introduced kappa?","status":"accepted","author":null,"tags":[],"places":[{"video":"${v1}","start":5,"end":9},{"video":"${v1}","start":40,"end":null}]}`,
    );
    // The export reads back unchanged; a changed place is one QueryEvent (actor null: an import).
    expect(await importQueries(db, p.id, { name: "back.jsonl", bytes: Buffer.from(out.content) })).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 2,
    });
    await importQueries(db, p.id, {
      name: "moved.jsonl",
      bytes: Buffer.from(
        `{"id":"q1","text":"what is pooling?","author":"ana","start":33,"video":"${v1}","tags":["concept"]}\n`,
      ),
    });
    const q1 = qs[0];
    const h = await questionHistory(db, p.id, q1.id);
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({
      actor: null,
      before: { places: [{ video: v1, start: 31, end: null }] },
      after: { places: [{ video: v1, start: 33, end: null }] },
    });
    // Read as changes: only the place moved.
    expect(h[0].changes).toEqual([{ field: "places", before: `${v1} 0:31`, after: `${v1} 0:33` }]);
    expect((await exportQuestions(db, p.id, "trec")).content).toBe(
      "<top>\n<num> Number: q1\n<title> what is pooling?\n</top>\n\n<top>\n<num> Number: q2\n<title> who introduced kappa?\n</top>\n\n",
    );
    // Places and the single form together: a located error, nothing written.
    const bad = file(
      "bad.jsonl",
      `{"id":"q3","text":"t","start":3,"places":[{"video":"${v1}","start":1}]}\n{"id":"q4","text":"t","places":[{"video":"nope","start":1}]}\n`,
    );
    const e = await importQueries(db, p.id, bad).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).errors.map((x) => [x.line, x.field])).toEqual([
      [1, "places"],
      [2, "places[0].video"],
    ]);
    expect(await db.query.count({ where: { projectId: p.id } })).toBe(2);
  });
});

describe("writing, review and pooling", () => {
  it("pools accepted questions only, and a draft once accepted; keeps the edit history", async () => {
    const p = await makeProject(db);
    const lead = await makeUser(db, { role: "lead", name: "Lea" });
    const chunks = await makeChunks(db, p.id, ["c1", "c2", "c3"]);
    const videoId = (await db.chunk.findUniqueOrThrow({ where: { id: chunks.get("c1")!.id } })).videoId;
    const accepted = await createQuestion(db, p.id, lead.id, {
      text: "what is in c1?",
      tags: ["t"],
      places: [{ videoId, start: 3, end: null }],
      status: "accepted",
    });
    const draft = await createQuestion(db, p.id, lead.id, {
      text: "what is in c2?",
      tags: [],
      places: [
        { videoId, start: 31, end: 40 },
        { videoId, start: 61, end: null },
      ],
      status: "draft",
    });
    expect([accepted.qid, accepted.author, draft.qid, draft.places.length]).toEqual(["w1", "Lea", "w2", 2]);
    const queries = new Map([
      [accepted.qid, { id: accepted.id }],
      [draft.qid, { id: draft.id }],
    ]);
    await makeRun(
      db,
      p.id,
      "A",
      [
        ["w1", "c1", 3],
        ["w1", "c2", 2],
        ["w2", "c2", 3],
        ["w2", "c3", 1],
      ],
      { queries, chunks },
    );
    await buildPool(db, p.id, { depth: 10 });
    const pooled = async () =>
      (await db.poolItem.findMany({ where: { projectId: p.id }, select: { queryId: true } })).map((i) => i.queryId);
    expect(new Set(await pooled())).toEqual(new Set([accepted.id]));

    await updateQuestion(db, p.id, draft.id, lead.id, { text: "what is said in c2?" });
    await updateQuestion(db, p.id, draft.id, lead.id, { status: "accepted" });
    await buildPool(db, p.id, { depth: 10 });
    expect(new Set(await pooled())).toEqual(new Set([accepted.id, draft.id]));
    const h = await questionHistory(db, p.id, draft.id);
    expect(h.map((e) => [e.actor, e.before?.status ?? null, e.after.text, e.after.status])).toEqual([
      ["Lea", null, "what is in c2?", "draft"],
      ["Lea", "draft", "what is said in c2?", "draft"],
      ["Lea", "draft", "what is said in c2?", "accepted"],
    ]);
    // Readable changes, not JSON: the creation lists what was written, each edit what changed.
    const video = (await db.video.findUniqueOrThrow({ where: { id: videoId } })).externalId;
    expect(h.map((e) => e.changes)).toEqual([
      [
        { field: "text", before: null, after: "what is in c2?" },
        { field: "status", before: null, after: "draft" },
        { field: "places", before: null, after: `${video} 0:31–0:40; ${video} 1:01` },
      ],
      [{ field: "text", before: "what is in c2?", after: "what is said in c2?" }],
      [{ field: "status", before: "draft", after: "accepted" }],
    ]);
    const review = await reviewData(db, p.id);
    expect(review.byAuthor).toEqual([expect.objectContaining({ key: "Lea", questions: 2, accepted: 2 })]);
    // "what is in c1?" → content terms {c1}; the chunk text "text of c1" holds it: overlap 1, BM25 rank 1 of 3.
    expect(review.questions.find((q) => q.qid === "w1")).toMatchObject({
      overlap: 1,
      bm25Rank: 1,
      bm25Of: 3,
      flagged: true,
    });

    // The review keeps each video's BM25 index between calls; a changed chunk text is measured afresh.
    // c1's text no longer holds "c1" and no other chunk does: overlap 0 (none of {c1} found), rank 1 of 3 (every score 0, ties go to the answer's chunk).
    await db.chunk.update({ where: { id: chunks.get("c1")!.id }, data: { text: "something else entirely" } });
    expect((await reviewData(db, p.id)).questions.find((q) => q.qid === "w1")).toMatchObject({
      overlap: 0,
      bm25Rank: 1,
      bm25Of: 3,
      flagged: false,
    });
    await db.chunk.update({ where: { id: chunks.get("c1")!.id }, data: { text: "text of c1" } });
    expect((await reviewData(db, p.id)).questions.find((q) => q.qid === "w1")).toMatchObject({
      overlap: 1,
      bm25Rank: 1,
      bm25Of: 3,
      flagged: true,
    });
  });

  it("lets leads write, annotators only where allowed (403 otherwise), and shows annotators only their own questions", async () => {
    const p = await makeProject(db);
    const [lead, ann, other, adj] = await Promise.all([
      makeUser(db, { role: "lead" }),
      makeUser(db, { role: "annotator" }),
      makeUser(db, { role: "annotator" }),
      makeUser(db, { role: "adjudicator" }),
    ]);
    const chunks = await makeChunks(db, p.id, ["d1"]);
    const videoId = (await db.chunk.findUniqueOrThrow({ where: { id: chunks.get("d1")!.id } })).videoId;
    const refused = async (f: () => Promise<unknown>) => {
      const e = await f().catch((x: unknown) => x);
      expect(e).toBeInstanceOf(AppError);
      expect(httpStatus[(e as AppError).code]).toBe(403);
    };
    await expect(requireAuthor(db, p.id, lead)).resolves.toEqual({ transcriptWhileWriting: false });
    await refused(() => requireAuthor(db, p.id, ann));
    await refused(() => requireAuthor(db, p.id, adj));
    await refused(() => writeContext(db, p.id, ann));
    await db.project.update({ where: { id: p.id }, data: { annotatorsMayAuthor: true } });
    await refused(() => requireAuthor(db, p.id, adj));
    await createQuestion(db, p.id, other.id, {
      text: "someone else's draft",
      tags: ["secret-tag"],
      places: [{ videoId, start: 1, end: null }],
      status: "draft",
    });
    await createQuestion(db, p.id, ann.id, {
      text: "mine",
      tags: ["mine"],
      places: [{ videoId, start: 2, end: null }],
      status: "draft",
    });
    const ctx = await writeContext(db, p.id, ann);
    expect(ctx.mine.map((q) => q.text)).toEqual(["mine"]);
    expect(ctx.tags).toEqual(["mine"]);
    expect(ctx.isLead).toBe(false);
    // The transcript stays hidden unless the lead allows it.
    await refused(() => writeTranscript(db, p.id, videoId, ann));
    await db.project.update({ where: { id: p.id }, data: { transcriptWhileWriting: true } });
    expect(await writeTranscript(db, p.id, videoId, ann)).toEqual([{ start: 0, end: 30, text: "text of d1" }]);
  });
});

describe("the review, bounded at 5,000 questions", () => {
  it("groups 5,000 identical questions as one near-duplicate group and answers a bounded page, in bounded time and memory", async () => {
    const p = await makeProject(db);
    const ann = await makeUser(db, { role: "annotator" });
    const chunks = await makeChunks(db, p.id, ["s1", "s2", "s3"]);
    const videoId = (await db.chunk.findUniqueOrThrow({ where: { id: chunks.get("s1")!.id } })).videoId;
    const N = 5000;
    await db.query.createMany({
      data: Array.from({ length: N }, (_, i) => ({
        projectId: p.id,
        externalId: `w${String(i + 1).padStart(4, "0")}`,
        text: "What is in s1?",
        status: "draft" as const,
        authorId: ann.id,
      })),
    });
    const ids = (await db.query.findMany({ where: { projectId: p.id }, select: { id: true } })).map((q) => q.id);
    await db.queryPlace.createMany({ data: ids.map((queryId) => ({ queryId, videoId, startSeconds: 3 })) });
    await db.query.create({
      data: { projectId: p.id, externalId: "x1", text: "Who speaks in s3?", status: "accepted" },
    });

    global.gc?.();
    const heap0 = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    const review = await reviewData(db, p.id);
    const seconds = (performance.now() - t0) / 1000;
    const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
    const bytes = JSON.stringify(review).length;
    // Generous bounds (the report was 8.2 s, 2.1 GB and a failure at 5,000): seconds on an idle machine are tenths.
    expect(seconds).toBeLessThan(10);
    expect(heapMb).toBeLessThan(300);
    expect(bytes).toBeLessThan(500_000);
    expect(review.page).toEqual({ offset: 0, limit: 100, total: N + 1 });
    expect(review.questions).toHaveLength(100);
    expect(review.duplicates).toMatchObject({ total: 1, questions: N, complete: true });
    expect(review.duplicates.clusters[0]).toMatchObject({ index: 0, size: N, similarity: 1 });
    expect(review.duplicates.clusters[0].questions).toHaveLength(20);
    expect(review.questions[0].cluster).toEqual({
      index: 0,
      size: N,
      others: ["w0002", "w0003", "w0004", "w0005", "w0006"],
    });
    expect(review.byAuthor).toEqual([
      expect.objectContaining({ key: ann.name, questions: N, draft: N }),
      expect.objectContaining({ key: "(no author)", questions: 1 }),
    ]);
    expect(review.videos.map((v) => v.id)).toEqual([videoId]);
    // The last page: one 'w' and the 'x'; the 'x' is in no group and has no video.
    const last = await reviewData(db, p.id, { offset: N - 1, limit: 100 });
    expect(last.questions.map((q) => [q.qid, q.cluster?.size ?? null])).toEqual([
      ["w5000", N],
      ["x1", null],
    ]);
    expect((await reviewData(db, p.id, { offset: N + 1 })).videos).toEqual([]);
  }, 120_000);

  it("shows one name per person: an imported author naming a user's email, its local part or name reads as that user's name", async () => {
    const p = await makeProject(db);
    const lee = await makeUser(db, { role: "lead", name: "Lee Leadwell", email: "lee.leadwell@example.com" });
    const chunks = await makeChunks(db, p.id, ["n1"]);
    const videoId = (await db.chunk.findUniqueOrThrow({ where: { id: chunks.get("n1")!.id } })).videoId;
    await createQuestion(db, p.id, lee.id, {
      text: "written on the page",
      tags: [],
      places: [{ videoId, start: 1, end: null }],
      status: "accepted",
    });
    for (const [qid, author] of [
      ["i1", "lee.leadwell"],
      ["i2", "LEE.LEADWELL@example.com"],
      ["i3", "lee leadwell"],
      ["i4", "someone else"],
    ])
      await db.query.create({
        data: { projectId: p.id, externalId: qid, text: `imported ${qid}`, author, status: "accepted" },
      });
    const review = await reviewData(db, p.id);
    expect(review.questions.map((q) => [q.qid, q.author])).toEqual([
      ["i1", "Lee Leadwell"],
      ["i2", "Lee Leadwell"],
      ["i3", "Lee Leadwell"],
      ["i4", "someone else"],
      ["w1", "Lee Leadwell"],
    ]);
    expect(review.byAuthor.map((g) => [g.key, g.questions])).toEqual([
      ["Lee Leadwell", 4],
      ["someone else", 1],
    ]);
  });
});

describe("query logs", () => {
  it("refuses a bad line naming file, line and field, writing nothing", async () => {
    const p = await makeProject(db);
    const f = file(
      "bad-log.jsonl",
      '{"text":"what is bm25","time":"2026-01-01T00:00:00Z"}\n{"text":"","time":1}\n{"text":"x","time":"yesterday"}\n{"text":"y","time":1,"count":0}\nnot json\n',
    );
    const e = await importQueryLog(db, p.id, f).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).errors.map((x) => [x.file, x.line, x.field ?? null])).toEqual([
      ["bad-log.jsonl", 2, "text"],
      ["bad-log.jsonl", 3, "time"],
      ["bad-log.jsonl", 4, "count"],
      ["bad-log.jsonl", 5, null],
    ]);
    expect(await db.query.count({ where: { projectId: p.id } })).toBe(0);
  });

  it("numbers lines as the file does: CRLF line ends, blank lines, no newline at the end", async () => {
    const p = await makeProject(db);
    const f = file(
      "crlf-log.jsonl",
      '{"text":"what is bm25","time":1}\r\n\r\n{"text":"kappa","time":2}\r\n{"text":"","time":3}\r\n\n{"text":"x","time":"soon"}',
    );
    const e = await importQueryLog(db, p.id, f).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).errors.map((x) => [x.line, x.field ?? null])).toEqual([
      [4, "text"],
      [6, "time"],
    ]);
    const g = file(
      "crlf-ok.jsonl",
      '{"text":"what is bm25","time":1}\r\n\r\n{"text":"kappa","time":2}\r\n{"text":"What is BM25?","time":3}',
    );
    expect(await importQueryLog(db, p.id, g)).toMatchObject({ lines: 3, distinct: 2, created: 2 });
  });

  it("normalises, deduplicates and writes drafts tagged log (CSV), skipping existing questions", async () => {
    const p = await makeProject(db);
    await db.query.create({ data: { projectId: p.id, externalId: "q1", text: "Who introduced kappa?" } });
    const f = file(
      "log.csv",
      "text,time,user,count\nWhat is BM25?,2026-01-01T00:00:00Z,u1,3\nwhat is  bm25,2026-01-02T00:00:00Z,u2,\nwho introduced KAPPA,2026-01-03T00:00:00Z,,\npooling depth?,1767225600,,2\n",
    );
    expect(await importQueryLog(db, p.id, f)).toEqual({
      file: "log.csv",
      lines: 4,
      distinct: 3,
      sampled: 3,
      created: 2,
      skippedExisting: 1,
    });
    const drafts = await db.query.findMany({
      where: { projectId: p.id, status: "draft" },
      include: { tags: true },
      orderBy: { externalId: "asc" },
    });
    expect(drafts.map((q) => [q.externalId, q.text, q.tags.map((x) => x.tag)])).toEqual([
      ["log1", "What is BM25?", ["log"]],
      ["log2", "pooling depth?", ["log"]],
    ]);
    // A sample of 1 from a second log: one more draft, numbered after the existing ones.
    const g = file("log2.jsonl", '{"text":"alpha","time":1}\n{"text":"beta","time":2,"count":5}\n');
    expect(await importQueryLog(db, p.id, g, { sample: 1, strategy: "frequency", seed: 3 })).toMatchObject({
      distinct: 2,
      sampled: 1,
      created: 1,
    });
    expect(await db.query.count({ where: { projectId: p.id, externalId: "log3" } })).toBe(1);
  });
});
