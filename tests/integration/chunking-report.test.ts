import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, runCliOk } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";

/**
 * `assessor eval --chunks` and `assessor chunking report` through the CLI on a small project
 * (SQLite, or PostgreSQL with TEST_DATABASE_URL): one video, chunking c20 (a1 [0,20], a2 [20,40],
 * a3 [40,60]) and c40 (b1 [0,40], b2 [40,80]); q1 (answer place [25, 35]) and q2 ([45, 55]); human labels
 * on c20: q1·a2 3, q2·a3 3 (imported, so no corrected start); runs bm25 on c20 (q1: a2, a1; q2:
 * a1, a3) and bm25@c40 on c40 (q1: b1; q2: b1, b2); the transfer judge c20 → c40.
 * Reference spans (lib/stats/time/reference.ts): the places, [25, 35] and [45, 55] (the imported
 * labels carry no corrected start; a labelled chunk's bounds are no span).
 */
useTestDatabase();
let dir: string;
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "assessor-chunking-report-"));
  runCliOk(["project", "create", "grid"]);
  runCliOk([
    "import",
    "videos",
    file(
      "videos.jsonl",
      jsonl([{ id: "v1", title: "Talk", url: "https://www.youtube.com/watch?v=aaaaaaaaaaa", duration: 120 }]),
    ),
  ]);
  const chunk = (id: string, start: number, end: number) => ({ id, video: "v1", start, end, text: `chunk ${id}` });
  runCliOk([
    "import",
    "chunks",
    "--chunking",
    "c20",
    file("c20.jsonl", jsonl([chunk("a1", 0, 20), chunk("a2", 20, 40), chunk("a3", 40, 60)])),
  ]);
  runCliOk([
    "import",
    "chunks",
    "--chunking",
    "c40",
    file("c40.jsonl", jsonl([chunk("b1", 0, 40), chunk("b2", 40, 80)])),
  ]);
  runCliOk([
    "import",
    "queries",
    file(
      "queries.jsonl",
      jsonl([
        { id: "q1", text: "first", places: [{ video: "v1", start: 25, end: 35 }] },
        { id: "q2", text: "second", places: [{ video: "v1", start: 45, end: 55 }] },
      ]),
    ),
  ]);
  runCliOk([
    "import",
    "run",
    "--system",
    "bm25",
    file("run-c20.trec", "q1 Q0 a2 1 2 bm25\nq1 Q0 a1 2 1 bm25\nq2 Q0 a1 1 2 bm25\nq2 Q0 a3 2 1 bm25\n"),
  ]);
  runCliOk([
    "import",
    "run",
    "--system",
    "bm25@c40",
    file("run-c40.trec", "q1 Q0 b1 1 2 x\nq2 Q0 b1 1 2 x\nq2 Q0 b2 2 1 x\n"),
  ]);
  runCliOk(["import", "labels", "--source", "gold", "--chunking", "c20", file("gold.qrels", "q1 0 a2 3\nq2 0 a3 3\n")]);
  runCliOk(["chunking", "transfer", "--from", "c20", "--to", "c40"]);
}, 900_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
});

type Cell = {
  mean: number | null;
  n: number;
  ci: { low: number; high: number } | null;
  test: { meanDiff: number; p: number; n: number } | null;
};
type Report = {
  baseline: string;
  questions: number;
  columns: { id: string }[];
  rows: { chunking: string; system: string; run: string; transferJudge: string | null; cells: Cell[] }[];
};

