import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeProject, makeQueries, makeUser, makeVideo } from "../helpers/factories.ts";
import { runCli } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";
import { AppError, ValidationError, type LocatedError } from "../../lib/errors.ts";
import { ensureChunking } from "../../lib/chunkings/store.ts";
import { importAnswers } from "../../lib/answers/import.ts";

/**
 * `importAnswers` (lib/answers/import.ts) and `assessor import answers` on the suite's database
 * (SQLite, or PostgreSQL with TEST_DATABASE_URL): a good file with its rows, claims and events;
 * every error kind with file, line and field and nothing written; re-imports (no-op, refused
 * without --replace, replaced with a new claim version, refused with labels unless --force).
 */
useTestDatabase();
let db: Db;
let dir: string;
let projectId: number;
let otherProjectId: number;

const line = (o: unknown) => JSON.stringify(o);
const file = (...rows: unknown[]) => rows.map((r) => (typeof r === "string" ? r : line(r))).join("\n") + "\n";

async function snapshot() {
  const order = { orderBy: { id: "asc" as const } };
  return {
    answers: await db.answer.findMany({ orderBy: [{ system: "asc" }, { queryId: "asc" }] }),
    context: await db.answerContext.findMany({ orderBy: [{ answerId: "asc" }, { position: "asc" }] }),
    claims: await db.answerClaim.findMany(order),
    events: await db.answerEvent.findMany(order),
    judgements: await db.answerJudgement.findMany(order),
    records: await db.importRecord.count(),
  };
}

