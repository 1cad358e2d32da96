/**
 * Label transfer benchmark: 100,000 human labels of chunking A (20 s chunks every 15 s)
 * transferred onto a 1,000,000-chunk chunking B (60 s chunks every 45 s: 10,000 videos × 100
 * chunks) by lib/stats/time/transfer.ts. Targets: ≤ 2 s and ≤ 500 MB.
 *
 * The labels: 1,000 questions × 100 labels, each question's labels on 20 consecutive A chunks in
 * each of 5 videos (a pooled region around where systems retrieved), grades mostly 0 with a
 * relevant stretch in the middle, and per question an open reference span (a corrected start) at
 * each of its grade-3 labels — the shape of a real pool (rule version 2 reads references).
 *
 * Everything runs in a child process of its own, so the memory figure is that process's peak RSS
 * (`process.resourceUsage().maxRSS`: Node and tsx, the 1,000,000 chunk objects and 100,000 labels
 * as a caller would hold them, and the transfer's own structures and output). The child runs with
 * --expose-gc and collects before each call, so the peak is that of a process doing one transfer
 * (as the CLI does), not of four calls' garbage waiting for the collector. Time: the transfer call
 * only (the data is generated before), median of 3 after one warm-up, with its CPU time beside it
 * (on a shared machine the wall time includes other processes' share).
 */
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { seededRng } from "../../lib/stats/random.ts";
import type { ReferenceSpan } from "../../lib/stats/time/reference.ts";
import { transferLabels, type LabelledSpan, type TargetChunk } from "../../lib/stats/time/transfer.ts";
import type { TBenchRow } from "./index.ts";
import { median } from "./_median.ts";

const VIDEOS = 10_000;
const CHUNKS_PER_VIDEO = 100;
const QUESTIONS = 1_000;
const VIDEOS_PER_QUESTION = 5;
const LABELS_PER_VIDEO = 20;
const TIMES = 3;
const root = join(import.meta.dirname, "..", "..");

type ChildResult = { ms: number[]; cpuMs: number[]; rssMb: number; derived: number; labels: number; chunks: number };

function data(): { labels: LabelledSpan[]; chunks: TargetChunk[]; references: Map<string, ReferenceSpan[]> } {
  const chunks: TargetChunk[] = new Array(VIDEOS * CHUNKS_PER_VIDEO);
  for (let v = 0; v < VIDEOS; v++) {
    const video = `video-${v}`;
    for (let i = 0; i < CHUNKS_PER_VIDEO; i++)
      chunks[v * CHUNKS_PER_VIDEO + i] = { id: `c60o15:${v}:${i}`, video, start: i * 45, end: i * 45 + 60 };
  }
  const rng = seededRng(20);
  const labels: LabelledSpan[] = [];
  const references = new Map<string, ReferenceSpan[]>();
  const videoLength = (CHUNKS_PER_VIDEO - 1) * 45 + 60;
  for (let q = 0; q < QUESTIONS; q++) {
    for (let k = 0; k < VIDEOS_PER_QUESTION; k++) {
      const video = `video-${rng.int(VIDEOS)}`;
      const first = rng.int(Math.floor((videoLength - 20 - LABELS_PER_VIDEO * 15) / 15));
      for (let j = 0; j < LABELS_PER_VIDEO; j++) {
        const start = (first + j) * 15;
        const middle = Math.abs(j - LABELS_PER_VIDEO / 2) < 3;
        const grade = middle ? 1 + rng.int(3) : rng.next() < 0.1 ? 1 : 0;
        labels.push({ id: `l${labels.length}`, query: `q${q}`, video, start, end: start + 20, grade });
        if (grade === 3)
          references.set(`q${q}`, [
            ...(references.get(`q${q}`) ?? []),
            { video, start: start + rng.int(15), end: null },
          ]);
      }
    }
  }
  return { labels, chunks, references };
}

/** A full collection between calls (the child runs with --expose-gc): each call starts from the input alone. */
const collect = () => (globalThis as { gc?: () => void }).gc?.();

function child(): ChildResult {
  const { labels, chunks, references } = data();
  collect();
  transferLabels(labels, chunks, {}, references); // warm-up
  const ms: number[] = [];
  const cpuMs: number[] = [];
  let derived = 0;
  for (let t = 0; t < TIMES; t++) {
    collect();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    derived = transferLabels(labels, chunks, {}, references).length;
    ms.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuMs.push((c.user + c.system) / 1000);
  }
  return {
    ms,
    cpuMs,
    rssMb: process.resourceUsage().maxRSS / 1024,
    derived,
    labels: labels.length,
    chunks: chunks.length,
  };
}

export async function bench(): Promise<TBenchRow[]> {
  const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", import.meta.filename, "--child"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0)
    throw new Error(
      `the transfer child process failed (${r.error?.message ?? `exit ${r.status}`}): ${r.stderr.slice(-300)}`,
    );
  const res = JSON.parse(r.stdout) as ChildResult;
  const m = median(res.ms);
  const cpu = median(res.cpuMs);
  const what = `${res.labels.toLocaleString("en")} labels of c20o5 onto ${res.chunks.toLocaleString("en")} chunks of c60o15`;
  return [
    {
      name: `label transfer (lib/stats/time/transfer.ts): ${what}, ${res.derived.toLocaleString("en")} labels derived`,
      target: "≤ 2 s",
      measured: `${(m / 1000).toFixed(2)} s (median of ${TIMES}; range ${(Math.min(...res.ms) / 1000).toFixed(2)}–${(Math.max(...res.ms) / 1000).toFixed(2)} s; CPU ${(cpu / 1000).toFixed(2)} s; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
      pass: m <= 2000,
      command: "npm run bench -- transfer",
    },
    {
      name: `label transfer: peak memory of the process holding the ${what} and the result`,
      target: "≤ 500 MB",
      measured: `${res.rssMb.toFixed(0)} MB max RSS`,
      pass: res.rssMb <= 500,
      command: "npm run bench -- transfer",
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes("--child")) process.stdout.write(JSON.stringify(child()));
  else for (const row of await bench()) console.log(JSON.stringify(row));
  process.exit(0);
}
