import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";
import { ValidationError } from "../../lib/errors.ts";

/**
 * `assessor import …` end to end through the real CLI on the suite's database (SQLite, or
 * PostgreSQL with TEST_DATABASE_URL): good files in every format, then every bad input of
 * the import rules with its exact error text, exit 1 and no change at all in the database, then
 * re-imports that change nothing.
 */
const fixtures = join(import.meta.dirname, "..", "fixtures", "imports");
const fx = (f: string) => join(fixtures, f);
useTestDatabase();
let db: Db;
let dir: string;
let projectId: number;

/** Every table an import can write, in a stable order. */
async function snapshot() {
  return {
    videos: await db.video.findMany({ orderBy: { id: "asc" } }),
    chunks: await db.chunk.findMany({ orderBy: { id: "asc" } }),
    queries: await db.query.findMany({ orderBy: { id: "asc" }, include: { tags: { orderBy: { tag: "asc" } } } }),
    runs: await db.run.findMany({ orderBy: { id: "asc" } }),
    runEntries: await db.runEntry.findMany({ orderBy: [{ runId: "asc" }, { queryId: "asc" }, { chunkId: "asc" }] }),
    referenceLabels: await db.referenceLabel.findMany({ orderBy: { id: "asc" } }),
    judgeLabels: await db.judgeLabel.findMany({ orderBy: { id: "asc" } }),
    labelEvents: await db.labelEvent.findMany({ orderBy: { id: "asc" } }),
    importRecords: await db.importRecord.count(),
  };
}

function ok(args: string[]) {
  const r = runCli(args);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
}

