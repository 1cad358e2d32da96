import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli, runCliOk } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";

/**
 * Listing, exporting and deleting what a lead imported, through the real CLI on
 * the suite's database: chunks list/export (the export imports back unchanged), run list/delete
 * (pool items and labels stay), project delete refused while human labels would be lost, and
 * forced after writing them to a backup folder.
 */
const fx = (f: string) => join(import.meta.dirname, "..", "fixtures", "imports", f);
useTestDatabase();
let db: Db;
let dir: string;
const P = ["--project", "life"];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lifecycle-test-"));
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  runCliOk(["project", "create", "life"]);
  runCliOk(["import", "videos", ...P, fx("videos.jsonl")]);
  runCliOk(["import", "chunks", ...P, fx("chunks.jsonl")]);
  runCliOk(["import", "queries", ...P, fx("queries.jsonl")]);
  runCliOk(["import", "run", ...P, "--system", "bm25", fx("run.txt")]);
  runCliOk(["pool", ...P, "--depth", "2"]);
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

describe("chunks", () => {
  it("lists every chunk by video and start, and exports the import's JSONL, which imports back unchanged", async () => {
    const list = runCliOk(["chunks", "list", ...P])
      .trim()
      .split("\n");
    expect(list).toEqual([
      "c1\tv1\t0\t30\twelcome and overview",
      "c2\tv1\t30\t60\tpooling explained",
      "c3\tv2\t0\t45.5\tgraded relevance",
      "c4\tv2\t45.5\t95.5\tagreement and kappa",
    ]);
    expect(
      runCliOk(["chunks", "list", ...P, "--video", "v2", "--json"])
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual(["c3", "c4"]);
    const out = join(dir, "chunks.jsonl");
    expect(runCliOk(["chunks", "export", ...P, "--out", out])).toBe(`wrote 4 chunks to ${out}\n`);
    // The same objects as the fixture that was imported, line for line.
    expect(
      readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(
      readFileSync(fx("chunks.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    );
    expect(runCliOk(["import", "chunks", ...P, out])).toMatch(/4 chunks .*: 0 new, 0 changed, 4 unchanged/);
    const bad = runCli(["chunks", "list", ...P, "--video", "nope"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('error: no video "nope" in this project\n');
  });
});

describe("runs", () => {
  it("lists runs and deletes one only with --yes; its pool items and their labels stay", async () => {
    runCliOk(["import", "run", ...P, "--system", "mistake", fx("run.txt")]);
    const list = runCliOk(["run", "list", ...P])
      .trim()
      .split("\n");
    expect(list.map((l) => l.split("\t").slice(0, 4))).toEqual([
      ["bm25", "5 entries", "2 questions", "4 pooled"],
      ["mistake", "5 entries", "2 questions", "0 pooled"],
    ]);
    runCliOk(["import", "labels", ...P, "--source", "trec", fx("labels.qrels")]);
    const items = await db.poolItem.count();
    const dry = runCli(["run", "delete", ...P, "bm25"]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toBe(
      "error: would delete run bm25 of project life (5 entries, 4 pool provenance rows; its pool items and labels stay): run again with --yes\n",
    );
    expect(await db.run.count()).toBe(2);
    expect(runCliOk(["run", "delete", ...P, "bm25", "--yes"])).toBe(
      "deleted run bm25 of project life: 5 entries, 4 pool provenance rows (pool items and their labels kept)\n",
    );
    expect((await db.run.findMany()).map((r) => r.system)).toEqual(["mistake"]);
    expect(await db.runEntry.count()).toBe(5);
    expect(await db.poolItem.count()).toBe(items);
    expect(await db.referenceLabel.count()).toBe(3);
    const missing = runCli(["run", "delete", ...P, "bm25", "--yes"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error: no run of system "bm25" in this project; runs: mistake\n');
  });
});

describe("project delete", () => {
  it("is refused while human labels would be lost; --force writes them to a backup folder first", async () => {
    const dry = runCli(["project", "delete", "life"]);
    expect(dry.code).toBe(1);
    expect(dry.stderr).toMatch(
      /^error: would delete project life: 2 videos, 4 chunks, 2 queries, 1 runs, 4 pool items, 0 annotator grades, 0 adjudications, 3 imported reference labels, 0 judge labels\. Run again with --yes --force/,
    );
    const refused = runCli(["project", "delete", "life", "--yes"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^error: project "life" holds 3 human labels \(0 annotator grades, 0 adjudications, 3 imported reference labels\) that would be lost/,
    );
    expect(await db.project.count()).toBe(1);
    const expected = runCliOk(["export", "qrels", ...P]);
    const backup = join(dir, "backup");
    const out = runCliOk(["project", "delete", "life", "--yes", "--force", "--backup-dir", backup]);
    expect(out).toContain(
      `wrote the reference label set to ${join(backup, "reference.qrels")} and ${join(backup, "reference.jsonl")}`,
    );
    expect(readFileSync(join(backup, "reference.qrels"), "utf8")).toBe(expected);
    expect(
      JSON.parse(readFileSync(join(backup, "reference.qrels.version.json"), "utf8")).label_set_version.labels,
    ).toBe(3);
    expect(existsSync(join(backup, "reference.jsonl.version.json"))).toBe(true);
    expect(await db.project.count()).toBe(0);
    expect(await db.chunk.count()).toBe(0);
    expect(await db.referenceLabel.count()).toBe(0);
  });

  it("deletes a project without human labels with --yes alone", async () => {
    runCliOk(["project", "create", "empty"]);
    writeFileSync(join(dir, "v.jsonl"), '{"id":"v","title":"t","url":"https://www.youtube.com/watch?v=abcdefghijk"}\n');
    runCliOk(["import", "videos", "--project", "empty", join(dir, "v.jsonl")]);
    expect(runCliOk(["project", "delete", "empty", "--yes"])).toMatch(/^deleted project empty: 1 videos, 0 chunks/);
    expect(await db.project.count()).toBe(0);
  });
});