/** Runs the import, expects a ValidationError, checks that nothing was written, returns its errors. */
async function errorsOf(
  text: string,
  opts: Parameters<typeof importAnswers>[3] = {},
  system = "sys-err",
): Promise<LocatedError[]> {
  const before = await snapshot();
  const e = await importAnswers(db, projectId, { system, fileName: "answers.jsonl", text }, opts).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ValidationError);
  expect(await snapshot()).toEqual(before);
  return (e as ValidationError).errors;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "answers-import-"));
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  projectId = (await makeProject(db, { name: "gen" })).id;
  await makeChunks(db, projectId, ["k1", "k2", "k3"]);
  await makeQueries(db, projectId, ["q1", "q2", "q3"]);
  await db.query.update({
    where: { projectId_externalId: { projectId, externalId: "q3" } },
    data: { status: "draft", text: "What is a draft?" },
  });
  await db.query.update({
    where: { projectId_externalId: { projectId, externalId: "q2" } },
    data: { text: "How  does retrieval work?" },
  });
  // A second chunking sharing "k1" (ambiguous without --chunking) and holding "z1" alone.
  const c2 = await ensureChunking(db, projectId, "c2", { method: "imported" });
  const video = await makeVideo(db, projectId);
  for (const [i, externalId] of ["k1", "z1"].entries())
    await db.chunk.create({
      data: {
        chunkingId: c2.id,
        projectId,
        videoId: video.id,
        externalId,
        startSeconds: i * 10,
        endSeconds: i * 10 + 10,
        text: `c2 ${externalId}`,
      },
    });
  // Another project's chunk must not resolve.
  otherProjectId = (await makeProject(db, { name: "other" })).id;
  await makeChunks(db, otherProjectId, ["x9"]);
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe("a good file", () => {
  it("writes answers, context in order, version-1 sentence claims with offsets, an import event each and an import record; warns about a draft question", async () => {
    const text = file(
      {
        qid: "q1",
        answer: "Dr. Smith explains RAG at 2:30. It uses 3.5 chunks on average.",
        context: ["k2", "k3"],
        citations: [{ sentence: 1, chunks: ["k3"] }],
      },
      "",
      { qid: "q3", answer: "A draft is unfinished.", context: ["k3"] },
    );
    const r = await importAnswers(
      db,
      projectId,
      { system: "gpt-a", fileName: "a.jsonl", text },
      { chunking: "default" },
    );
    expect(r).toMatchObject({
      kind: "answers",
      file: "a.jsonl",
      rows: 2,
      created: 2,
      updated: 0,
      unchanged: 0,
      system: "gpt-a",
      chunking: "default",
      claims: 3,
      labelsRemoved: 0,
    });
    expect(r.warnings).toEqual([
      {
        file: "a.jsonl",
        line: 3,
        field: "qid",
        message:
          'question "q3" is a draft: its answer is imported but not assigned or evaluated until the question is accepted',
      },
    ]);

    const q1 = await db.query.findUniqueOrThrow({ where: { projectId_externalId: { projectId, externalId: "q1" } } });
    const a = await db.answer.findUniqueOrThrow({
      where: { projectId_system_queryId: { projectId, system: "gpt-a", queryId: q1.id } },
      include: {
        context: { include: { chunk: true }, orderBy: { position: "asc" } },
        claims: { orderBy: { position: "asc" } },
        events: true,
      },
    });
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.claimVersion).toBe(1);
    expect(JSON.parse(a.citations!)).toEqual([{ sentence: 1, chunks: ["k3"] }]);
    expect(a.context.map((c) => [c.position, c.chunk.externalId])).toEqual([
      [0, "k2"],
      [1, "k3"],
    ]);
    // "Dr. Smith explains RAG at 2:30." is 31 characters; the second sentence starts after the space at 31.
    expect(
      a.claims.map((c) => ({
        version: c.version,
        position: c.position,
        text: c.text,
        startChar: c.startChar,
        endChar: c.endChar,
        source: c.source,
      })),
    ).toEqual([
      {
        version: 1,
        position: 0,
        text: "Dr. Smith explains RAG at 2:30.",
        startChar: 0,
        endChar: 31,
        source: "sentence",
      },
      {
        version: 1,
        position: 1,
        text: "It uses 3.5 chunks on average.",
        startChar: 32,
        endChar: 62,
        source: "sentence",
      },
    ]);
    expect(a.events).toHaveLength(1);
    expect(a.events[0]).toMatchObject({ kind: "import", actorId: null, before: null });
    expect(JSON.parse(a.events[0].after)).toMatchObject({
      system: "gpt-a",
      qid: "q1",
      context: ["k2", "k3"],
      claimVersion: 1,
      claims: ["Dr. Smith explains RAG at 2:30.", "It uses 3.5 chunks on average."],
    });
    expect(
      await db.importRecord.findFirstOrThrow({ where: { kind: "answers" }, orderBy: { id: "desc" } }),
    ).toMatchObject({ projectId, fileName: "a.jsonl", rows: 2 });
  });

  it("accepts the field names of RAG tooling: question_id, RAGAS's user_input (the question's text), response, retrieved_context_ids", async () => {
    const text = file(
      { user_input: "How does retrieval work?", response: "It ranks chunks.", retrieved_context_ids: ["k1"] },
      { question_id: "q1", answer: "It answers.", contexts: [] },
      { query_id: "q3", response: "Unfinished.", context_ids: ["k1"] },
    );
    const r = await importAnswers(
      db,
      projectId,
      { system: "ragas", fileName: "r.jsonl", text },
      { chunking: "default" },
    );
    expect(r).toMatchObject({ created: 3, claims: 3 });
    const q2 = await db.query.findUniqueOrThrow({ where: { projectId_externalId: { projectId, externalId: "q2" } } });
    const a = await db.answer.findUniqueOrThrow({
      where: { projectId_system_queryId: { projectId, system: "ragas", queryId: q2.id } },
      include: { context: { include: { chunk: true } } },
    });
    expect(a.text).toBe("It ranks chunks.");
    expect(a.context.map((c) => c.chunk.externalId)).toEqual(["k1"]);
    expect(a.context[0].chunk.chunkingId).toBe(
      (await db.chunking.findFirstOrThrow({ where: { projectId, name: "default" } })).id,
    );
  });

  it("recognises the chunking from the ids when no --chunking is given", async () => {
    const r = await importAnswers(db, projectId, {
      system: "on-c2",
      fileName: "c2.jsonl",
      text: file({ qid: "q1", answer: "Yes.", context: ["z1", "k1"] }),
    });
    expect(r.chunking).toBe("c2");
    const a = await db.answer.findFirstOrThrow({
      where: { projectId, system: "on-c2" },
      include: { context: { include: { chunk: true }, orderBy: { position: "asc" } } },
    });
    expect(a.context.map((c) => c.chunk.text)).toEqual(["c2 z1", "c2 k1"]);
  });
});

