/**
 * Chunking report benchmark: the chunking grid report
 * (lib/dashboard/chunking-report.ts, the dashboard's Chunkings card and `assessor chunking report`)
 * on a synthetic project of 6 chunkings (20/40/60 s × no overlap/25% overlap of 50 ten-minute
 * videos) × 4 systems × 500 questions: runs of depth 20, human labels on the first chunking's top
 * 10, a transfer judge into each other chunking, an audit of 50 questions on each, one answer place
 * per question. Generated here (seeded) in the form the dashboard loads (TDashboardData).
 * Timed: the report after a label change (a new label-set version with one human grade changed:
 * answer places, labels, per-question values, intervals and tests recomputed; the loading itself
 * is the dashboard module's). Target: ≤ 300 ms (median of 7 after one warm-up).
 */
import { cpus, loadavg } from "node:os";
import { chunkingReport } from "../../lib/dashboard/chunking-report.ts";
import type { TChunkInfo, TDashboardData, TLabel, TReference } from "../../lib/dashboard/data.ts";
import type { TRunRankings } from "../../lib/dashboard/rankings.ts";
import { seededRng } from "../../lib/stats/random.ts";
import type { TBenchRow } from "./index.ts";

const VIDEOS = 50;
const VIDEO_SECONDS = 600;
const QUESTIONS = 500;
const SYSTEMS = ["bm25", "vector", "hybrid", "rerank"];
const GRID = [20, 40, 60].flatMap((size) =>
  [0, 0.25].map((overlap) => ({ size, overlap, name: `c${size}o${overlap * 100}` })),
);
const DEPTH = 20;
const AUDITED = 50;
const TIMES = 7;

