import { describe, expect, it } from "vitest";
import { chunkingReport, REPORT_COLUMNS, systemOf, transferJudgeInto } from "../../../lib/dashboard/chunking-report.ts";
import type { TDashboardData, TLabel, TReference } from "../../../lib/dashboard/data.ts";
import type { TRunRankings } from "../../../lib/dashboard/rankings.ts";

/**
 * A hand-made grid: one video (internal id 1), chunking c20 (a1 [0,20], a2 [20,40], a3 [40,60])
 * and c40 (b1 [0,40], b2 [40,80]); questions q1 (answer place: start 25, no end) and q2 (place
 * [45, 55]);
 * human labels on c20: q1·a2 grade 3 with corrected start 25, q2·a3 grade 3; on c40 (the audit):
 * q2·b1 grade 2, a pool item. Transfer judge "transfer:c20->c40": q1·b1 3, q2·b1 0, q2·b2 3.
 * Runs: bm25 on c20 (q1: a2, a1; q2: a1, a3) and bm25@c40 on c40 (q1: b1; q2: b1, b2).
 *
 * Reference spans (lib/dashboard/time.ts, lib/stats/time/reference.ts): q1 = instant 25 (a2's
 * corrected start 25 marks the same answer: within 5 s of the place); q2 = [45, 55] (a3 has no
 * corrected start: a labelled chunk's bounds are no span). The c40 label is grade 2: nothing.
 */
const chunks: [number, string, number, number, number][] = [
  [1, "a1", 0, 20, 1],
  [2, "a2", 20, 40, 1],
  [3, "a3", 40, 60, 1],
  [4, "b1", 0, 40, 2],
  [5, "b2", 40, 80, 2],
];

function data(): TDashboardData {
  const reference: TReference[] = [
    { queryId: 1, chunkId: 2, grade: 3, startSeconds: 25, status: "agreed", source: null },
    { queryId: 2, chunkId: 3, grade: 3, startSeconds: null, status: "agreed", source: null },
    { queryId: 2, chunkId: 4, grade: 2, startSeconds: null, status: "agreed", source: null },
  ];
  const transfer: TLabel[] = [
    { queryId: 1, chunkId: 4, grade: 3 },
    { queryId: 2, chunkId: 4, grade: 0 },
    { queryId: 2, chunkId: 5, grade: 3 },
  ];
  return {
    version: "v1",
    base: {},
    project: { id: 1, name: "grid", calibrationTarget: 0, minPerGrade: 0, annotatorsPerItem: 2, gradingClosed: false },
    queries: new Map([
      [1, { qid: "q1", tags: [], places: [{ start: 25, end: null, videoId: 1 }] }],
      [2, { qid: "q2", tags: [], places: [{ start: 45, end: 55, videoId: 1 }] }],
    ]),
    tags: [],
    chunks: new Map(
      chunks.map(([id, docid, start, end, chunkingId]) => [id, { docid, videoId: 1, start, end, chunkingId }]),
    ),
    reference,
    stages: { unassigned: 0, assigned: 0, agreed: 3, awaiting_adjudication: 0, adjudicated: 0, imported: 0, total: 3 },
    judges: new Map([["transfer:c20->c40", transfer]]),
    judgeRuns: new Map(),
    judgeLabelledAt: new Map(),
    poolItems: new Map([["p1", { queryId: 2, chunkId: 4 }]]),
    provenance: new Map(),
    assigned: new Map(),
    assignedByUser: new Map(),
    judgements: [],
    referenceChanges: null,
    judgementsByItem: new Map(),
    adjudicated: new Set(),
    users: new Map(),
    runs: [
      { id: 10, system: "bm25", contentHash: "x", chunkingId: 1 },
      { id: 11, system: "bm25@c40", contentHash: "y", chunkingId: 2 },
    ],
  };
}

const ranking = (ids: number[]) => ({ chunkIds: Int32Array.from(ids), docids: ids.map((i) => chunks[i - 1][1]) });
const rankings = new Map<number, TRunRankings>([
  [
    10,
    new Map([
      [1, ranking([2, 1])],
      [2, ranking([1, 3])],
    ]),
  ],
  [
    11,
    new Map([
      [1, ranking([4])],
      [2, ranking([4, 5])],
    ]),
  ],
]);
const chunkings = [
  { id: 1, name: "c20" },
  { id: 2, name: "c40" },
];
const col = (id: string) => REPORT_COLUMNS.findIndex((c) => c.id === id);
const LOG2_3 = Math.log2(3);
/** nDCG@10 of c40 on q2: [b1:2 human, b2:3 derived]: DCG = 3 + 7/log2 3, ideal = 7 + 3/log2 3. */
const q2 = (3 + 7 / LOG2_3) / (7 + 3 / LOG2_3);

