import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";
import { importJudgeLabels, importReferenceLabels } from "../../lib/imports/index.ts";
import { pgInsertBatch } from "../../lib/db/dialect.ts";
import { makeProject, makeUser, makeVideo } from "../helpers/factories.ts";

/**
 * The label import's bulk path on the suite's database (SQLite, or PostgreSQL
 * with TEST_DATABASE_URL, where rows go as array literals written by lib/db/dialect.ts): the
 * values stored are the values in the file, text with the characters an array literal must escape
 * included; and the release of assignments is one statement over more items than fit in one of the
 * old 500-item batches, checked item by item.
 */
useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
});

/** One query q1 and chunks c0…c(n−1) on one video, written in two statements. */
async function project(n: number) {
  const p = await makeProject(db);
  const query = await db.query.create({ data: { projectId: p.id, externalId: "q1", text: "question 1?" } });
  const video = await makeVideo(db, p.id);
  const chunkingId = await defaultChunkingId(db, p.id);
  await db.chunk.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      projectId: p.id,
      chunkingId,
      videoId: video.id,
      externalId: `c${i}`,
      startSeconds: i * 30,
      endSeconds: i * 30 + 30,
      text: `text ${i}`,
    })),
  });
  const chunks = new Map(
    (await db.chunk.findMany({ where: { projectId: p.id }, select: { id: true, externalId: true } })).map((c) => [
      c.externalId,
      c.id,
    ]),
  );
  return { p, query, chunks };
}

const file = (name: string, lines: string[]) => ({ name, bytes: Buffer.from(lines.map((l) => `${l}\n`).join("")) });

describe("PostgreSQL bulk insert statements", () => {
  const columns = [
    { name: "n", type: "int" as const },
    { name: "t", type: "text" as const },
    { name: "k", type: "text" as const, pgType: '"LabelKind"' },
    { name: "x", type: "float" as const },
  ];
  it('sends each column as an array literal: NULL, numbers as JavaScript prints them, strings quoted with " and \\ escaped; a column with one value once', () => {
    const rows: unknown[][] = [
      [1, 'a "b" \\c', "judge_import", 0.1 + 0.2],
      [-7, "", "judge_import", 31.5],
      [2147483647, "{x,y}", "judge_import", 1e21],
      [5, "NULL", "judge_import", null],
      [6, "é\nz", "judge_import", null],
    ];
    expect(pgInsertBatch("T", columns, 0, 5, (i) => rows[i])).toEqual({
      sql: 'INSERT INTO "T" ("n", "t", "k", "x") SELECT u.c0, u.c1, ($3::"LabelKind"[])[1], u.c3 FROM unnest($1::int4[], $2::text[], $4::float8[]) AS u(c0, c1, c3)',
      params: [
        "{1,-7,2147483647,5,6}",
        '{"a \\"b\\" \\\\c","","{x,y}","NULL","é\nz"}',
        '{"judge_import"}',
        "{0.30000000000000004,31.5,1e+21,NULL,NULL}",
      ],
    });
    // Rows 3–4: x is NULL in both (sent once); a single row is all constants.
    expect(pgInsertBatch("T", columns, 3, 5, (i) => rows[i]).sql).toBe(
      'INSERT INTO "T" ("n", "t", "k", "x") SELECT u.c0, u.c1, ($3::"LabelKind"[])[1], ($4::float8[])[1] FROM unnest($1::int4[], $2::text[]) AS u(c0, c1)',
    );
    expect(pgInsertBatch("T", columns, 1, 2, (i) => rows[i])).toEqual({
      sql: 'INSERT INTO "T" ("n", "t", "k", "x") SELECT ($1::int4[])[1], ($2::text[])[1], ($3::"LabelKind"[])[1], ($4::float8[])[1] FROM generate_series(1, 1) AS u',
      params: ["{-7}", '{""}', '{"judge_import"}', "{31.5}"],
    });
  });
});

