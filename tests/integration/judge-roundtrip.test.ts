import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";

/**
 * Every judge can be read back: on the demo, `judge export gpt-judge` said "no judge run" and `agreement`
 * refused demo/judge.jsonl (133 "expected 4 columns"). Every judge the dashboard shows (imported
 * and transfer judges too) is listed by `judge list`, exported by `judge export`, and read by
 * `agreement` against `export qrels` of its chunking; `agreement` reads the importer's JSONL.
 * Spawns the CLI as a user would, on SQLite and (with TEST_DATABASE_URL) PostgreSQL.
 */
const root = join(import.meta.dirname, "..", "..");
/** Each test spawns the CLI a few times (seconds each on a loaded machine). */
const SLOW = 300_000;
const testDb = useTestDatabase();
let dir: string;
type TListed = { judge: string; source: string; chunkings?: string[] };
type TAgreement = { n: number; unmatched: { reference_only: number; other_only: number } };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "judge-roundtrip-"));
  const demo = spawnSync(process.execPath, [join(root, "scripts", "demo.mjs")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: testDb.url, DEMO_NO_SERVE: "1" },
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  if (demo.status !== 0) throw new Error(`the demo failed: ${demo.stderr}`);
}, 900_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

const ok = (args: string[]) => {
  const r = runCli([...args, "--project", "demo"]);
  expect(r.code, `assessor ${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r;
};
const agreement = (reference: string, other: string): TAgreement => {
  const r = runCli(["agreement", reference, other, "--format", "json", "--bootstrap", "0"]);
  expect(r.code, `agreement ${reference} ${other}: ${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout) as TAgreement;
};

describe("every judge of the demo round-trips: judge export → agreement against export qrels", () => {
  it(
    "judge list names every judge the dashboard shows, each with its source and chunkings",
    async () => {
      const { getDb } = await import("../../lib/db/client.ts");
      const { dashboardData } = await import("../../lib/dashboard/data.ts");
      const { judgeStates } = await import("../../lib/dashboard/judges.ts");
      const db = await getDb();
      const project = await db.project.findUniqueOrThrow({ where: { name: "demo" } });
      const shown = judgeStates((await dashboardData(db, project.id)).data).states.map((s) => s.name);
      expect(shown).toEqual(["gpt-judge", "transfer:default->c40o0"]);
      const listed = JSON.parse(ok(["judge", "list", "--format", "json"]).stdout) as TListed[];
      expect(listed.map((j) => j.judge).sort()).toEqual(shown);
      expect(listed.map(({ judge, source, chunkings }) => ({ judge, source, chunkings }))).toEqual([
        { judge: "gpt-judge", source: "imported", chunkings: ["default"] },
        { judge: "transfer:default->c40o0", source: "transfer", chunkings: ["c40o0"] },
      ]);
      const text = ok(["judge", "list"]).stdout;
      for (const name of shown) expect(text).toContain(name);
    },
    SLOW,
  );

  it(
    "each judge exports (qrels and JSONL) and agreement reads it against the reference labels of its chunking, exit 0",
    () => {
      const listed = JSON.parse(ok(["judge", "list", "--format", "json"]).stdout) as TListed[];
      expect(listed.length).toBeGreaterThan(0);
      for (const j of listed) {
        const chunking = j.chunkings?.[0] ?? "default";
        const safe = j.judge.replace(/[^a-z0-9-]/gi, "_");
        const reference = join(dir, `reference-${chunking}.qrels`);
        ok(["export", "qrels", "--chunking", chunking, "--out", reference]);
        const qrels = join(dir, `${safe}.qrels`);
        const jsonl = join(dir, `${safe}.jsonl`);
        ok(["judge", "export", j.judge, "--out", qrels]);
        ok(["judge", "export", j.judge, "--format", "jsonl", "--out", jsonl]);
        const labels = readFileSync(qrels, "utf8").trim().split("\n");
        expect(labels.length, j.judge).toBeGreaterThan(0);
        const a = agreement(reference, qrels);
        expect(a.n, j.judge).toBeGreaterThan(0);
        expect(a.n + a.unmatched.other_only).toBe(labels.length);
        // The JSONL export (the import's format) gives the same figures.
        expect(agreement(reference, jsonl)).toEqual(a);
      }
    },
    SLOW,
  );

  it(
    "agreement reads the demo's own judge file (JSONL, as import judge reads it) like the exported judge",
    () => {
      const reference = join(dir, "reference-default-2.qrels");
      ok(["export", "qrels", "--chunking", "default", "--out", reference]);
      const exported = join(dir, "gpt-judge-2.qrels");
      ok(["judge", "export", "gpt-judge", "--out", exported]);
      const fromFile = agreement(reference, join(root, "demo", "judge.jsonl"));
      expect(fromFile.n).toBeGreaterThan(0);
      expect(fromFile).toEqual(agreement(reference, exported));
    },
    SLOW,
  );

  it(
    "the run commands name the way out for a judge without a run",
    () => {
      const r = runCli(["judge", "show", "gpt-judge", "--project", "demo"]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'judge "gpt-judge" has no run: its labels were imported from a file; write them with: npx assessor judge export gpt-judge',
      );
    },
    SLOW,
  );
});