describe("chunking report (hand-made grid)", () => {
  const report = chunkingReport(data(), rankings, chunkings);
  const [a, b] = report.rows;

  it("names systems across chunkings and finds the transfer judge", () => {
    expect(systemOf("bm25@c40", "c40")).toBe("bm25");
    expect(systemOf("bm25-c40", "c40")).toBe("bm25");
    expect(systemOf("c40", "c40")).toBe("c40");
    expect(transferJudgeInto(["gpt", "transfer:x->c40", "transfer:c20->c40", "transfer:c20->c4"], "c40")).toBe(
      "transfer:c20->c40",
    );
    expect(report.baseline).toBe("c20");
    expect(report.rows.map((r) => [r.chunking, r.system, r.run])).toEqual([
      ["c20", "bm25", "bm25"],
      ["c40", "bm25", "bm25@c40"],
    ]);
    expect(b.transferJudge).toBe("transfer:c20->c40");
    expect(b.audited).toBe(1); // q2: its one c40 pool item (b1) has a human label
  });

  it("time measures", () => {
    // Span recall (tolerance 5 s, the whole place): c20 q1 [a2, a1] widened [-5, 45] covers 25;
    // q2 a3 widened [35, 65] covers [45, 55]. c40: q1 b1 [-5, 45]; q2 b1 ∪ b2 [-5, 85]. All 1.
    for (const row of [a, b]) {
      expect(row.cells[col("span_recall_5")].mean).toBe(1);
      expect(row.cells[col("span_recall_10")].mean).toBe(1);
    }
    // Time-IoU@10 (the place's end is used): q1's instant holds no seconds: not scored. c20 q2
    // R = [0, 20] ∪ [40, 60] (40 s), G = [45, 55]: 10/40 = 0.25; c40 q2 R = [0, 80]: 10/80 = 0.125.
    expect(a.cells[col("time_iou_10")]).toMatchObject({ mean: 0.25, n: 1 });
    expect(b.cells[col("time_iou_10")]).toMatchObject({ mean: 0.125, n: 1 });
    // Seconds read@10: c20 40 and 40 → 40; c40 40 and 80 → 60.
    expect(a.cells[col("seconds_read_10")].mean).toBe(40);
    expect(b.cells[col("seconds_read_10")].mean).toBe(60);
    // Start error: c20 q1 a2 (rank 1) |20 − 25| = 5, q2 a3 (rank 2; a1 meets no place) |40 − 45| = 5 → 5;
    // c40 q1 b1 |0 − 25| = 25, q2 b2 (b1 ends at 40, before 45) |40 − 45| = 5 → 15.
    expect(a.cells[col("start_error")].mean).toBe(5);
    expect(b.cells[col("start_error")].mean).toBe(15);
    expect(report.points).toEqual([
      { chunking: "c20", system: "bm25", secondsRead10: 40, spanRecall10: 1 },
      { chunking: "c40", system: "bm25", secondsRead10: 60, spanRecall10: 1 },
    ]);
  });

  it("nDCG@10 on human labels where present, else the transfer judge's; judged share", () => {
    // Exponential gain 2^g − 1, discount log2(rank + 1) (lib/stats/measures/ndcg.ts).
    // c20 q1 [a2:3, a1:–] → 7/7 = 1; q2 [a1:–, a3:3] → (7/log2 3)/7 = 1/log2 3; judged@10 1/2 each.
    const ndcgA = (1 + 1 / LOG2_3) / 2;
    expect(a.cells[col("ndcg_cut_10")].mean).toBeCloseTo(ndcgA, 12);
    expect(a.cells[col("judged_10")].mean).toBe(0.5);
    // c40 q1 [b1:3 derived] → 1; q2 [b1:2 human (over the derived 0), b2:3 derived]:
    // DCG = 3 + 7/log2 3, ideal = 7 + 3/log2 3. judged@10 1 each.
    expect(b.cells[col("ndcg_cut_10")].mean).toBeCloseTo((1 + q2) / 2, 12);
    expect(b.cells[col("judged_10")].mean).toBe(1);
    // Derived labels used: q1·b1 (no human label) and q2·b2; q2·b1's derived 0 is
    // not used, the human 2 is. c20 has no transfer judge.
    expect([a.derived, b.derived]).toEqual([0, 2]);
    // One audited question: PPI needs two (lib/stats/ppi.ts, n = 1 gives no interval).
    expect(b.cells[col("ndcg_cut_10")].ppi).toBeNull();
  });

  it("paired tests against the same system on the baseline chunking, intervals over questions", () => {
    expect(a.cells.every((c) => c.test === null)).toBe(true);
    // Differences c40 − c20 per question: seconds read (0, 40) → +20; start error (20, 0) → +10;
    // nDCG (0, q2 − 1/log2 3).
    expect(b.cells[col("seconds_read_10")].test).toMatchObject({ meanDiff: 20, n: 2 });
    expect(b.cells[col("start_error")].test).toMatchObject({ meanDiff: 10, n: 2 });
    expect(b.cells[col("ndcg_cut_10")].test?.meanDiff).toBeCloseTo((q2 - 1 / LOG2_3) / 2, 12);
    // Two questions: every sign flip's |mean| equals the observed one for (20, 0), so p = 1.
    expect(b.cells[col("start_error")].test?.p).toBeCloseTo(1, 2);
    // Bootstrap over two questions: the interval of seconds read for c40 spans the two values 40 and 80.
    const ci = b.cells[col("seconds_read_10")].ci;
    expect(ci?.low).toBe(40);
    expect(ci?.high).toBe(80);
  });

  it("leaves out an accepted question nobody pooled or labelled yet, as the systems table does", () => {
    const d = data();
    // q3: accepted, with an answer place, no pool item and no label: no run ranks anything for it.
    d.queries.set(3, { qid: "q3", tags: [], places: [{ start: 10, end: 12, videoId: 1 }] });
    const r = chunkingReport(d, rankings, chunkings);
    expect(r.questions).toBe(2);
    // Counted, q3 would score span recall 0 and every row's mean would fall from 1 to 2/3.
    expect(r.rows.map((row) => row.cells[col("span_recall_10")].mean)).toEqual([1, 1]);
  });

  it("counts as audited only questions whose pool items on the chunking carry annotators' labels, not imported ones", () => {
    const d = data();
    // q2·b1, c40's one pool item, labelled by an import (say the collection's truth): no audit.
    d.reference = d.reference.map((l) =>
      l.chunkId === 4 ? { ...l, status: "imported" as const, source: "truth" } : l,
    );
    expect(chunkingReport(d, rankings, chunkings).rows[1].audited).toBe(0);
  });

  it("refuses an unknown baseline, naming the chunkings", () => {
    expect(() => chunkingReport(data(), rankings, chunkings, { baseline: "c60" })).toThrow(
      /no chunking named "c60".*c20, c40/,
    );
  });
});