describe("errors: file, line, field, nothing written", () => {
  it("reports every bad line of a file with its line and field", async () => {
    const text = file(
      { qid: "q1", answer: "Fine.", context: ["k1"] }, // 1: good
      "{not json", // 2
      { qid: "nope", answer: "An answer.", context: ["k1"] }, // 3: unknown question
      { qid: "q2", answer: "   ", context: ["k1"] }, // 4: empty answer
      { qid: "q1", answer: "Twice.", context: ["k1"] }, // 5: question twice
      { qid: "q3", answer: "One. Two.", context: ["k1", "x9"] }, // 6: a chunk of another project
      {
        qid: "q2",
        answer: "Cites. Badly.",
        context: ["k2"],
        citations: [
          { sentence: 2, chunks: ["k2"] },
          { sentence: 0, chunks: ["k7"] },
        ],
      }, // 7
      { qid: "q2", answer: "No context." }, // 8
      { qid: "q2", answer: "Texts.", retrieved_contexts: ["a passage"] }, // 9
      { qid: "q2", anwser: "Misspelt.", context: [] }, // 10
      [1, 2], // 11
    );
    const errors = await errorsOf(text, { chunking: "default" });
    expect(errors).toEqual([
      {
        file: "answers.jsonl",
        line: 2,
        message: expect.stringMatching(
          /^expected a JSON object \(one JSON object per line: qid, answer, context \(chunk ids in order\), optional citations\): /,
        ),
      },
      {
        file: "answers.jsonl",
        line: 3,
        field: "qid",
        message: 'unknown question "nope"; expected the id of a question of this project',
      },
      { file: "answers.jsonl", line: 4, field: "answer", message: "expected a non-empty answer" },
      {
        file: "answers.jsonl",
        line: 5,
        field: "qid",
        message: 'question "q1" is answered twice (first on line 1); expected one line per question',
      },
      {
        file: "answers.jsonl",
        line: 6,
        field: "context.1",
        message: 'unknown chunk "x9"; expected the id of a chunk of chunking "default"',
      },
      {
        file: "answers.jsonl",
        line: 7,
        field: "citations.1.chunks.0",
        message: 'unknown chunk "k7"; expected the id of a chunk of chunking "default"',
      },
      {
        file: "answers.jsonl",
        line: 7,
        field: "citations.0.sentence",
        message: "the answer has 2 sentences (0 to 1); sentence 2 does not exist",
      },
      {
        file: "answers.jsonl",
        line: 8,
        field: "context",
        message:
          "expected the context: the ids of the chunks given to the model, in order (context, contexts, context_ids or retrieved_context_ids)",
      },
      {
        file: "answers.jsonl",
        line: 9,
        field: "retrieved_contexts",
        message:
          "retrieved_contexts holds passage texts; expected the ids of the chunks given to the model, as context (or retrieved_context_ids)",
      },
      {
        file: "answers.jsonl",
        line: 10,
        field: "anwser",
        message: 'unknown field "anwser" (misspelt?); expected only the documented fields',
      },
      { file: "answers.jsonl", line: 10, field: "answer", message: "expected the answer text (answer or response)" },
      {
        file: "answers.jsonl",
        line: 11,
        message:
          "expected a JSON object (one JSON object per line: qid, answer, context (chunk ids in order), optional citations), found an array",
      },
    ]);
  });

  it("refuses a question given twice by different names, and an unknown question text", async () => {
    const errors = await errorsOf(
      file(
        { qid: "q2", answer: "A.", context: [] },
        { user_input: " How does retrieval   work? ", answer: "B.", context: [] },
        { user_input: "What?", answer: "C.", context: [] },
      ),
    );
    // Line 2 names q2 by its text (white space aside), so it is q2 twice; line 3 names no question.
    expect(errors).toEqual([
      {
        file: "answers.jsonl",
        line: 2,
        field: "user_input",
        message: 'question "q2" is answered twice (first on line 1); expected one line per question',
      },
      {
        file: "answers.jsonl",
        line: 3,
        field: "user_input",
        message:
          'no question of this project has the text "What?"; expected a question\'s exact text (or its id as qid)',
      },
    ]);
    // Matching keeps case: a question's text written otherwise is not that question.
    expect(await errorsOf(file({ user_input: "how does retrieval work?", answer: "B.", context: [] }))).toEqual([
      {
        file: "answers.jsonl",
        line: 1,
        field: "user_input",
        message:
          'no question of this project has the text "how does retrieval work?"; expected a question\'s exact text (or its id as qid)',
      },
    ]);
    const both = await errorsOf(file({ qid: "q2", question_id: "q2", answer: "A.", context: [] }));
    expect(both).toEqual([
      {
        file: "answers.jsonl",
        line: 1,
        field: "question_id",
        message: "give this once: qid and question_id are the same field (use one)",
      },
    ]);
  });

  it("issue 30 item 7: refuses an answer with more claims than a label carries, or a text past the bound, at file:line, writing nothing", async () => {
    const many = Array.from({ length: 600 }, (_, i) => `Sentence number ${i + 1} is here.`).join(" ");
    const long = `${"word ".repeat(10_001)}end.`;
    const errors = await errorsOf(
      file(
        { qid: "q1", answer: "Fine.", context: [] },
        { qid: "q2", answer: many, context: [] },
        { qid: "q3", response: long, context: [] },
      ),
    );
    expect(errors).toEqual([
      {
        file: "answers.jsonl",
        line: 2,
        field: "answer",
        message:
          "the answer has 600 sentences (claims); expected at most 500, the most a label can carry (split it, or leave it out)",
      },
      {
        file: "answers.jsonl",
        line: 3,
        field: "response",
        message: `expected an answer of at most 50000 characters, got ${long.length}`,
      },
    ]);
    // At the bounds: 500 sentences are taken.
    const most = Array.from({ length: 500 }, (_, i) => `Sentence ${i + 1}.`).join(" ");
    const r = await importAnswers(db, projectId, {
      system: "sys-bounds",
      fileName: "answers.jsonl",
      text: file({ qid: "q1", answer: most, context: [] }),
    });
    expect(r.claims).toBe(500);
  });

  it("resolves chunk ids within one chunking: ambiguous ids ask for --chunking, mixed chunkings and unknown ids are located", async () => {
    const before = await snapshot();
    const ambiguous = await importAnswers(db, projectId, {
      system: "amb",
      fileName: "amb.jsonl",
      text: file({ qid: "q1", answer: "A.", context: ["k1"] }),
    }).catch((e: unknown) => e);
    expect(ambiguous).toBeInstanceOf(AppError);
    expect((ambiguous as AppError).message).toBe(
      'amb.jsonl: every chunk id of this answer file is found in several chunkings ("c2", "default"); choose one with --chunking NAME',
    );
    expect(await snapshot()).toEqual(before);

    expect(
      await errorsOf(
        file(
          { qid: "q1", answer: "A.", context: ["k2"] },
          { qid: "q2", answer: "B.", context: ["k1", "z1"] },
          { qid: "q3", answer: "C.", context: ["nowhere"] },
        ),
      ),
    ).toEqual([
      {
        file: "answers.jsonl",
        line: 2,
        field: "context.1",
        message:
          'chunk "z1" belongs to chunking "c2", but the earlier lines name chunks of "default": a answer file belongs to exactly one chunking (split the file by chunking)',
      },
      {
        file: "answers.jsonl",
        line: 3,
        field: "context.0",
        message: 'unknown chunk "nowhere": no chunking of this project holds it (chunkings: "c2", "default")',
      },
    ]);
    // Named: a chunk outside it is unknown.
    expect(await errorsOf(file({ qid: "q1", answer: "A.", context: ["k1", "k2"] }), { chunking: "c2" })).toEqual([
      {
        file: "answers.jsonl",
        line: 1,
        field: "context.1",
        message: 'unknown chunk "k2"; expected the id of a chunk of chunking "c2"',
      },
    ]);
  });
});