/** Writes `content` to a temp file, imports it, and checks the exact error, exit 1 and that nothing changed. */
async function rejects(args: string[], file: string, content: string | Buffer, expected: (path: string) => string) {
  const path = join(dir, file);
  writeFileSync(path, content);
  const before = await snapshot();
  const r = runCli(["import", ...args, path]);
  expect(r.stderr).toBe(`error: ${expected(path)}\n`);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(await snapshot()).toEqual(before);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "imports-test-"));
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  ok(["project", "create", "imports"]);
  projectId = (await db.project.findUniqueOrThrow({ where: { name: "imports" } })).id;
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe("good files", () => {
  it("imports videos, chunks, queries, a run, reference and judge labels, and prints one summary line each", async () => {
    expect(ok(["import", "videos", fx("videos.jsonl")])).toMatch(
      /^imported 2 videos from .*videos\.jsonl: 2 new, 0 changed, 0 unchanged \(\d+\.\d s\)\n$/,
    );
    expect(ok(["import", "chunks", fx("chunks.jsonl")])).toMatch(
      /^imported 4 chunks from .*: 4 new, 0 changed, 0 unchanged/,
    );
    expect(ok(["import", "queries", fx("queries.jsonl")])).toMatch(
      /^imported 2 queries from .*: 2 new, 0 changed, 0 unchanged/,
    );
    expect(ok(["import", "run", "--system", "bm25", fx("run.txt")])).toMatch(
      /^imported 5 run entries for system bm25 \(\d+\.\d s\)\n$/,
    );
    expect(ok(["import", "labels", "--source", "trec", fx("labels.qrels")])).toMatch(
      /^imported 3 reference labels \(source trec\) from .*: 3 new/,
    );
    expect(ok(["import", "judge", "--judge", "gpt", fx("judge.jsonl")])).toMatch(
      /^imported 3 judge labels \(judge gpt\) from .*: 3 new/,
    );

    const v2 = await db.video.findFirstOrThrow({ where: { externalId: "v2" } });
    expect(v2).toMatchObject({
      title: "Self-hosted lecture",
      url: null,
      path: "demo/media/rrf.mp4",
      durationSeconds: 95.5,
    });
    const q1 = await db.query.findFirstOrThrow({
      where: { externalId: "q1" },
      include: { tags: true, places: { include: { video: true } } },
    });
    expect(q1).toMatchObject({ text: "what is pooling?", author: "ana", authorId: null, status: "accepted" });
    expect(q1.places.map((p) => [p.video?.externalId, p.startSeconds, p.endSeconds])).toEqual([["v1", 31, null]]);
    expect(
      (await db.queryTag.findMany({ where: { query: { externalId: "q2" } }, orderBy: { tag: "asc" } })).map(
        (t) => t.tag,
      ),
    ).toEqual(["history", "named-entity"]);

    const run = await db.run.findFirstOrThrow({
      where: { system: "bm25" },
      include: { entries: { include: { query: true, chunk: true } } },
    });
    // sha256 of the fixture file itself.
    const { createHash } = await import("node:crypto");
    expect(run.contentHash).toBe(
      createHash("sha256")
        .update(readFileSync(fx("run.txt")))
        .digest("hex"),
    );
    expect(run.entries.map((e) => [e.query.externalId, e.chunk.externalId, e.rank, e.score]).sort()).toEqual([
      ["q1", "c1", 2, 9.25],
      ["q1", "c2", 1, 12.5],
      ["q1", "c3", 3, 3],
      ["q2", "c3", 2, 1.5],
      ["q2", "c4", 1, 7.5],
    ]);
    const judge = await db.judgeLabel.findMany({ include: { query: true, chunk: true }, orderBy: { id: "asc" } });
    expect(judge.map((j) => [j.judge, j.query.externalId, j.chunk.externalId, j.grade, j.rationale])).toEqual([
      ["gpt", "q1", "c2", 3, "defines pooling"],
      ["gpt", "q1", "c1", 0, null],
      ["gpt", "q2", "c4", 1, "mentions kappa but not its author"],
    ]);
    const events = await db.labelEvent.findMany({ orderBy: { id: "asc" } });
    // One event for each import's new labels, naming the file and its sha256.
    expect(events.map((e) => [e.kind, JSON.parse(e.after)])).toEqual([
      [
        "reference_import",
        {
          source: "trec",
          file: fx("labels.qrels"),
          sha256: createHash("sha256")
            .update(readFileSync(fx("labels.qrels")))
            .digest("hex"),
          created: 3,
        },
      ],
      [
        "judge_import",
        {
          judge: "gpt",
          file: fx("judge.jsonl"),
          sha256: createHash("sha256")
            .update(readFileSync(fx("judge.jsonl")))
            .digest("hex"),
          created: 3,
        },
      ],
    ]);
    expect(await db.importRecord.count({ where: { projectId } })).toBe(6);
  });

  it("cuts a transcript into chunks with stable ids and prints them", async () => {
    const out = ok(["import", "transcript", "--video", "v1", fx("talk.vtt")]);
    // Default 60 s chunks with 15 s overlap; windows derived by hand in tests/unit/formats/chunker.test.ts.
    expect(out.split("\n").slice(0, 3)).toEqual(["v1_0-70000", "v1_45500-120000", "v1_100000-120000"]);
    expect(out.split("\n")[3]).toMatch(
      /^imported 3 chunks of video v1 from .*talk\.vtt: 3 new, 0 changed, 0 unchanged/,
    );
    // The same captions as SRT and json3 give the same chunks: nothing new.
    expect(ok(["import", "transcript", "--video", "v1", fx("talk.srt")])).toMatch(
      /3 chunks of video v1 .*: 0 new, 0 changed, 3 unchanged/,
    );
    expect(ok(["import", "transcript", "--video", "v1", fx("talk.json3")])).toMatch(/: 0 new, 0 changed, 3 unchanged/);
    const words = ok([
      "import",
      "transcript",
      "--video",
      "v1",
      "--chunk-words",
      "4",
      "--overlap-words",
      "1",
      fx("talk.vtt"),
    ]);
    expect(words.split("\n").slice(0, 5)).toEqual([
      "v1_0-20000",
      "v1_15000-39125",
      "v1_32750-61833",
      "v1_53667-90000",
      "v1_80000-120000",
    ]);
    const c = await db.chunk.findFirstOrThrow({ where: { externalId: "v1_45500-120000" } });
    expect(c).toMatchObject({
      startSeconds: 45.5,
      endSeconds: 120,
      text: "Pooling & judging. Agreement between annotators. Thanks.",
    });
  });
});

