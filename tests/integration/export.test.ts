import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { useTestDatabase } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { exportFileName, exportLabels, exportVersion, renderExport } from "../../lib/exports/labels.ts";
import type { ReferenceLabelRow } from "../../lib/labels/reference.ts";
import { makeAssignedItems, makeChunks, makeProject, makeQueries, makeUser } from "../helpers/factories.ts";
import { submitJudgement } from "../../lib/labels/submit.ts";

useTestDatabase();
let db: Db;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
});

const row = (qid: string, docid: string, grade: number, extra: Partial<ReferenceLabelRow> = {}): ReferenceLabelRow => ({
  queryId: 1,
  chunkId: 1,
  qid,
  docid,
  poolItemId: null,
  grade,
  startSeconds: null,
  endSeconds: null,
  status: "imported",
  annotators: 0,
  source: "src",
  video: "v1",
  chunkStart: 0,
  chunkEnd: 30,
  chunking: "default",
  flags: [],
  notes: [],
  revision: null,
  ...extra,
});

describe("export formats", () => {
  const now = new Date("2026-11-30T12:00:00.000Z");
  const rows = [
    row("q1", "a,b", 2, {
      startSeconds: 12.5,
      endSeconds: 19.25,
      status: "adjudicated",
      annotators: 2,
      source: null,
      flags: ["transcript_error", "unsure"],
      notes: ["cut off", "=odd"],
      revision: 2,
    }),
    row("q1", 'say "hi"', 0, { source: "old #3" }),
  ];

  it("writes qrels, JSONL and CSV that carry the same label-set sha256", () => {
    const v = exportVersion(rows, "p", now);
    const canonical =
      '{"query":"q1","chunk":"a,b","grade":2,"start":12.5,"status":"adjudicated","annotators":2,"source":null,"video":"v1","chunk_start":0,"chunk_end":30,"chunking":"default","flags":["transcript_error","unsure"],"notes":["cut off","=odd"],"revision":2,"end":19.25,"labelled_by":[],"guideline_revisions":[]}\n' +
      '{"query":"q1","chunk":"say \\"hi\\"","grade":0,"start":null,"status":"imported","annotators":0,"source":"old #3","video":"v1","chunk_start":0,"chunk_end":30,"chunking":"default","flags":[],"notes":[],"revision":null,"end":null,"labelled_by":[],"guideline_revisions":[]}\n';
    expect(v).toEqual({
      sha256: createHash("sha256").update(canonical).digest("hex"),
      created_at: "2026-11-30T12:00:00.000Z",
      labels: 2,
      project: "p",
    });

    const jsonl = renderExport(rows, "jsonl", v);
    expect(jsonl.content).toBe(`{"label_set_version":${JSON.stringify(v)}}\n${canonical}`);
    expect(jsonl.fileSha256).toBe(createHash("sha256").update(jsonl.content).digest("hex"));

    // No comment line: the header row first, the new columns at the end; the
    // version travels in the file name, the sidecar and the HTTP headers. A note starting with "="
    // gets the leading ' of lib/formats/csv-write.ts.
    const csv = renderExport(rows, "csv", v).content;
    expect(csv).toBe(
      "query,chunk,grade,start,status,annotators,source,video,chunk_start,chunk_end,chunking,flags,notes,revision,end,labelled_by,guideline_revisions\n" +
        'q1,"a,b",2,12.5,adjudicated,2,,v1,0,30,default,transcript_error;unsure,cut off | =odd,2,19.25,,\nq1,"say ""hi""",0,,imported,0,"old #3",v1,0,30,default,,,,,,\n',
    );
    // A standard reader with no options (a spreadsheet, pandas.read_csv) gets the header row first and the fields intact.
    expect(parse(csv, { columns: true })).toEqual([
      {
        query: "q1",
        chunk: "a,b",
        grade: "2",
        start: "12.5",
        status: "adjudicated",
        annotators: "2",
        source: "",
        video: "v1",
        chunk_start: "0",
        chunk_end: "30",
        chunking: "default",
        flags: "transcript_error;unsure",
        notes: "cut off | =odd",
        revision: "2",
        end: "19.25",
        labelled_by: "",
        guideline_revisions: "",
      },
      {
        query: "q1",
        chunk: 'say "hi"',
        grade: "0",
        start: "",
        status: "imported",
        annotators: "0",
        source: "old #3",
        video: "v1",
        chunk_start: "0",
        chunk_end: "30",
        chunking: "default",
        flags: "",
        notes: "",
        revision: "",
        end: "",
        labelled_by: "",
        guideline_revisions: "",
      },
    ]);
  });

  it("names the version in the file name; the CSV holds no project name, so a hostile one cannot reach a cell", () => {
    const name = 'x,=HYPERLINK("http://evil.example","click"),"y';
    const v = exportVersion(rows, name, now);
    const csv = renderExport(rows, "csv", v).content;
    expect(csv).not.toContain("HYPERLINK");
    expect(exportFileName("p", "csv", v)).toBe(`p.labels.${v.sha256.slice(0, 12)}.csv`);
    expect(exportFileName("p", "qrels", v)).toBe(`p.${v.sha256.slice(0, 12)}.qrels`);
    const cells = parse(csv, { relax_column_count: true }).flat() as string[];
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
  });

  it("changes the sha256 when any label changes, not when only the time does", () => {
    const a = exportVersion(rows, "p", now);
    expect(exportVersion(rows, "p", new Date()).sha256).toBe(a.sha256);
    expect(exportVersion([rows[0], { ...rows[1], grade: 1 }], "p", now).sha256).not.toBe(a.sha256);
    expect(exportVersion([{ ...rows[0], startSeconds: 13 }, rows[1]], "p", now).sha256).not.toBe(a.sha256);
    expect(exportVersion([{ ...rows[0], endSeconds: 20 }, rows[1]], "p", now).sha256).not.toBe(a.sha256);
  });
});