describe("assessor chunking report", () => {
  it("reports chunking × system with the time measures, intervals and paired tests against the baseline (json)", () => {
    const r = JSON.parse(runCliOk(["chunking", "report", "--format", "json"])) as Report;
    expect(r.baseline).toBe("c20");
    expect(r.questions).toBe(2);
    expect(r.rows.map((x) => [x.chunking, x.system, x.run, x.transferJudge])).toEqual([
      ["c20", "bm25", "bm25", null],
      ["c40", "bm25", "bm25@c40", "transfer:c20->c40"],
    ]);
    const cell = (row: number, id: string) => r.rows[row].cells[r.columns.findIndex((c) => c.id === id)];
    // Span recall@5/10: every top-k covers the places (tolerance 5 s): 1 for both.
    for (const row of [0, 1]) for (const id of ["span_recall_5", "span_recall_10"]) expect(cell(row, id).mean).toBe(1);
    // Time-IoU@10 (the places' ends): c20 q1 R [0,40] vs G [25,35]: 10/40; q2 R [0,20] ∪ [40,60] vs
    // [45,55]: 10/40 → 0.25. c40 q1 R [0,40]: 10/40; q2 R [0,80]: 10/80 → (0.25 + 0.125)/2 = 0.1875.
    expect(cell(0, "time_iou_10").mean).toBeCloseTo(0.25, 12);
    expect(cell(1, "time_iou_10").mean).toBeCloseTo(0.1875, 12);
    // Seconds read@10: c20 40, 40; c40 40, 80.
    expect(cell(0, "seconds_read_10").mean).toBe(40);
    expect(cell(1, "seconds_read_10").mean).toBe(60);
    // Start error: c20 a2 |20 − 25| = 5, a3 |40 − 45| = 5; c40 b1 |0 − 25| = 25, b2 |40 − 45| = 5.
    expect(cell(0, "start_error").mean).toBe(5);
    expect(cell(1, "start_error").mean).toBe(15);
    // nDCG@10 on c20's human labels: q1 [a2:3] → 1; q2 [a1:–, a3:3] → 1/log2 3.
    expect(cell(0, "ndcg_cut_10").mean).toBeCloseTo((1 + 1 / Math.log2(3)) / 2, 12);
    expect(cell(1, "ndcg_cut_10").mean).not.toBeNull();
    // Paired against bm25 on c20 over both questions: seconds read (0, +40) → +20; start error (+20, 0) → +10; IoU (0, −0.125) → −0.0625.
    expect(cell(1, "seconds_read_10").test).toMatchObject({ meanDiff: 20, n: 2 });
    expect(cell(1, "start_error").test).toMatchObject({ meanDiff: 10, n: 2 });
    expect(cell(1, "time_iou_10").test?.meanDiff).toBeCloseTo(-0.0625, 12);
    expect(cell(0, "seconds_read_10").test).toBeNull();
    expect(cell(1, "seconds_read_10").ci).toMatchObject({ low: 40, high: 80 });
  }, 600_000);

  it("prints a table and a CSV; another baseline flips the comparison; an unknown one is an error naming the chunkings", () => {
    const table = runCliOk(["chunking", "report"]);
    expect(table).toMatch(/^c20 \(baseline\) · bm25$/m);
    expect(table).toMatch(
      /^c40 · bm25 \(nDCG@10 from transfer:c20->c40, 0 audited questions\)\n(.*\n){3} {2}Seconds read@10 +60\.0 {2}\[40\.0, 80\.0\] +\(\+20\.0, p=/m,
    );
    // It fits a 100-column terminal (it was ~300 characters wide).
    expect(table.split("\n").filter((l) => l.length > 100)).toEqual([]);
    // The transfer labels q1·b1 3, q2·b1 1 (within 5 s of q2's place), q2·b2 3; no human label on c40 yet: all three used.
    expect(table.replace(/\s+/g, " ")).toContain(
      "c40 bm25: nDCG@10 used 3 derived labels (pairs in a top 10 without a human label; a human label is never replaced)",
    );
    const csv = runCliOk(["chunking", "report", "--format", "csv"]).trim().split("\n");
    expect(csv[0].split(",").slice(0, 6)).toEqual([
      "chunking",
      "system",
      "run",
      "transfer_judge",
      "audited_questions",
      "span_recall_5",
    ]);
    expect(csv).toHaveLength(3);
    const flipped = JSON.parse(runCliOk(["chunking", "report", "--format", "json", "--baseline", "c40"])) as Report;
    expect(flipped.rows.map((x) => x.chunking)).toEqual(["c40", "c20"]);
    expect(flipped.rows[1].cells[flipped.columns.findIndex((c) => c.id === "seconds_read_10")].test?.meanDiff).toBe(
      -20,
    );
    const bad = runCli(["chunking", "report", "--baseline", "c60"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/no chunking named "c60".*c20, c40/);
  }, 600_000);

  it("time measures do not move when a second chunking's labels are imported", () => {
    const TIME = ["span_recall_5", "span_recall_10", "time_iou_10", "seconds_read_10", "start_error"];
    const timeCells = () => {
      const r = JSON.parse(runCliOk(["chunking", "report", "--format", "json"])) as Report;
      return r.rows.map((row) => [
        row.chunking,
        ...TIME.map((id) => row.cells[r.columns.findIndex((c) => c.id === id)]),
      ]);
    };
    const before = timeCells();
    // Grade-3 labels of c40: b1 (its chunk is [0, 40]) with a corrected start 26, within 5 s of q1's
    // place (the same answer), and b2 [40, 80] without one. Counted as places, they would widen G.
    runCliOk([
      "import",
      "labels",
      "--source",
      "gold40",
      "--chunking",
      "c40",
      file(
        "gold40.jsonl",
        jsonl([
          { query: "q1", chunk: "b1", grade: 3, start: 26 },
          { query: "q2", chunk: "b2", grade: 3 },
        ]),
      ),
    ]);
    expect(timeCells()).toEqual(before);
  }, 600_000);
});

describe("assessor eval --chunks", () => {
  it("adds the time measures from the exported chunk times and the queries' answer places; without --chunks the output is unchanged", () => {
    const chunks = join(dir, "c20-export.jsonl");
    runCliOk(["chunking", "export", "c20", "--out", chunks]);
    const qrels = file("eval.qrels", "q1 0 a2 3\nq2 0 a3 3\n");
    const run = join(dir, "run-c20.trec");
    // q2's answer is given as a place of its own ([45, 50]) besides the qrels' grade-3 chunk a3.
    const queries = file(
      "eval-queries.jsonl",
      jsonl([
        { id: "q1", start: 25, video: "v1" },
        { id: "q2", answers: [{ video: "v1", start: 45, end: 50 }] },
      ]),
    );
    const plain = runCliOk(["eval", qrels, run]);
    expect(plain).not.toContain("span_recall");
    const withTime = runCliOk(["eval", qrels, run, "--chunks", chunks, "--queries", queries]);
    expect(withTime.startsWith(plain.slice(0, plain.lastIndexOf("\n", plain.length - 2) + 1))).toBe(true);
    const lines = Object.fromEntries(
      withTime
        .trim()
        .split("\n")
        .map((l) => l.split("\t"))
        .map(([name, , v]) => [name.trim(), v]),
    );
    // Places: q1 = instant 25 and a2 [20, 40]; q2 = [45, 50] and a3 [40, 60]. Both covered at 5 and 10.
    expect(lines.span_recall_5).toBe("1.0000");
    // Time-IoU@10: q1 20/40; q2 R [0,20] ∪ [40,60], G [40,60]: 20/40 → 0.5.
    expect(lines.time_iou_10).toBe("0.5000");
    expect(lines.seconds_read_10).toBe("40.0000");
    // Start error: q1 a2 min(|20 − 25|, |20 − 20|) = 0; q2 a3 min(|40 − 45|, |40 − 40|) = 0.
    expect(lines.time_start_error).toBe("0.0000");
    expect(lines.time_within_15).toBe("1.0000");
    // The tool's own questions export (places with ends) is a queries file eval reads.
    // With grade-2 qrels only, every place comes from the export: q1 [25, 35], q2 [45, 55].
    const exported = join(dir, "questions-export.jsonl");
    runCliOk(["export", "questions", "--out", exported]);
    const fromExport = Object.fromEntries(
      runCliOk(["eval", file("grade2.qrels", "q1 0 a2 2\nq2 0 a3 2\n"), run, "--chunks", chunks, "--queries", exported])
        .trim()
        .split("\n")
        .map((l) => l.split("\t"))
        .map(([name, , v]) => [name.trim(), v]),
    );
    // Span recall@5: a2 and a3 (widened 5 s) hold the places. Time-IoU@10: 10/40 each. Start error: |20 − 25|, |40 − 45|.
    expect([fromExport.span_recall_5, fromExport.time_iou_10, fromExport.time_start_error]).toEqual([
      "1.0000",
      "0.2500",
      "5.0000",
    ]);
    // A bad chunks line: named file, line and field; nothing printed on stdout.
    const bad = file("bad-chunks.jsonl", '{"id":"a1","video":"v1","start":10,"end":5}\n');
    const r = runCli(["eval", qrels, run, "--chunks", bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad-chunks\.jsonl:1: end: expected the chunk end in seconds, not before its start/);
    expect(r.stdout).toBe("");
  }, 600_000);
});
