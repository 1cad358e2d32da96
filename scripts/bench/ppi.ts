/**
 * PPI benchmark: the statistics the dashboard adds for the "judge + human (PPI)" source
 * and the queries-needed advisor (lib/stats/ppi-table.ts: PPI++ mean per run and measure, PPI++
 * paired difference from the baseline, topic-set sizes) on 20 runs × 500 questions × 12 measures,
 * 100 of them completely human-labelled. Per-question values are generated (seeded); the
 * per-question measures themselves are the systems table's, cached per question and re-evaluated
 * only where labels changed (lib/dashboard/systems.ts), so after a label change this is the work
 * PPI adds. Target: ≤ 100 ms (median of 7 after one warm-up). The dashboard module times the same
 * panel on its seeded project after real label changes.
 */
import { cpus, loadavg } from "node:os";
import { ppiTable } from "../../lib/stats/ppi-table.ts";
import { seededRng } from "../../lib/stats/random.ts";
import type { TBenchRow } from "./index.ts";

const RUNS = 20;
const QUESTIONS = 500;
const MEASURES = 12;
const LABELLED = 100;
const TIMES = 7;

export async function bench(): Promise<TBenchRow[]> {
  const rng = seededRng(12);
  const columns = Array.from({ length: MEASURES }, (_, c) => ({ id: `m${c}`, label: `measure ${c}` }));
  const truth = Array.from({ length: RUNS }, () =>
    columns.map(() => Array.from({ length: QUESTIONS }, () => rng.next())),
  );
  const judge = truth.map((perCol) =>
    perCol.map((vals) => vals.map((v) => Math.min(1, Math.max(0, v + (rng.next() - 0.5) * 0.3)))),
  );
  const labelled = Array.from({ length: LABELLED }, (_, k) => k * (QUESTIONS / LABELLED));
  const human = truth.map((perCol) => perCol.map((vals) => labelled.map((i) => vals[i])));
  const input = {
    columns,
    runs: Array.from({ length: RUNS }, (_, r) => `run${r}`),
    baseline: 0,
    judge,
    human,
    labelled,
    delta: 0.05,
    halfWidth: 0.05,
  };
  ppiTable(input);
  const times: number[] = [];
  for (let t = 0; t < TIMES; t++) {
    const s = performance.now();
    ppiTable(input);
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  const m = times[Math.floor(TIMES / 2)];
  return [
    {
      name: `PPI intervals + queries-needed advisor (${RUNS} runs × ${QUESTIONS} questions × ${MEASURES} measures, ${LABELLED} complete questions; added to the dashboard's data after a label change)`,
      target: "≤ 100 ms",
      measured: `${m.toFixed(1)} ms (median of ${TIMES}; range ${times[0].toFixed(1)}–${times[TIMES - 1].toFixed(1)} ms; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)`,
      pass: m <= 100,
      command: "npm run bench -- ppi",
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await bench()) console.log(JSON.stringify(r));
  process.exit(0);
}