describe("exportLabels over the database", () => {
  it("keeps one label per pair: the latest import wins over an older one", async () => {
    const p = await makeProject(db, { name: "exp" });
    const q = await makeQueries(db, p.id, ["q2", "q10"]);
    const c = await makeChunks(db, p.id, ["d1"]);
    await db.referenceLabel.create({
      data: {
        projectId: p.id,
        source: "2019",
        queryId: q.get("q2")!.id,
        chunkId: c.get("d1")!.id,
        grade: 1,
        createdAt: new Date("2019-01-01T00:00:00Z"),
      },
    });
    await db.referenceLabel.create({
      data: {
        projectId: p.id,
        source: "2024",
        queryId: q.get("q2")!.id,
        chunkId: c.get("d1")!.id,
        grade: 3,
        createdAt: new Date("2024-01-01T00:00:00Z"),
      },
    });
    await db.referenceLabel.create({
      data: { projectId: p.id, source: "2019", queryId: q.get("q10")!.id, chunkId: c.get("d1")!.id, grade: 2 },
    });
    const e = await exportLabels(db, p.id, "qrels");
    // Sorted by qid as plain strings: "q10" < "q2".
    expect(e.content).toBe("q10 0 d1 2\nq2 0 d1 3\n");
    expect(e.version.labels).toBe(2);
  });

  it("exports one chunking's labels, each with its video, chunk times and chunking", async () => {
    const p = await makeProject(db, { name: "exp-chunkings" });
    const q = await makeQueries(db, p.id, ["q1"]);
    const c = await makeChunks(db, p.id, ["d1"]); // default chunking, 0-30 s on a new video
    const video = await db.chunk.findUniqueOrThrow({ where: { id: c.get("d1")!.id }, include: { video: true } });
    const other = await db.chunking.create({
      data: { projectId: p.id, name: "c20o5", method: "seconds", size: 20, overlap: 5 },
    });
    // The same chunk id in the second chunking: another span of the same video.
    const d1b = await db.chunk.create({
      data: {
        projectId: p.id,
        chunkingId: other.id,
        externalId: "d1",
        videoId: video.videoId,
        startSeconds: 15,
        endSeconds: 35,
        text: "t",
      },
    });
    await db.referenceLabel.create({
      data: { projectId: p.id, source: "s", queryId: q.get("q1")!.id, chunkId: c.get("d1")!.id, grade: 1 },
    });
    await db.referenceLabel.create({
      data: { projectId: p.id, source: "s", queryId: q.get("q1")!.id, chunkId: d1b.id, grade: 3, startSeconds: 21 },
    });
    expect((await exportLabels(db, p.id, "qrels", new Date(), { chunkingId: other.id })).content).toBe("q1 0 d1 3\n");
    const jsonl = (await exportLabels(db, p.id, "jsonl", new Date(), { chunkingId: other.id })).content
      .trim()
      .split("\n");
    expect(JSON.parse(jsonl[1])).toEqual({
      query: "q1",
      chunk: "d1",
      grade: 3,
      start: 21,
      status: "imported",
      annotators: 0,
      source: "s",
      video: video.video.externalId,
      chunk_start: 15,
      chunk_end: 35,
      chunking: "c20o5",
      flags: [],
      notes: [],
      revision: null,
      end: null,
      // An imported label: nobody of this project made it.
      labelled_by: [],
      guideline_revisions: [],
    });
  });
});

