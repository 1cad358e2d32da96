import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli, runCliOk } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";

/**
 * Transcripts as they come, through the real CLI on the suite's database:
 * several files and folders in one call, each file's video from --video, a mapping file or the
 * file's name; every file checked before any is written; bad cues under each --repair policy;
 * cues longer than the chunk size reported.
 */
const fixtures = join(import.meta.dirname, "..", "fixtures", "imports");
useTestDatabase();
let db: Db;
let dir: string;
const P = ["--project", "transcripts"];

const chunkCount = () => db.chunk.count();
const vtt = (...cues: [string, string, string][]) =>
  `WEBVTT\n\n${cues.map(([a, b, t]) => `${a} --> ${b}\n${t}\n`).join("\n")}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "transcripts-test-"));
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  runCliOk(["project", "create", "transcripts"]);
  writeFileSync(
    join(dir, "videos.jsonl"),
    [
      '{"id":"v1","title":"One","url":"https://www.youtube.com/watch?v=abcdefghijk"}',
      '{"id":"v2","title":"Two","url":"https://www.youtube.com/watch?v=bbcdefghijk"}',
      '{"id":"v2.en","title":"Two, English","url":"https://www.youtube.com/watch?v=cbcdefghijk"}',
    ].join("\n"),
  );
  runCliOk(["import", "videos", ...P, join(dir, "videos.jsonl")]);
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe("several transcripts in one call", () => {
  it("takes a folder, names each file's video by its file name (longest known prefix) and reports each file", async () => {
    const folder = join(dir, "captions");
    mkdirSync(folder);
    copyFileSync(join(fixtures, "talk.vtt"), join(folder, "v1.vtt"));
    copyFileSync(join(fixtures, "talk.srt"), join(folder, "v2.en.srt")); // video v2.en exists: the longer prefix wins over v2
    writeFileSync(join(folder, "notes.txt"), "not a caption file: left out of the folder's files");
    const r = runCli(["import", "transcript", ...P, "--chunk-seconds", "60", "--overlap-seconds", "15", folder]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    // talk.vtt cut 60 s / 15 s gives three chunks (tests/integration/imports.test.ts); the SRT is the same captions.
    expect(lines.slice(0, 6)).toEqual([
      "v1_0-70000",
      "v1_45500-120000",
      "v1_100000-120000",
      "v2.en_0-70000",
      "v2.en_45500-120000",
      "v2.en_100000-120000",
    ]);
    expect(lines[6]).toMatch(/^imported 3 chunks of video v1 from .*v1\.vtt: 3 new, 0 changed, 0 unchanged$/);
    expect(lines[7]).toMatch(/^imported 3 chunks of video v2\.en from .*v2\.en\.srt: 3 new, 0 changed, 0 unchanged$/);
    expect(lines[8]).toMatch(/^imported 2 transcripts, 6 chunks \(\d+\.\d s\)$/);
    expect(await chunkCount()).toBe(6);
  });

  it("takes the videos from a mapping file", async () => {
    const a = join(dir, "a.vtt");
    copyFileSync(join(fixtures, "talk.vtt"), a);
    writeFileSync(join(dir, "map.csv"), "file,video\na.vtt,v2\n");
    const out = runCliOk([
      "import",
      "transcript",
      ...P,
      "--chunking",
      "c30",
      "--chunk-seconds",
      "30",
      "--map",
      join(dir, "map.csv"),
      a,
    ]);
    expect(out).toMatch(/imported \d+ chunks of video v2 from .*a\.vtt: \d+ new/);
  });

  it("checks every file before writing any: one bad file writes nothing, and each error names its file", async () => {
    const good = join(dir, "v1.vtt");
    const bad = join(dir, "v2.vtt");
    copyFileSync(join(fixtures, "talk.vtt"), good);
    writeFileSync(bad, vtt(["00:00:05.000", "00:00:01.000", "backwards"]));
    const unknown = join(dir, "nobody.vtt");
    copyFileSync(join(fixtures, "talk.vtt"), unknown);
    const before = await chunkCount();
    const r = runCli(["import", "transcript", ...P, "--chunking", "c45", "--chunk-seconds", "45", good, bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: ${bad}:3: end: expected the end (00:00:01.000) not before the start (00:00:05.000) (repair policy "clip" sets such an end to the start, "skip" drops the cue)\n`,
    );
    const r2 = runCli(["import", "transcript", ...P, "--chunking", "c45", "--chunk-seconds", "45", good, unknown]);
    expect(r2.code).toBe(1);
    expect(r2.stderr).toBe(
      `error: ${unknown}:1: video: no imported video is named by this file's name (e.g. talk7.vtt for video talk7): name it with --video or --map\n`,
    );
    const r3 = runCli(["import", "transcript", ...P, "--video", "v1", good, bad]);
    expect(r3.code).toBe(1);
    expect(r3.stderr).toMatch(/--video names the video of one transcript; 2 files were given/);
    expect(await chunkCount()).toBe(before);
  });
});