describe("label import: stored values", () => {
  it("stores each file's grades, starts and rationales as written; one LabelEvent for the new labels, one with before and after for each changed label", async () => {
    const { p, query, chunks } = await project(6);
    const rationales = ['says "yes", then {no}', "back\\slash", "", "NULL", "line\nbreak, tab\tand é", null];
    const judge = rationales.map((r, i) =>
      JSON.stringify({ query: "q1", chunk: `c${i}`, grade: i % 4, ...(r === null ? {} : { rationale: r }) }),
    );
    // First with other rationales, so that the file's texts travel in the changed labels' events too.
    const plain = rationales.map((_, i) =>
      JSON.stringify({ query: "q1", chunk: `c${i}`, grade: i % 4, rationale: "x" }),
    );
    const judgeFile = 'judge "a", {b} \\ c.jsonl';
    expect(await importJudgeLabels(db, p.id, file(judgeFile, plain), { judge: "llm" })).toMatchObject({
      created: 6,
      updated: 0,
    });
    expect(await importJudgeLabels(db, p.id, file(judgeFile, judge), { judge: "llm" })).toMatchObject({
      created: 0,
      updated: 6,
      unchanged: 0,
    });
    const stored = await db.judgeLabel.findMany({ where: { projectId: p.id }, orderBy: { chunkId: "asc" } });
    expect(stored.map((l) => [l.judge, l.queryId, l.chunkId, l.grade, l.rationale])).toEqual(
      rationales.map((r, i) => ["llm", query.id, chunks.get(`c${i}`), i % 4, r]),
    );

    const starts = [0.1 + 0.2, 31.5, null, 0, 599.999, 1e-7];
    const reference = starts.map((s, i) =>
      JSON.stringify({ query: "q1", chunk: `c${i}`, grade: 3 - (i % 4), ...(s === null ? {} : { start: s }) }),
    );
    expect(await importReferenceLabels(db, p.id, file("gold.jsonl", reference), { source: "gold" })).toMatchObject({
      created: 6,
      released: 0,
    });
    const labels = await db.referenceLabel.findMany({ where: { projectId: p.id }, orderBy: { chunkId: "asc" } });
    expect(labels.map((l) => [l.source, l.queryId, l.chunkId, l.grade, l.startSeconds])).toEqual(
      starts.map((s, i) => ["gold", query.id, chunks.get(`c${i}`), 3 - (i % 4), s]),
    );

    const sha = (lines: string[]) => createHash("sha256").update(file("", lines).bytes).digest("hex");
    const events = await db.labelEvent.findMany({ where: { projectId: p.id }, orderBy: { id: "asc" } });
    const before = (docid: string, grade: number) =>
      `{"judge":"llm","qid":"q1","docid":"${docid}","grade":${grade},"rationale":"x"}`;
    expect(events.map((e) => [e.kind, e.poolItemId, e.before, e.after])).toEqual([
      ["judge_import", null, null, JSON.stringify({ judge: "llm", file: judgeFile, sha256: sha(plain), created: 6 })],
      [
        "judge_import",
        null,
        before("c0", 0),
        '{"judge":"llm","qid":"q1","docid":"c0","grade":0,"rationale":"says \\"yes\\", then {no}"}',
      ],
      [
        "judge_import",
        null,
        before("c1", 1),
        '{"judge":"llm","qid":"q1","docid":"c1","grade":1,"rationale":"back\\\\slash"}',
      ],
      ["judge_import", null, before("c2", 2), '{"judge":"llm","qid":"q1","docid":"c2","grade":2,"rationale":""}'],
      ["judge_import", null, before("c3", 3), '{"judge":"llm","qid":"q1","docid":"c3","grade":3,"rationale":"NULL"}'],
      [
        "judge_import",
        null,
        before("c4", 0),
        '{"judge":"llm","qid":"q1","docid":"c4","grade":0,"rationale":"line\\nbreak, tab\\tand é"}',
      ],
      ["judge_import", null, before("c5", 1), '{"judge":"llm","qid":"q1","docid":"c5","grade":1,"rationale":null}'],
      [
        "reference_import",
        null,
        null,
        JSON.stringify({ source: "gold", file: "gold.jsonl", sha256: sha(reference), created: 6 }),
      ],
    ]);

    // The same file again changes nothing; a changed grade is one update with its before and after.
    expect(await importReferenceLabels(db, p.id, file("gold.jsonl", reference), { source: "gold" })).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 6,
    });
    const changed = [
      ...reference.slice(0, 1),
      JSON.stringify({ query: "q1", chunk: "c1", grade: 0, start: 31.5 }),
      JSON.stringify({ query: "q1", chunk: "c2", grade: 1, start: 1e-7 }),
      ...reference.slice(3),
    ];
    expect(await importReferenceLabels(db, p.id, file("gold.jsonl", changed), { source: "gold" })).toMatchObject({
      created: 0,
      updated: 2,
      unchanged: 4,
    });
    expect(
      (await db.referenceLabel.findFirstOrThrow({ where: { projectId: p.id, chunkId: chunks.get("c1") } })).grade,
    ).toBe(0);
    const last = await db.labelEvent.findMany({ where: { projectId: p.id }, orderBy: { id: "desc" }, take: 2 });
    expect(last.reverse().map((e) => [e.before, e.after])).toEqual([
      [
        '{"source":"gold","qid":"q1","docid":"c1","grade":2,"startSeconds":31.5}',
        '{"source":"gold","qid":"q1","docid":"c1","grade":0,"startSeconds":31.5}',
      ],
      [
        '{"source":"gold","qid":"q1","docid":"c2","grade":1,"startSeconds":null}',
        '{"source":"gold","qid":"q1","docid":"c2","grade":1,"startSeconds":1e-7}',
      ],
    ]);
  });
});