describe("a qrels export without --chunking holds one chunking's labels", () => {
  /** Two chunkings sharing the chunk id "d1" (as the demo's bm25_80047-91561), each with a label for q1. */
  async function twoChunkings(name: string, first: string, second: string) {
    const p = await makeProject(db, { name });
    const q = await makeQueries(db, p.id, ["q1"]);
    const video = await db.video.create({ data: { projectId: p.id, externalId: "v", title: "v" } });
    const ids: number[] = [];
    for (const [k, chunkingName] of [first, second].entries()) {
      const c = await db.chunking.create({
        data: { projectId: p.id, name: chunkingName, method: "seconds", size: 20, overlap: 0 },
      });
      const d1 = await db.chunk.create({
        data: {
          projectId: p.id,
          chunkingId: c.id,
          externalId: "d1",
          videoId: video.id,
          startSeconds: 0,
          endSeconds: 20,
          text: "t",
        },
      });
      const own = await db.chunk.create({
        data: {
          projectId: p.id,
          chunkingId: c.id,
          externalId: `only-${chunkingName}`,
          videoId: video.id,
          startSeconds: 20,
          endSeconds: 40,
          text: "t",
        },
      });
      await db.referenceLabel.create({
        data: { projectId: p.id, source: "s", queryId: q.get("q1")!.id, chunkId: d1.id, grade: k + 1 },
      });
      await db.referenceLabel.create({
        data: { projectId: p.id, source: "s", queryId: q.get("q1")!.id, chunkId: own.id, grade: 2 },
      });
      ids.push(c.id);
    }
    return { p, ids };
  }
  /** trec_eval 10.0 stops (exit 4) on a (query, docid) pair given twice; assessor eval refuses it. */
  const pairsOnce = (qrels: string) => {
    const pairs = qrels
      .split("\n")
      .filter(Boolean)
      .map((l) =>
        l
          .split(" ")
          .filter((_, i) => i !== 1 && i !== 3)
          .join(" "),
      );
    return new Set(pairs).size === pairs.length;
  };

  it("writes the default chunking's labels, each pair once, with a note naming the others; JSONL keeps both", async () => {
    const { p, ids } = await twoChunkings("exp-two", "default", "c40o0");
    const e = await exportLabels(db, p.id, "qrels");
    expect(e.content).toBe("q1 0 d1 1\nq1 0 only-default 2\n");
    expect(pairsOnce(e.content)).toBe(true);
    const { parseQrels } = await import("../../lib/formats/trec.ts");
    expect(parseQrels(e.content, "reference.qrels", { scale: "trec" }).errors).toEqual([]);
    expect(e.note).toMatch(/2 chunkings \(c40o0, default\).*"default"/);
    expect((await exportLabels(db, p.id, "qrels", new Date(), { chunkingId: ids[1] })).content).toBe(
      "q1 0 d1 2\nq1 0 only-c40o0 2\n",
    );
    expect((await exportLabels(db, p.id, "jsonl")).version.labels).toBe(4);
  });

  it("refuses, naming the chunkings, when there are several and none is default; one chunking needs no choice", async () => {
    const { p, ids } = await twoChunkings("exp-none-default", "c20o5", "c60o15");
    await expect(exportLabels(db, p.id, "qrels")).rejects.toThrow(/2 chunkings \(c20o5, c60o15\).*--chunking NAME/);
    await db.referenceLabel.deleteMany({ where: { projectId: p.id, chunk: { chunkingId: ids[1] } } });
    await db.chunk.deleteMany({ where: { chunkingId: ids[1] } });
    const e = await exportLabels(db, p.id, "qrels");
    expect(e.content).toBe("q1 0 d1 1\nq1 0 only-c20o5 2\n");
    expect(e.note).toBeUndefined();
  });
});