describe("bad cues: --repair fail | clip | skip", () => {
  const file = () => join(dir, "repair", "v1.vtt");
  beforeAll(() => {
    mkdirSync(join(dir, "repair"));
    // Lines: 1 WEBVTT, 3 first timing line, 6 second (backwards), 9 third (backwards), 12 fourth.
    writeFileSync(
      file(),
      vtt(
        ["00:00:00.000", "00:00:04.000", "alpha"],
        ["00:00:10.000", "00:00:08.000", "bravo"],
        ["00:00:12.000", "00:00:11.500", "charlie"],
        ["00:00:14.000", "00:00:18.000", "delta"],
      ),
    );
  });

  it("fail (the default) lists every bad cue and writes nothing", async () => {
    const before = await chunkCount();
    const r = runCli([
      "import",
      "transcript",
      ...P,
      "--chunking",
      "c100",
      "--chunk-seconds",
      "100",
      "--video",
      "v1",
      file(),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      [
        "error: 2 errors:",
        `${file()}:6: end: expected the end (00:00:08.000) not before the start (00:00:10.000) (repair policy "clip" sets such an end to the start, "skip" drops the cue)`,
        `${file()}:9: end: expected the end (00:00:11.500) not before the start (00:00:12.000) (repair policy "clip" sets such an end to the start, "skip" drops the cue)`,
        "",
      ].join("\n"),
    );
    expect(await chunkCount()).toBe(before);
  });

  it("clip keeps the cue with its end at its start, and warns at its line", async () => {
    const r = runCli([
      "import",
      "transcript",
      ...P,
      "--chunking",
      "c100",
      "--chunk-seconds",
      "100",
      "--repair",
      "clip",
      "--video",
      "v1",
      file(),
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      [
        `warning: ${file()}:6: end: cue clipped: its end (00:00:08.000) was before its start (00:00:10.000); the end is now the start`,
        `warning: ${file()}:9: end: cue clipped: its end (00:00:11.500) was before its start (00:00:12.000); the end is now the start`,
        "",
      ].join("\n"),
    );
    // One 100 s window holds all four cues: 0 s to delta's end, 18 s.
    expect(r.stdout.split("\n")[0]).toBe("v1_0-18000");
    expect(r.stdout).toMatch(/imported 1 chunks of video v1 .*: 1 new, 0 changed, 0 unchanged, 2 warnings/);
    const c = await db.chunk.findFirstOrThrow({ where: { externalId: "v1_0-18000" } });
    expect(c.text).toBe("alpha bravo charlie delta");
  });

  it("skip drops the cue, and warns at its line", async () => {
    const r = runCli([
      "import",
      "transcript",
      ...P,
      "--chunking",
      "c100",
      "--chunk-seconds",
      "100",
      "--repair",
      "skip",
      "--video",
      "v1",
      file(),
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr.split("\n")[0]).toBe(
      `warning: ${file()}:6: end: cue skipped: its end (00:00:08.000) is before its start (00:00:10.000)`,
    );
    const c = await db.chunk.findFirstOrThrow({ where: { externalId: "v1_0-18000" } });
    expect(c.text).toBe("alpha delta");
  });
});

describe("cues longer than the chunk size", () => {
  it("are reported at their line; a chunk runs at most the size plus its longest cue", async () => {
    const f = join(dir, "long.vtt");
    // A 95 s cue at 10 s in a 20 s chunking without overlap (the issue's case): the window [0, 20)
    // holds intro and the long cue, so its chunk runs 0–105 s (85 s past the size, within 20 + 95);
    // the windows [20, 40) … [80, 100) hold no cue start; [100, 120) holds outro.
    writeFileSync(
      f,
      vtt(
        ["00:00:00.000", "00:00:05.000", "intro"],
        ["00:00:10.000", "00:01:45.000", "a very long cue"],
        ["00:01:46.000", "00:01:50.000", "outro"],
      ),
    );
    const r = runCli(["import", "transcript", ...P, "--chunking", "c20", "--chunk-seconds", "20", "--video", "v2", f]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `warning: ${f}:6: end: cue lasts 95.0 s, longer than the chunk size (20 s): the chunks holding it run to its end\n`,
    );
    const ids = r.stdout.split("\n").filter((l) => l.startsWith("v2_"));
    expect(ids).toEqual(["v2_0-105000", "v2_106000-110000"]);
    for (const id of ids) {
      const c = await db.chunk.findFirstOrThrow({ where: { externalId: id } });
      expect(c.endSeconds - c.startSeconds).toBeLessThanOrEqual(20 + 95);
    }
  });
});
