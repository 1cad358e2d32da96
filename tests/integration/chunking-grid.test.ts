import { beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";
import { parseCaptions } from "../../lib/formats/captions.ts";
import { chunkCues } from "../../lib/formats/chunker.ts";

/**
 * `assessor chunking grid`: every size × overlap cut from the stored transcript
 * cues, named c<size>o<overlap seconds>; chunk counts checked against chunkCues on the same file;
 * a second grid adds nothing; a name held by other parameters refuses the whole grid.
 */
const fx = (f: string) => join(import.meta.dirname, "..", "fixtures", "imports", f);
useTestDatabase();
let db: Db;

function ok(args: string[]): string {
  const r = runCli(args);
  if (r.code !== 0) throw new Error(`assessor ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  ok(["project", "create", "grid"]);
  ok(["import", "videos", fx("videos.jsonl")]);
  ok(["import", "transcript", "--video", "v1", fx("talk.vtt")]);
}, 120_000);

describe("chunking grid", () => {
  it("cuts every combination from the stored transcript, as chunkCues does", async () => {
    const cues = parseCaptions(readFileSync(fx("talk.vtt")), "talk.vtt").cues;
    const expected = (size: number, overlap: number) => chunkCues("v1", cues, { by: "seconds", size, overlap });
    const { chunkingGrid } = await import("../../lib/chunkings/grid.ts");
    const project = await db.project.findUniqueOrThrow({ where: { name: "grid" } });
    const rows = await chunkingGrid(db, project.id, { sizes: [20, 40], overlaps: ["0", "25%"] });
    expect(rows.map((r) => [r.name, r.size, r.overlap])).toEqual([
      ["c20o0", 20, 0],
      ["c20o5", 20, 5],
      ["c40o0", 40, 0],
      ["c40o10", 40, 10],
    ]);
    for (const r of rows) {
      const want = expected(r.size, r.overlap);
      expect(r).toMatchObject({ videos: 1, chunks: want.length, created: want.length, updated: 0 });
      const stored = await db.chunk.findMany({
        where: { chunking: { projectId: project.id, name: r.name } },
        select: { externalId: true, startSeconds: true, endSeconds: true },
        orderBy: { startSeconds: "asc" },
      });
      expect(stored.map((c) => [c.externalId, c.startSeconds, c.endSeconds])).toEqual(
        want.map((c) => [c.id, c.start, c.end]),
      );
      expect(
        await db.chunking.findFirst({
          where: { projectId: project.id, name: r.name },
          select: { method: true, size: true, overlap: true },
        }),
      ).toEqual({ method: "seconds", size: r.size, overlap: r.overlap });
    }
    // Not vacuous: the cuts differ.
    expect(new Set(rows.map((r) => r.chunks)).size).toBeGreaterThan(1);
  });

  it("prints a table from the CLI; the same grid again adds nothing", () => {
    const lines = ok(["chunking", "grid", "--sizes", "20,40", "--overlaps", "0,25%"]).trim().split("\n");
    expect(lines[0]).toBe("chunking\tsize\toverlap\tvideos\tchunks\tnew\tchanged\tunchanged");
    expect(lines.slice(1).map((l) => l.split("\t")[0])).toEqual(["c20o0", "c20o5", "c40o0", "c40o10"]);
    for (const l of lines.slice(1)) expect(l.split("\t").slice(5, 7)).toEqual(["0", "0"]);
  }, 120_000);

  it("refuses a combination whose name is held by other parameters, writing nothing", async () => {
    ok([
      "import",
      "transcript",
      "--chunking",
      "c60o0",
      "--chunk-seconds",
      "30",
      "--overlap-seconds",
      "0",
      "--video",
      "v1",
      fx("talk.vtt"),
    ]);
    const before = await db.chunk.count();
    const r = runCli(["chunking", "grid", "--sizes", "60,80", "--overlaps", "0"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'chunking "c60o0" exists with other parameters (seconds, size 30, overlap 0): nothing was written',
    );
    expect(await db.chunk.count()).toBe(before);
    expect(await db.chunking.count({ where: { name: "c80o0" } })).toBe(0);
    expect(runCli(["chunking", "grid", "--sizes", "20", "--overlaps", "100%"]).stderr).toContain(
      "expected the overlap (20 seconds) to be smaller than the chunk size (20 seconds)",
    );
    expect(runCli(["chunking", "grid", "--sizes", "20", "--overlaps", "0", "--videos", "v2"]).stderr).toContain(
      "--videos: no stored transcript for v2",
    );
  }, 120_000);

  it("reuses a chunking of the same size and overlap under its own name instead of copying it", async () => {
    // `default` was cut by the transcript import at 60 s / 15 s; c60o0 holds 30 s / 0.
    const chunkings = await db.chunking.count();
    const lines = ok(["chunking", "grid", "--sizes", "60,30", "--overlaps", "25%"])
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t"));
    // 60 s / 25% = 15 s: `default`, unchanged; 30 s / 7.5 s: new, c30o7.5.
    expect(lines.map((l) => [l[0], l[5]])).toEqual([
      ["default", "0"],
      ["c30o7.5", expect.stringMatching(/^[1-9]/)],
    ]);
    expect(await db.chunking.count({ where: { name: "c60o15" } })).toBe(0);
    expect(await db.chunking.count()).toBe(chunkings + 1);
    // 30 s / 0 is c60o0's cut: reused under that name, nothing new.
    const again = ok(["chunking", "grid", "--sizes", "30", "--overlaps", "0"]).trim().split("\n")[1].split("\t");
    expect([again[0], again[5], again[6]]).toEqual(["c60o0", "0", "0"]);
    expect(await db.chunking.count({ where: { name: "c30o0" } })).toBe(0);
  }, 120_000);
});