describe("a grade-0 label has no start", () => {
  it("exports agreed and adjudicated grade-0 items alike: start null, even for a decision stored with one", async () => {
    const p = await makeProject(db, { name: "exp-zero", annotatorsPerItem: 2, disagreementRule: "any_difference" });
    const [a, b, adj] = [
      await makeUser(db, { role: "annotator" }),
      await makeUser(db, { role: "annotator" }),
      await makeUser(db, { role: "adjudicator" }),
    ];
    const [agreed, decided] = await makeAssignedItems(db, p.id, 2, [a, b], "qz");
    await submitJudgement(db, a.id, {
      poolItemId: agreed.id,
      grade: 0,
      startSeconds: 40,
      notes: "off topic",
      flags: ["unsure"],
      timeSpentMs: 1,
      idempotencyKey: "zero-a-1",
    });
    await submitJudgement(db, b.id, {
      poolItemId: agreed.id,
      grade: 0,
      startSeconds: null,
      notes: "",
      flags: [],
      timeSpentMs: 1,
      idempotencyKey: "zero-b-1",
    });
    await submitJudgement(db, a.id, {
      poolItemId: decided.id,
      grade: 0,
      startSeconds: null,
      notes: "",
      flags: [],
      timeSpentMs: 1,
      idempotencyKey: "zero-a-2",
    });
    await submitJudgement(db, b.id, {
      poolItemId: decided.id,
      grade: 2,
      startSeconds: 47,
      notes: "",
      flags: ["transcript_error"],
      timeSpentMs: 1,
      idempotencyKey: "zero-b-2",
    });
    // A decision written before the rule held: grade 0 with a start (the page sent the chunk's start).
    await db.adjudication.create({
      data: { poolItemId: decided.id, adjudicatorId: adj.id, grade: 0, startSeconds: 46.7 },
    });
    const rows = (await exportLabels(db, p.id, "jsonl")).content
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.chunk, r.grade, r.start, r.status, r.flags, r.notes, r.revision])).toEqual([
      [agreed.docid, 0, null, "agreed", ["unsure"], ["off topic"], null],
      [decided.docid, 0, null, "adjudicated", ["transcript_error"], [], 1],
    ]);
    // And a decision made now stores none.
    await db.adjudication.delete({ where: { poolItemId: decided.id } });
    const { adjudicate } = await import("../../lib/adjudication/decide.ts");
    const made = await adjudicate(db, adj.id, {
      poolItemId: decided.id,
      grade: 0,
      startSeconds: 46.7,
      rationale: "",
      idempotencyKey: "zero-adj-1",
    });
    expect(made.adjudication.startSeconds).toBeNull();
  });
});