export function syntheticProject(): {
  data: TDashboardData;
  rankings: Map<number, TRunRankings>;
  chunkings: { id: number; name: string }[];
} {
  const rng = seededRng(20);
  const chunks = new Map<number, TChunkInfo>();
  const byChunking = new Map<number, number[]>();
  let nextChunk = 1;
  GRID.forEach((g, ci) => {
    const ids: number[] = [];
    const stride = g.size * (1 - g.overlap);
    for (let v = 1; v <= VIDEOS; v++)
      for (let s = 0; s < VIDEO_SECONDS; s += stride) {
        chunks.set(nextChunk, {
          docid: `v${v}_${s * 1000}-${(s + g.size) * 1000}`,
          videoId: v,
          start: s,
          end: Math.min(VIDEO_SECONDS, s + g.size),
          chunkingId: ci + 1,
        });
        ids.push(nextChunk++);
      }
    byChunking.set(ci + 1, ids);
  });
  const queries = new Map<
    number,
    { qid: string; tags: string[]; places: { start: number; end: number | null; videoId: number | null }[] }
  >();
  const answers = new Map<number, { video: number; start: number }>();
  for (let q = 1; q <= QUESTIONS; q++) {
    const video = 1 + Math.floor(rng.next() * VIDEOS);
    const start = Math.floor(rng.next() * (VIDEO_SECONDS - 20));
    queries.set(q, { qid: `q${q}`, tags: [], places: [{ start, end: null, videoId: video }] });
    answers.set(q, { video, start });
  }
  // Runs: per question, chunks near the answer first (better systems more often), then noise.
  const runs: TDashboardData["runs"] = [];
  const rankings = new Map<number, TRunRankings>();
  let runId = 1;
  GRID.forEach((g, ci) => {
    const ids = byChunking.get(ci + 1)!;
    SYSTEMS.forEach((system, si) => {
      const perQuery: TRunRankings = new Map();
      for (const [q, a] of answers) {
        const near = ids.filter((id) => {
          const c = chunks.get(id)!;
          return c.videoId === a.video && c.end > a.start - 30 && c.start < a.start + 40;
        });
        const picked = new Set<number>();
        for (const id of near) if (rng.next() < 0.5 + 0.1 * si) picked.add(id);
        while (picked.size < DEPTH) picked.add(ids[Math.floor(rng.next() * ids.length)]);
        const chunkIds = Int32Array.from([...picked].slice(0, DEPTH));
        perQuery.set(q, { chunkIds, docids: [...chunkIds].map((id) => chunks.get(id)!.docid) });
      }
      runs.push({
        id: runId,
        system: ci === 0 ? system : `${system}@${g.name}`,
        contentHash: `h${runId}`,
        chunkingId: ci + 1,
      });
      rankings.set(runId++, perQuery);
    });
  });
  // Human labels on the first chunking's top 10 (graded by distance to the answer); the transfer
  // judge's labels on the others' top 10 likewise; an audit: 50 questions pooled and human-labelled on each.
  const grade = (q: number, id: number) => {
    const c = chunks.get(id)!;
    const a = answers.get(q)!;
    if (c.videoId !== a.video) return 0;
    if (c.start <= a.start && a.start < c.end) return 3;
    return Math.abs(c.start - a.start) < 60 ? 1 : 0;
  };
  const reference: TReference[] = [];
  const judges = new Map<string, TLabel[]>();
  const poolItems = new Map<string, { queryId: number; chunkId: number }>();
  runs.forEach((run) => {
    const first = run.chunkingId === 1;
    const name = `transfer:${GRID[0].name}->${GRID[run.chunkingId - 1].name}`;
    const seen = new Set<string>();
    for (const [q, r] of rankings.get(run.id)!) {
      for (const id of r.chunkIds.slice(0, 10)) {
        const key = `${q}:${id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if (first || q <= AUDITED) {
          reference.push({
            queryId: q,
            chunkId: id,
            grade: grade(q, id),
            startSeconds: null,
            status: "agreed",
            source: null,
          });
          poolItems.set(`${run.chunkingId}:${key}`, { queryId: q, chunkId: id });
        }
        if (!first) {
          const list = judges.get(name) ?? [];
          list.push({ queryId: q, chunkId: id, grade: grade(q, id) });
          judges.set(name, list);
        }
      }
    }
  });
  const data: TDashboardData = {
    version: "v0",
    base: {},
    project: {
      id: 999_999,
      name: "bench-chunkings",
      calibrationTarget: 0,
      minPerGrade: 0,
      annotatorsPerItem: 2,
      gradingClosed: false,
    },
    queries,
    tags: [],
    chunks,
    reference,
    stages: {
      unassigned: 0,
      assigned: 0,
      agreed: reference.length,
      awaiting_adjudication: 0,
      adjudicated: 0,
      imported: 0,
      total: reference.length,
    },
    judges,
    judgeRuns: new Map(),
    judgeLabelledAt: new Map(),
    poolItems,
    provenance: new Map(),
    assigned: new Map(),
    assignedByUser: new Map(),
    judgements: [],
    referenceChanges: null,
    judgementsByItem: new Map(),
    adjudicated: new Set(),
    users: new Map(),
    runs,
  };
  return { data, rankings, chunkings: GRID.map((g, i) => ({ id: i + 1, name: g.name })) };
}

/** The next label-set version: one human label's grade changed (same base, new reference list). */
function afterLabelChange(data: TDashboardData, k: number): TDashboardData {
  const reference = data.reference.slice();
  const i = (k * 7919) % reference.length;
  reference[i] = { ...reference[i], grade: (reference[i].grade + 1) % 4 };
  return {
    ...data,
    version: `v${k}`,
    reference,
    referenceChanges: { from: data.version, queries: new Set([reference[i].queryId]) },
  };
}

export async function bench(): Promise<TBenchRow[]> {
  const { data, rankings, chunkings } = syntheticProject();
  const t0 = performance.now();
  let current = data;
  const first = chunkingReport(current, rankings, chunkings);
  const cold = performance.now() - t0;
  if (first.rows.length !== GRID.length * SYSTEMS.length)
    throw new Error(`expected ${GRID.length * SYSTEMS.length} rows, got ${first.rows.length}`);
  current = afterLabelChange(current, 1);
  chunkingReport(current, rankings, chunkings);
  const times: number[] = [];
  for (let t = 0; t < TIMES; t++) {
    current = afterLabelChange(current, t + 2);
    const s = performance.now();
    chunkingReport(current, rankings, chunkings);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const m = times[Math.floor(TIMES / 2)];
  const machine = `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
  return [
    {
      name: `Chunking report after a label change (${GRID.length} chunkings × ${SYSTEMS.length} systems × ${QUESTIONS} questions, depth ${DEPTH}, ${data.chunks.size} chunks, ${data.reference.length} human + ${[...data.judges.values()].reduce((s, l) => s + l.length, 0)} transfer labels)`,
      target: "≤ 300 ms",
      measured: `${m.toFixed(1)} ms (median of ${TIMES}; range ${times[0].toFixed(1)}–${times[TIMES - 1].toFixed(1)} ms; ${machine})`,
      pass: m <= 300,
      command: "npm run bench -- chunking-report",
    },
    {
      name: "Chunking report, first computation (no kept intervals or tests)",
      target: "context",
      measured: `${cold.toFixed(1)} ms (${machine})`,
      pass: null,
      command: "npm run bench -- chunking-report",
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await bench()) console.log(JSON.stringify(r));
  process.exit(0);
}