describe("label import: release of assignments", () => {
  it("releases, in one statement, exactly the newly labelled pooled items nobody graded, over 1,200 items", async () => {
    const N = 1200;
    const { p, query, chunks } = await project(N);
    await db.poolItem.createMany({
      data: [...chunks.values()].map((chunkId) => ({ projectId: p.id, queryId: query.id, chunkId })),
    });
    const items = new Map(
      (
        await db.poolItem.findMany({ where: { projectId: p.id }, include: { chunk: { select: { externalId: true } } } })
      ).map((i) => [Number(i.chunk.externalId.slice(1)), i.id]),
    );
    const tag = randomUUID().slice(0, 8);
    const [a, b] = await Promise.all(["a", "b"].map((n) => makeUser(db, { email: `${n}-${tag}@example.org` })));
    // c0…c99 labelled before by another source (then assigned, as `assign --include-labelled` does);
    // c100…c149 graded by a; c1100…c1199 left out of the file.
    expect(
      await importReferenceLabels(
        db,
        p.id,
        file(
          "old.qrels",
          Array.from({ length: 100 }, (_, i) => `q1 0 c${i} 1`),
        ),
        { source: "old" },
      ),
    ).toMatchObject({ created: 100, released: 0 });
    await db.assignment.createMany({
      data: [...items.values()].flatMap((poolItemId, k) =>
        [a, b].map((u, j) => ({ poolItemId, userId: u.id, orderKey: k + j / 2 })),
      ),
    });
    await db.judgement.createMany({
      data: Array.from({ length: 50 }, (_, i) => ({
        poolItemId: items.get(100 + i)!,
        userId: a.id,
        grade: 2,
        idempotencyKey: `${tag}-${i}`,
      })),
    });
    const r = await importReferenceLabels(
      db,
      p.id,
      file(
        "new.qrels",
        Array.from({ length: 1100 }, (_, i) => `q1 0 c${i} ${i % 4}`),
      ),
      { source: "new" },
    );
    expect(r).toMatchObject({ created: 1100, updated: 0, released: 950 });

    const left = await db.assignment.findMany({
      where: { poolItem: { projectId: p.id } },
      select: { poolItemId: true, userId: true },
    });
    const keep = [...Array.from({ length: 150 }, (_, i) => i), ...Array.from({ length: 100 }, (_, i) => 1100 + i)];
    expect(left.map((x) => `${x.poolItemId}/${x.userId}`).sort()).toEqual(
      keep.flatMap((c) => [a, b].map((u) => `${items.get(c)}/${u.id}`)).sort(),
    );
    // The new labels share one event; each label a later import changes has its own, naming its pool item.
    const created = await db.labelEvent.findMany({
      where: { projectId: p.id, after: { contains: '"source":"new"' } },
      select: { poolItemId: true, after: true },
    });
    expect(created).toEqual([{ poolItemId: null, after: expect.stringContaining('"created":1100') }]);
    const again = await importReferenceLabels(
      db,
      p.id,
      file(
        "new.qrels",
        Array.from({ length: 1100 }, (_, i) => `q1 0 c${i} ${(i + (i < 10 ? 1 : 0)) % 4}`),
      ),
      { source: "new" },
    );
    expect(again).toMatchObject({ created: 0, updated: 10, released: 0 });
    const events = await db.labelEvent.findMany({
      where: { projectId: p.id, after: { contains: '"source":"new"' }, before: { not: null } },
      select: { poolItemId: true, after: true },
    });
    expect(events).toHaveLength(10);
    for (const e of events) expect(e.poolItemId).toBe(items.get(Number(JSON.parse(e.after).docid.slice(1))));
  });
});