describe("importing the same files again changes nothing", () => {
  it("leaves every table as it was (only ImportRecord rows are added)", async () => {
    const before = await snapshot();
    const again: [string[], RegExp][] = [
      [["videos", fx("videos.jsonl")], /2 videos .*: 0 new, 0 changed, 2 unchanged/],
      [["videos", fx("videos.csv")], /2 videos .*: 0 new, 0 changed, 2 unchanged/],
      [["chunks", fx("chunks.jsonl")], /4 chunks .*: 0 new, 0 changed, 4 unchanged/],
      [["queries", fx("queries.jsonl")], /2 queries .*: 0 new, 0 changed, 2 unchanged/],
      [["queries", fx("queries.tsv")], /2 queries .*: 0 new, 0 changed, 2 unchanged/],
      [
        ["run", "--system", "bm25", fx("run.txt")],
        /^run of system bm25 unchanged: .*run\.txt was already imported \(5 run entries\)/,
      ],
      [["labels", "--source", "trec", fx("labels.qrels")], /3 reference labels .*: 0 new, 0 changed, 3 unchanged/],
      [["judge", "--judge", "gpt", fx("judge.jsonl")], /3 judge labels .*: 0 new, 0 changed, 3 unchanged/],
      [["transcript", "--video", "v1", fx("talk.vtt")], /3 chunks of video v1 .*: 0 new, 0 changed, 3 unchanged/],
    ];
    for (const [args, summary] of again) expect(ok(["import", ...args])).toMatch(summary);
    expect(await snapshot()).toEqual({ ...before, importRecords: before.importRecords + again.length });
  });

  it("records changes to labels as LabelEvents with before and after", async () => {
    const before = await db.labelEvent.count();
    // labels.jsonl: q1/c2 gains a start (31.5 s), q2/c4 is unchanged (grade 2, no start).
    expect(ok(["import", "labels", "--source", "trec", fx("labels.jsonl")])).toMatch(
      /2 reference labels .*: 0 new, 1 changed, 1 unchanged/,
    );
    const events = await db.labelEvent.findMany({ where: { id: { gt: 0 } }, orderBy: { id: "asc" }, skip: before });
    expect(events.map((e) => [e.kind, JSON.parse(e.before ?? "null"), JSON.parse(e.after)])).toEqual([
      [
        "reference_import",
        { source: "trec", qid: "q1", docid: "c2", grade: 3, startSeconds: null },
        { source: "trec", qid: "q1", docid: "c2", grade: 3, startSeconds: 31.5 },
      ],
    ]);
  });

  it("refuses a different run for an existing system unless --replace", async () => {
    const path = join(dir, "run2.txt");
    writeFileSync(path, "q1 Q0 c4 1 2 bm25\n");
    const before = await snapshot();
    const r = runCli(["import", "run", "--system", "bm25", path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: system "bm25" already has a run with different content \(imported .*\); use --replace to replace its entries\n$/,
    );
    expect(await snapshot()).toEqual(before);
    expect(ok(["import", "run", "--system", "bm25", "--replace", path])).toMatch(
      /^replaced the run of system bm25: 1 run entries/,
    );
    const run = await db.run.findFirstOrThrow({ where: { system: "bm25" }, include: { entries: true } });
    expect(run.id).toBe(before.runs[0].id);
    expect(run.entries).toHaveLength(1);
  });

  it("serves uploads too: content as {name, bytes} with progress", async () => {
    const { importRun } = await import("../../lib/imports/run.ts");
    const seen: [number, number][] = [];
    const r = await importRun(
      db,
      projectId,
      { name: "upload.run", bytes: readFileSync(fx("run.txt")) },
      { system: "upload", onProgress: (d, t) => seen.push([d, t]) },
    );
    expect(r).toMatchObject({ kind: "run", file: "upload.run", rows: 5, created: 5 });
    expect(seen.at(-1)).toEqual([5, 5]);
    const { importVideos } = await import("../../lib/imports/videos.ts");
    await expect(
      importVideos(db, projectId, {
        name: "up.jsonl",
        bytes: Buffer.from(
          '{"id":"v3","title":"t","url":"https://www.youtube.com/watch?v=x","path":"demo/media/rrf.mp4"}\n',
        ),
      }),
    ).rejects.toThrow(
      "up.jsonl:1: url: expected at most one of url (YouTube or http) or path (self-hosted file); neither for a video without media",
    );
  });
});

describe("media confinement", () => {
  const root = join(import.meta.dirname, "..", "..");
  const media = join(root, "demo", "media");
  it("refuses paths outside the media root, traversal, non-media types and links out of the root, in the CLI", async () => {
    const where = `${media}, ${join(root, "media")} (set ASSESSOR_MEDIA_ROOT to change)`;
    await rejects(
      ["videos"],
      "etc.jsonl",
      '{"id":"x1","title":"t","path":"/etc/passwd"}\n',
      (p) => `${p}:1: path: expected a file inside the media root ${where}, not /etc/passwd`,
    );
    await rejects(
      ["videos"],
      "dots.jsonl",
      '{"id":"x2","title":"t","path":"demo/media/../../data/.secret"}\n',
      (p) => `${p}:1: path: expected a file inside the media root ${where}, not ${join(root, "data", ".secret")}`,
    );
    await rejects(
      ["videos"],
      "type.csv",
      "id,title,url,path,duration\nx3,t,,demo/media/notes.txt,\n",
      (p) =>
        `${p}:2: path: expected a video or audio file (.mp4, .webm, .ogv, .mov, .mp3, .m4a, .ogg, .opus, .wav), not demo/media/notes.txt`,
    );
  });
  it("refuses a symlink out of the root, in the web upload path too", async () => {
    const outside = mkdtempSync(join(tmpdir(), "media-out-"));
    writeFileSync(join(outside, "secret.mp4"), "not a video");
    const linkRoot = mkdtempSync(join(tmpdir(), "media-root-"));
    symlinkSync(join(outside, "secret.mp4"), join(linkRoot, "link.mp4"));
    writeFileSync(join(linkRoot, "real.mp4"), "a video");
    const { importVideos } = await import("../../lib/imports/videos.ts");
    const previous = process.env.ASSESSOR_MEDIA_ROOT;
    process.env.ASSESSOR_MEDIA_ROOT = linkRoot;
    try {
      const up = (path: string) =>
        importVideos(db, projectId, {
          name: "up.jsonl",
          bytes: Buffer.from(JSON.stringify({ id: "x4", title: "t", path }) + "\n"),
        });
      await expect(up(join(linkRoot, "link.mp4"))).rejects.toThrow(
        `up.jsonl:1: path: expected a file inside the media root, not a link out of it: ${join(linkRoot, "link.mp4")}`,
      );
      await expect(up("demo/media/bm25.mp4")).rejects.toThrow(
        `up.jsonl:1: path: expected a file inside the media root ${linkRoot} (set ASSESSOR_MEDIA_ROOT to change)`,
      );
      await expect(up(join(linkRoot, "real.mp4"))).resolves.toMatchObject({ created: 1 });
    } finally {
      if (previous === undefined) delete process.env.ASSESSOR_MEDIA_ROOT;
      else process.env.ASSESSOR_MEDIA_ROOT = previous;
      rmSync(outside, { recursive: true, force: true });
      rmSync(linkRoot, { recursive: true, force: true });
    }
  });
});

describe("usage", () => {
  it("prints help for each import (exit 0) and exits 2 on a usage error", () => {
    const help = runCli(["import", "run", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--system <name>");
    const missing = runCli(["import", "run", fx("run.txt")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("error: required option '--system <name>' not specified");
  });
});

describe("changed rows", () => {
  it("updates a changed chunk in place and leaves identical ones alone", async () => {
    const { importChunks } = await import("../../lib/imports/chunks.ts");
    const before = await db.chunk.findFirstOrThrow({ where: { externalId: "c1" } });
    const bytes = Buffer.from(
      '{"id":"c1","video":"v1","start":0,"end":30,"text":"welcome, and an overview"}\n{"id":"c2","video":"v1","start":30,"end":60,"text":"pooling explained"}\n',
    );
    expect(await importChunks(db, projectId, { name: "changed.jsonl", bytes })).toMatchObject({
      rows: 2,
      created: 0,
      updated: 1,
      unchanged: 1,
    });
    expect(await db.chunk.findFirstOrThrow({ where: { externalId: "c1" } })).toEqual({
      ...before,
      text: "welcome, and an overview",
    });
  });
});

describe("bad input: exact error, exit 1, nothing written", () => {
  it("chunks: every kind of error reported in line order, and nothing written", async () => {
    const { importChunks } = await import("../../lib/imports/chunks.ts");
    const count = await db.chunk.count();
    const bytes = Buffer.from(
      [
        '{"id":"n1","video":"v1","start":0,"end":1,"text":"a"}',
        '{"id":"n2","video":"nope","start":0,"end":1,"text":"b"}',
        "{oops",
        '{"id":"n1","video":"v1","start":1,"end":2,"text":"c"}',
        '{"id":"n3","video":"v1","start":5,"end":1,"text":"d"}',
      ].join("\n") + "\n",
    );
    const err = await importChunks(db, projectId, { name: "mixed.jsonl", bytes }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).errors.map((e) => [e.line, e.field ?? null])).toEqual([
      [2, "video"],
      [3, null],
      [4, "id"],
      [5, "end"],
    ]);
    expect(await db.chunk.count()).toBe(count);
  });

  it("wrong column count (run, qrels, TSV)", async () => {
    await rejects(
      ["run", "--system", "s2"],
      "cols.run",
      "q1 Q0 c2 1 12.5 s2\nq1 Q0 c1 2 9.5\n",
      (p) => `${p}:2: expected 6 columns: qid Q0 docid rank score tag; found 5 columns`,
    );
    await rejects(
      ["labels", "--source", "x"],
      "cols.qrels",
      "q1 0 c2\n",
      (p) => `${p}:1: expected 4 columns: qid iter docid grade; found 3 columns`,
    );
    await rejects(
      ["queries"],
      "cols.tsv",
      "id\ttext\ttags\nq7\ta question\n",
      (p) => `${p}:2: expected 3 columns (id, text, tags); found 2`,
    );
  });

  it("non-numeric rank, score and grade", async () => {
    await rejects(
      ["run", "--system", "s2"],
      "rank.run",
      "q1 Q0 c2 first 12.5 s2\n",
      (p) => `${p}:1: rank: expected an integer rank, found "first"`,
    );
    await rejects(
      ["run", "--system", "s2"],
      "score.run",
      "q1 Q0 c2 1 high s2\n",
      (p) => `${p}:1: score: expected a finite number as score, found "high"`,
    );
    await rejects(
      ["judge", "--judge", "j2"],
      "grade.qrels",
      "q1 0 c2 high\n",
      (p) => `${p}:1: grade: expected an integer grade 0–3, found "high"`,
    );
    await rejects(
      ["judge", "--judge", "j2"],
      "grade.jsonl",
      '{"query":"q1","chunk":"c2","grade":"high"}\n',
      (p) => `${p}:1: grade: expected an integer grade 0–3`,
    );
  });

  it("grade outside 0–3", async () => {
    await rejects(
      ["labels", "--source", "x"],
      "range.qrels",
      "q1 0 c1 1\nq1 0 c2 4\n",
      (p) => `${p}:2: grade: expected a grade 0–3, found 4 (use --clip to map grades into 0–3)`,
    );
    await rejects(
      ["labels", "--source", "x"],
      "range.jsonl",
      '{"query":"q1","chunk":"c2","grade":-1}\n',
      (p) => `${p}:1: grade: expected a grade 0–3`,
    );
  });

  it("a run naming an unknown query or chunk", async () => {
    await rejects(
      ["run", "--system", "s2"],
      "uq.run",
      "q1 Q0 c2 1 3 s2\nq9 Q0 c2 1 3 s2\n",
      (p) => `${p}:2: qid: unknown query "q9"; expected the id of a query imported into this project`,
    );
    await rejects(
      ["run", "--system", "s2"],
      "uc.run",
      "q1 Q0 c2 1 3 s2\nq1 Q0 nope 2 2 s2\n",
      (p) => `${p}:2: docid: unknown chunk "nope"; expected the id of a chunk of chunking "default"`,
    );
    await rejects(
      ["labels", "--source", "x"],
      "uc.jsonl",
      '{"query":"q1","chunk":"nope","grade":1}\n',
      (p) => `${p}:1: chunk: unknown chunk "nope"; expected the id of a chunk imported into this project`,
    );
  });

  it("the same chunk twice in one query of a run (adjacent or after another query)", async () => {
    await rejects(
      ["run", "--system", "s2"],
      "dup.run",
      "q1 Q0 c2 1 3 s2\nq1 Q0 c1 2 2 s2\nq1 Q0 c2 3 1 s2\n",
      (p) =>
        `${p}:3: docid: docid "c2" appears twice for query "q1" (first on line 1); expected each chunk once per query`,
    );
    await rejects(
      ["run", "--system", "s2"],
      "dup2.run",
      "q1 Q0 c2 1 3 s2\nq2 Q0 c2 1 3 s2\nq1 Q0 c2 2 1 s2\n",
      (p) =>
        `${p}:3: docid: docid "c2" appears twice for query "q1" (first on line 1); expected each chunk once per query`,
    );
  });

  it("end before start or negative times (chunks, transcript, queries)", async () => {
    await rejects(
      ["chunks"],
      "end.jsonl",
      '{"id":"c9","video":"v1","start":20,"end":10,"text":"t"}\n',
      (p) => `${p}:1: end: expected the end not before the start (20 s)`,
    );
    await rejects(
      ["chunks"],
      "neg.jsonl",
      '{"id":"c9","video":"v1","start":-1,"end":10,"text":"t"}\n',
      (p) => `${p}:1: start: expected the start of 0 seconds or more`,
    );
    await rejects(
      ["transcript", "--video", "v1"],
      "end.vtt",
      "WEBVTT\n\n00:00:10.000 --> 00:00:05.000\nbackwards\n",
      (p) =>
        `${p}:3: end: expected the end (00:00:05.000) not before the start (00:00:10.000) (repair policy "clip" sets such an end to the start, "skip" drops the cue)`,
    );
    await rejects(
      ["queries"],
      "neg.jsonl",
      '{"id":"q9","text":"t","start":-3}\n',
      (p) => `${p}:1: start: expected the reference start of 0 seconds or more`,
    );
  });

  it("an unknown video", async () => {
    await rejects(
      ["chunks"],
      "uv.jsonl",
      '{"id":"c9","video":"v9","start":0,"end":10,"text":"t"}\n',
      (p) =>
        `${p}:1: video: unknown video "v9"; expected the id of a video imported into this project (import videos first)`,
    );
    await rejects(
      ["queries"],
      "uv.tsv",
      "id\ttext\tvideo\nq9\ta question\tv9\n",
      (p) =>
        `${p}:2: video: unknown video "v9"; expected the id of a video imported into this project (import videos first)`,
    );
    await rejects(
      ["transcript", "--video", "v9"],
      "ok.vtt",
      readFileSync(fx("talk.vtt")),
      (p) =>
        `${p}:1: video: unknown video "v9"; expected the id of a video imported into this project (import videos first)`,
    );
  });

  it("bytes that are not UTF-8", async () => {
    const latin1 = (s: string) => Buffer.from(s, "latin1");
    await rejects(
      ["run", "--system", "s2"],
      "latin1.run",
      latin1("q1 Q0 c2 1 3 s2\nq1 Q0 c\xe9 2 2 s2\n"),
      (p) => `${p}:2: not valid UTF-8: byte 0xe9 at column 8 (save the file as UTF-8)`,
    );
    await rejects(
      ["videos"],
      "latin1.jsonl",
      latin1('{"id":"v9","title":"Caf\xe9","path":"x.mp4"}\n'),
      (p) => `${p}:1: not valid UTF-8: byte 0xe9 at column 24 (save the file as UTF-8)`,
    );
    await rejects(
      ["queries"],
      "latin1.tsv",
      latin1("id\ttext\nq9\tcaf\xe9?\n"),
      (p) => `${p}:2: not valid UTF-8: byte 0xe9 at column 7 (save the file as UTF-8)`,
    );
  });

  it("an empty file", async () => {
    await rejects(
      ["run", "--system", "s2"],
      "empty.run",
      "",
      (p) => `${p}:1: the file is empty: expected run lines (6 columns: qid Q0 docid rank score tag)`,
    );
    await rejects(
      ["chunks"],
      "empty.jsonl",
      "\n",
      (p) => `${p}:1: the file is empty: expected one JSON object per line: id, video, start, end, text`,
    );
    await rejects(
      ["videos"],
      "empty.csv",
      "",
      (p) => `${p}:1: the file is empty: expected a CSV header row (id, title, url, path, duration) and data rows`,
    );
    await rejects(
      ["judge", "--judge", "j2"],
      "empty.qrels",
      "",
      (p) => `${p}:1: the file is empty: expected qrels lines (4 columns: qid iter docid grade)`,
    );
    await rejects(
      ["transcript", "--video", "v1"],
      "empty.srt",
      "",
      (p) => `${p}:1: the file is empty: expected captions (WebVTT, SRT or YouTube json3)`,
    );
  });

  it("a duplicate id inside one file", async () => {
    await rejects(
      ["videos"],
      "dup.jsonl",
      '{"id":"v8","title":"a","path":"demo/media/a.mp4"}\n{"id":"v8","title":"b","path":"demo/media/b.mp4"}\n',
      (p) => `${p}:2: id: duplicate id "v8" (first on line 1); expected each id once per file`,
    );
    await rejects(
      ["chunks"],
      "dupc.jsonl",
      '{"id":"c8","video":"v1","start":0,"end":1,"text":"a"}\n{"id":"c8","video":"v1","start":1,"end":2,"text":"b"}\n',
      (p) => `${p}:2: id: duplicate id "c8" (first on line 1); expected each id once per file`,
    );
    await rejects(
      ["queries"],
      "dupq.tsv",
      "id\ttext\nq8\tone\nq8\ttwo\n",
      (p) => `${p}:3: id: duplicate id "q8" (first on line 2); expected each id once per file`,
    );
    await rejects(
      ["labels", "--source", "x"],
      "dup.qrels",
      "q1 0 c1 1\nq1 0 c1 2\n",
      (p) => `${p}:2: docid: docid "c1" is judged twice for query "q1" (first on line 1)`,
    );
  });

  it("reports every bad line of a file, not only the first", async () => {
    await rejects(
      ["run", "--system", "s2"],
      "many.run",
      "q1 Q0 c2 1 3 s2\nq9 Q0 c2 1 3 s2\nq1 Q0 c1 x 3 s2\n",
      (p) =>
        `2 errors:\n${p}:2: qid: unknown query "q9"; expected the id of a query imported into this project\n${p}:3: rank: expected an integer rank, found "x"`,
    );
  });
});