describe("re-import", () => {
  const v1 = file(
    { qid: "q1", answer: "First. Second.", context: ["k1", "k2"] },
    { qid: "q2", answer: "Other.", context: ["k2"] },
  );
  const v2 = file(
    { qid: "q1", answer: "First. Changed second. Third.", context: ["k3"] },
    { qid: "q2", answer: "Other.", context: ["k2"] },
  );

  it("is a no-op for unchanged lines, refuses changed ones without --replace, and replaces them in place with a new claim version", async () => {
    await importAnswers(db, projectId, { system: "re", fileName: "v1.jsonl", text: v1 }, { chunking: "default" });
    const first = await snapshot();
    const same = await importAnswers(
      db,
      projectId,
      { system: "re", fileName: "v1.jsonl", text: v1 },
      { chunking: "default" },
    );
    expect(same).toMatchObject({ rows: 2, created: 0, updated: 0, unchanged: 2, claims: 0 });
    const after = await snapshot();
    expect({ ...after, records: 0 }).toEqual({ ...first, records: 0 });

    expect(await errorsOf(v2, { chunking: "default" }, "re")).toEqual([
      {
        file: "answers.jsonl",
        line: 1,
        field: "answer",
        message: expect.stringMatching(
          /^system "re" already has a different answer to question "q1" \(imported \d{4}-.*\); use --replace to replace changed answers$/,
        ),
      },
    ]);

    const q1 = await db.query.findUniqueOrThrow({ where: { projectId_externalId: { projectId, externalId: "q1" } } });
    const old = await db.answer.findUniqueOrThrow({
      where: { projectId_system_queryId: { projectId, system: "re", queryId: q1.id } },
    });
    const r = await importAnswers(
      db,
      projectId,
      { system: "re", fileName: "answers.jsonl", text: v2 },
      { chunking: "default", replace: true },
    );
    expect(r).toMatchObject({ rows: 2, created: 0, updated: 1, unchanged: 1, claims: 3 });
    const a = await db.answer.findUniqueOrThrow({
      where: { id: old.id },
      include: {
        context: { include: { chunk: true } },
        claims: { orderBy: [{ version: "asc" }, { position: "asc" }] },
        events: { orderBy: { id: "asc" } },
      },
    });
    expect(a.text).toBe("First. Changed second. Third.");
    expect(a.claimVersion).toBe(2);
    expect(a.context.map((c) => c.chunk.externalId)).toEqual(["k3"]);
    expect(a.claims.map((c) => [c.version, c.position, c.text])).toEqual([
      [1, 0, "First."],
      [1, 1, "Second."],
      [2, 0, "First."],
      [2, 1, "Changed second."],
      [2, 2, "Third."],
    ]);
    expect(a.events.map((e) => e.kind)).toEqual(["import", "import"]);
    expect(JSON.parse(a.events[1].before!)).toMatchObject({
      text: "First. Second.",
      context: ["k1", "k2"],
      claimVersion: 1,
      removed: null,
    });
  });

  it("refuses to replace an answer with human labels, naming the count, unless --force, which removes them", async () => {
    const q1 = await db.query.findUniqueOrThrow({ where: { projectId_externalId: { projectId, externalId: "q1" } } });
    const a = await db.answer.findUniqueOrThrow({
      where: { projectId_system_queryId: { projectId, system: "re", queryId: q1.id } },
    });
    const [u1, u2] = [await makeUser(db), await makeUser(db, { role: "adjudicator" })];
    for (const [i, u] of [u1, u2].entries())
      await db.answerJudgement.create({
        data: {
          answerId: a.id,
          userId: u.id,
          claimVersion: 2,
          claimLabels: JSON.stringify(["s", "n", "p"]),
          relevance: 2,
          idempotencyKey: `k-${i}`,
        },
      });
    await db.answerAdjudication.create({
      data: {
        answerId: a.id,
        adjudicatorId: u2.id,
        claimVersion: 2,
        claimLabels: JSON.stringify(["s", "s", "p"]),
        relevance: 3,
      },
    });
    await db.answerJudgeLabel.create({
      data: {
        projectId,
        judge: "llm",
        answerId: a.id,
        claimVersion: 2,
        claimLabels: JSON.stringify(["s", "s", "s"]),
        relevance: 3,
      },
    });

    const v3 = file(
      { qid: "q1", answer: "Entirely new.", context: ["k1"] },
      { qid: "q2", answer: "Other.", context: ["k2"] },
    );
    const before = await snapshot();
    const refused = await importAnswers(
      db,
      projectId,
      { system: "re", fileName: "v3.jsonl", text: v3 },
      { chunking: "default", replace: true },
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("conflict");
    expect((refused as AppError).message).toBe(
      '1 of the changed answers already has human labels (3 labels: questions "q1"); replacing them removes those labels: use --force to replace anyway',
    );
    expect(await snapshot()).toEqual(before);

    const r = await importAnswers(
      db,
      projectId,
      { system: "re", fileName: "v3.jsonl", text: v3 },
      { chunking: "default", replace: true, force: true },
    );
    expect(r).toMatchObject({ updated: 1, unchanged: 1, labelsRemoved: 3, judgeLabelsRemoved: 1 });
    expect(await db.answerJudgement.count({ where: { answerId: a.id } })).toBe(0);
    expect(await db.answerAdjudication.count({ where: { answerId: a.id } })).toBe(0);
    expect(await db.answerJudgeLabel.count({ where: { answerId: a.id } })).toBe(0);
    const stored = await db.answer.findUniqueOrThrow({
      where: { id: a.id },
      include: { events: { orderBy: { id: "desc" }, take: 1 } },
    });
    expect(stored.claimVersion).toBe(3);
    const removed = JSON.parse(stored.events[0].before!) as {
      removed: { judgements: unknown[]; adjudication: unknown; judgeLabels: unknown[] };
    };
    expect(removed.removed.judgements).toHaveLength(2);
    expect(removed.removed.adjudication).toMatchObject({ relevance: 3 });
    expect(removed.removed.judgeLabels).toHaveLength(1);
  });
});

describe("the lead's upload (lib/lead/run-import.ts, behind POST /api/lead/projects/:id/imports/answers)", () => {
  it("imports answers through the same importer, with the system and options from the query string", async () => {
    const { importUpload } = await import("../../lib/lead/run-import.ts");
    const bytes = Buffer.from(file({ qid: "q1", answer: "Uploaded. Twice.", context: ["k2"] }));
    const r = await importUpload(
      db,
      projectId,
      "answers",
      { name: "up.jsonl", system: "uploaded", chunking: "default" },
      bytes,
    );
    expect(r).toMatchObject({ kind: "answers", file: "up.jsonl", rows: 1, created: 1, claims: 2 });
    expect(await db.answer.count({ where: { projectId, system: "uploaded" } })).toBe(1);
    const changed = Buffer.from(file({ qid: "q1", answer: "Uploaded again.", context: ["k2"] }));
    await expect(
      importUpload(db, projectId, "answers", { name: "up.jsonl", system: "uploaded", chunking: "default" }, changed),
    ).rejects.toThrow(/already has a different answer to question "q1"/);
    // The page says the form's choice where the command line says its option, in the message and its details.
    const refused = await importUpload(
      db,
      projectId,
      "answers",
      { name: "up.jsonl", system: "uploaded", chunking: "default" },
      changed,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ValidationError);
    const page = (refused as ValidationError).sayTo("page");
    expect(page).toMatch(/^up\.jsonl:1: answer: system "uploaded" already has a different answer to question "q1"/);
    expect(page).toMatch(/use the “Replace changed answers” choice to replace changed answers$/);
    expect((refused as ValidationError).message).toMatch(/use --replace to replace changed answers$/);
    expect((refused as ValidationError).detailsFor("page")).toEqual([
      expect.objectContaining({
        line: 1,
        field: "answer",
        message: expect.stringMatching(/“Replace changed answers” choice/),
      }),
    ]);
    expect(
      await importUpload(
        db,
        projectId,
        "answers",
        { name: "up.jsonl", system: "uploaded", chunking: "default", replace: "on" },
        changed,
      ),
    ).toMatchObject({ updated: 1 });
    await expect(importUpload(db, projectId, "answers", { name: "up.jsonl", system: " " }, bytes)).rejects.toThrow(
      "system: answers need a system name (the generator configuration)",
    );
    await expect(
      importUpload(db, projectId, "answers", { name: "up.jsonl", system: "uploaded", force: "on" }, bytes),
    ).rejects.toThrow("force: replacing labelled answers needs “replace changed answers” too");
  });
});

describe("the CLI", () => {
  it("imports answers, prints a summary and warnings, lists systems, and exits 1 with located errors and nothing written", async () => {
    const path = join(dir, "cli.jsonl");
    writeFileSync(
      path,
      file({ qid: "q1", answer: "One. Two.", context: ["k1"] }, { qid: "q3", answer: "Three.", context: ["k2"] }),
    );
    const r = runCli(["import", "answers", "--project", "gen", "--system", "cli-sys", "--chunking", "default", path]);
    expect(r.stderr).toBe(
      `warning: ${path}:2: qid: question "q3" is a draft: its answer is imported but not assigned or evaluated until the question is accepted\n`,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^imported 2 answers of system cli-sys from ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: 2 new, 0 replaced, 0 unchanged; 3 claims written \\(chunking default\\); 1 warning \\(\\d+\\.\\d s\\)\\n$`,
      ),
    );

    const list = runCli(["answers", "list", "--project", "gen", "--format", "json"]);
    expect(list.code).toBe(0);
    const rows = JSON.parse(list.stdout) as { system: string; answers: number; claims: number; labelled: number }[];
    expect(rows.find((s) => s.system === "cli-sys")).toEqual({ system: "cli-sys", answers: 2, claims: 3, labelled: 0 });

    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, file({ qid: "q9", answer: "A.", context: ["k1"] }));
    const before = await snapshot();
    const e = runCli(["import", "answers", "--project", "gen", "--system", "cli-bad", "--chunking", "default", bad]);
    expect(e.code).toBe(1);
    expect(e.stderr).toBe(
      `error: ${bad}:1: qid: unknown question "q9"; expected the id of a question of this project\n`,
    );
    expect(await snapshot()).toEqual(before);
  });
});