describe("systems table: time measures from the run's own chunking when two chunkings share docids", () => {
  it("looks docids up within the run's chunking", async () => {
    const { systemsPanel } = await import("../../../lib/dashboard/systems.ts");
    const { ZDashboardQuery } = await import("../../../lib/dashboard/options.ts");
    const d = data();
    // c40's chunks renamed to c20's ids: b1 = "a1" [0, 40], b2 = "a2" [40, 80].
    d.chunks.set(4, { ...d.chunks.get(4)!, docid: "a1" });
    d.chunks.set(5, { ...d.chunks.get(5)!, docid: "a2" });
    const shared = new Map<number, TRunRankings>([
      [10, rankings.get(10)!],
      [
        11,
        new Map([
          [1, { chunkIds: Int32Array.from([4]), docids: ["a1"] }],
          [2, { chunkIds: Int32Array.from([4, 5]), docids: ["a1", "a2"] }],
        ]),
      ],
    ]);
    const panel = systemsPanel(d, shared, ZDashboardQuery.parse({}));
    const t = panel.tables[0];
    const c = (id: string) => t.columns.findIndex((x) => x.id === id);
    const row = (system: string) => t.rows.find((r) => r.system === system)!;
    // c40 reads b1 = 40 s on q1 and b1 ∪ b2 = 80 s on q2 (with c20's times it would be 20 and 40).
    expect(row("bm25@c40").cells[c("seconds_read_10")].mean).toBe(60);
    expect(row("bm25").cells[c("seconds_read_10")].mean).toBe(40);
    // Start error (time): c40 q1 b1 |0 − 25| = 25, q2 b2 |40 − 45| = 5 → 15 (the report's value).
    expect(row("bm25@c40").cells[c("time_start_error")].mean).toBe(15);
    expect(row("bm25").cells[c("time_start_error")].mean).toBe(5);
  });
});
