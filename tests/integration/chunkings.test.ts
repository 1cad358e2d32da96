import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";

/**
 * Chunkings through the CLI on the suite's database: transcripts cut into two
 * named chunkings, a chunk file into a third, `chunking list` and `export`, a refused re-cut
 * under an existing name, and a run's chunking recognised from its docids, with the errors for a
 * run that mixes chunkings, names a chunk of none, or could belong to several.
 */
const fixtures = join(import.meta.dirname, "..", "fixtures", "imports");
const fx = (f: string) => join(fixtures, f);
useTestDatabase();
let db: Db;
let dir: string;

function ok(args: string[]): string {
  const r = runCli(args);
  if (r.code !== 0) throw new Error(`assessor ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  dir = mkdtempSync(join(tmpdir(), "assessor-chunkings-"));
  ok(["project", "create", "grid"]);
  ok(["import", "videos", fx("videos.jsonl")]);
  ok(["import", "queries", fx("queries.jsonl")]);
}, 120_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe("chunkings", () => {
  it("imports transcripts and chunk files into named chunkings and lists them", () => {
    expect(
      ok(["import", "transcript", "--chunking", "c60o15", "--video", "v1", fx("talk.vtt")])
        .split("\n")
        .slice(0, 3),
    ).toEqual(["v1_0-70000", "v1_45500-120000", "v1_100000-120000"]);
    // Cut by words into another chunking: its own ids, the first of which (v1_0-20000) no other chunking holds.
    expect(
      ok([
        "import",
        "transcript",
        "--chunking",
        "w4",
        "--video",
        "v1",
        "--chunk-words",
        "4",
        "--overlap-words",
        "1",
        fx("talk.vtt"),
      ]).split("\n")[0],
    ).toBe("v1_0-20000");
    expect(ok(["import", "chunks", "--chunking", "files", fx("chunks.jsonl")])).toMatch(
      /^imported 4 chunks \(chunking files\) from .*: 4 new, 0 changed, 0 unchanged/,
    );
    // The same chunk file into `default` too: two chunkings now share the ids c1..c4.
    expect(ok(["import", "chunks", fx("chunks.jsonl")])).toMatch(
      /^imported 4 chunks from .*: 4 new, 0 changed, 0 unchanged/,
    );
    const list = ok(["chunking", "list"]).trim().split("\n");
    expect(list).toEqual([
      "name\tmethod\tsize\toverlap\tchunks\truns",
      "c60o15\tseconds\t60\t15\t3\t-",
      "default\timported\t-\t-\t4\t-",
      "files\timported\t-\t-\t4\t-",
      "w4\twords\t4\t1\t5\t-",
    ]);
  }, 300_000);

  it("refuses another cut under an existing chunking's name, and changes nothing", async () => {
    const before = await db.chunk.count();
    const r = runCli([
      "import",
      "transcript",
      "--chunking",
      "c60o15",
      "--video",
      "v1",
      "--chunk-seconds",
      "20",
      "--overlap-seconds",
      "5",
      fx("talk.vtt"),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'chunking "c60o15" holds chunks cut as seconds, size 60, overlap 15; this import is seconds, size 20, overlap 5: import it under another --chunking name',
    );
    expect(await db.chunk.count()).toBe(before);
    // The same cut again is fine and changes nothing.
    expect(ok(["import", "transcript", "--chunking", "c60o15", "--video", "v1", fx("talk.vtt")])).toMatch(
      /3 chunks of video v1 .*: 0 new, 0 changed, 3 unchanged/,
    );
    expect(runCli(["import", "chunks", "--chunking", "bad name", fx("chunks.jsonl")]).stderr).toContain(
      'chunking name "bad name": expected 1-64 letters',
    );
  }, 300_000);

  it("exports one chunking as the chunk import's JSONL", () => {
    const lines = ok(["chunking", "export", "c60o15", "--format", "jsonl"])
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; video: string; start: number; end: number });
    expect(lines.map((l) => [l.id, l.video, l.start, l.end])).toEqual([
      ["v1_0-70000", "v1", 0, 70],
      ["v1_45500-120000", "v1", 45.5, 120],
      ["v1_100000-120000", "v1", 100, 120],
    ]);
    const missing = runCli(["chunking", "export", "nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no chunking "nope" in this project; its chunkings: c60o15, default, files, w4');
  }, 300_000);

  it("recognises a run's chunking from its docids", async () => {
    const run = file("c60.run", "q1 Q0 v1_45500-120000 1 3 s\nq1 Q0 v1_0-70000 2 2 s\nq2 Q0 v1_100000-120000 1 1 s\n");
    expect(ok(["import", "run", "--system", "sec60", run])).toMatch(/imported 3 run entries for system sec60/);
    const stored = await db.run.findFirstOrThrow({
      where: { system: "sec60" },
      include: { chunking: true, entries: { include: { chunk: true } } },
    });
    expect(stored.chunking.name).toBe("c60o15");
    expect(stored.entries.every((e) => e.chunk.chunkingId === stored.chunkingId)).toBe(true);
    expect(ok(["chunking", "list"])).toContain("c60o15\tseconds\t60\t15\t3\tsec60");
  }, 300_000);

  it("refuses a run mixing chunkings, naming a chunk of none, or held by several, with file and line", async () => {
    const runs = await db.run.count();
    const mixed = runCli([
      "import",
      "run",
      "--system",
      "mixed",
      file("mixed.run", "q1 Q0 v1_0-70000 1 3 s\nq1 Q0 v1_0-20000 2 2 s\n"),
    ]);
    expect(mixed.code).toBe(1);
    expect(mixed.stderr).toContain(
      'mixed.run:2: docid: chunk "v1_0-20000" belongs to chunking "w4", but the earlier lines name chunks of "c60o15": a run belongs to exactly one chunking',
    );
    const none = runCli([
      "import",
      "run",
      "--system",
      "none",
      file("none.run", "q1 Q0 v1_0-70000 1 3 s\nq2 Q0 nowhere 1 2 s\n"),
    ]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      'none.run:2: docid: unknown chunk "nowhere": no chunking of this project holds it (chunkings: "c60o15", "default", "files", "w4")',
    );
    const shared = file("shared.run", "q1 Q0 c1 1 3 s\nq1 Q0 c2 2 2 s\n");
    const both = runCli(["import", "run", "--system", "shared", shared]);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain(
      'shared.run: every chunk id of this run is found in several chunkings ("default", "files"); choose one with --chunking NAME',
    );
    expect(await db.run.count()).toBe(runs);
    // --chunking resolves it; a docid outside the named chunking is an unknown chunk at its line.
    ok(["import", "run", "--system", "shared", "--chunking", "files", shared]);
    expect(
      (await db.run.findFirstOrThrow({ where: { system: "shared" }, include: { chunking: true } })).chunking.name,
    ).toBe("files");
    const outside = runCli([
      "import",
      "run",
      "--system",
      "outside",
      "--chunking",
      "files",
      file("outside.run", "q1 Q0 c1 1 3 s\nq1 Q0 v1_0-70000 2 2 s\n"),
    ]);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain(
      'outside.run:2: docid: unknown chunk "v1_0-70000"; expected the id of a chunk of chunking "files"',
    );
  }, 300_000);

  it("resolves reference labels within a chunking when ids are shared", async () => {
    const qrels = file("shared.qrels", "q1 0 c1 2\n");
    const r = runCli(["import", "labels", "--source", "trec", qrels]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'shared.qrels:1: docid: chunk "c1" exists in several chunkings ("default", "files"); choose one with --chunking NAME',
    );
    ok(["import", "labels", "--source", "trec", "--chunking", "files", qrels]);
    const label = await db.referenceLabel.findFirstOrThrow({ include: { chunk: { include: { chunking: true } } } });
    expect(label.chunk.chunking.name).toBe("files");
  }, 300_000);
});
