/**
 * Import benchmark: a 1,000,000-line TREC run (scripts/bench/make_big_run.py: 500 queries ×
 * 2,000 chunks) imported with `node bin/assessor.mjs import run …` as a whole process on a fresh
 * SQLite database. Targets: ≥ 100,000 lines/s (wall time of the whole command, start-up, id
 * maps, validation and the write included) and ≤ 400 MB peak RSS.
 *
 * Set-up (not measured): a project, 500 videos, the 500 queries q0…q499 and the 1,000,000 chunks
 * d{q}_{j} the run names, written as JSONL into a temp dir and imported through the CLI.
 * Peak RSS is the child's own `process.resourceUsage().maxRSS`, reported from its exit handler
 * (a `--import` hook), so no external tool is needed.
 *
 * The label import is measured on PostgreSQL too (postgresLabelRow: a database created and
 * dropped by the bench, the same chunks and qrels).
 *
 * Run alone: `npx tsx scripts/bench/import.ts` (or `npm run bench -- import`).
 */
import { spawnSync } from "node:child_process";
import { createWriteStream, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";
import type { TBenchRow } from "./index.ts";
import { benchPgUrl, pgUnreachable } from "./_pg.ts";

const root = join(import.meta.dirname, "..", "..");
const QUERIES = 500;
const PER_QUERY = 2000;
const LINES = QUERIES * PER_QUERY;
const TARGET_RATE = 100_000;
const TARGET_RSS_MB = 400;
const LABELS_PER_QUERY = 400; // 200,000 reference labels: the top 400 chunks of each query
const TARGET_LABEL_RATE = 50_000;
const TARGET_START_S = 0.5;

// Printed by the child as it exits: its peak RSS (KB) and CPU time (µs, user + system).
const RSS_HOOK = `data:text/javascript,${encodeURIComponent('process.on("exit",()=>{const u=process.resourceUsage();process.stderr.write("\\nmaxrss_kb="+u.maxRSS+" cpu_us="+(u.userCPUTime+u.systemCPUTime)+"\\n")})')}`;

function cli(
  args: string[],
  env: NodeJS.ProcessEnv,
): { code: number; stdout: string; stderr: string; seconds: number; cpuSeconds: number; maxRssMb: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", RSS_HOOK, join(root, "bin", "assessor.mjs"), ...args], {
    cwd: root,
    env,
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  const seconds = (performance.now() - t0) / 1000;
  const kb = Number(/maxrss_kb=(\d+)/.exec(r.stderr)?.[1] ?? NaN);
  const cpuSeconds = Number(/cpu_us=(\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1e6;
  if (r.status !== 0) throw new Error(`assessor ${args.join(" ")} failed (${r.status}): ${r.stderr.slice(0, 2000)}`);
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, seconds, cpuSeconds, maxRssMb: kb / 1024 };
}

async function writeLines(path: string, count: number, line: (i: number) => string): Promise<void> {
  const ws = createWriteStream(path);
  for (let i = 0; i < count; i++) if (!ws.write(line(i))) await once(ws, "drain");
  ws.end();
  await once(ws, "finish");
}

export async function bench(): Promise<TBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "assessor-bench-import-"));
  try {
    const env = { ...process.env, DATABASE_URL: `file:${join(dir, "bench.db")}` };
    const gen = spawnSync("python3", [join(import.meta.dirname, "make_big_run.py"), dir], { encoding: "utf8" });
    if (gen.status !== 0 || !existsSync(join(dir, "big.run"))) throw new Error(`make_big_run.py failed: ${gen.stderr}`);
    writeFileSync(
      join(dir, "videos.jsonl"),
      Array.from(
        { length: QUERIES },
        (_, q) =>
          JSON.stringify({ id: `v${q}`, title: `Video ${q}`, path: `media/v${q}.mp4`, duration: PER_QUERY * 30 }) +
          "\n",
      ).join(""),
    );
    writeFileSync(
      join(dir, "queries.jsonl"),
      Array.from({ length: QUERIES }, (_, q) => JSON.stringify({ id: `q${q}`, text: `question ${q}?` }) + "\n").join(
        "",
      ),
    );
    await writeLines(join(dir, "chunks.jsonl"), LINES, (i) => {
      const q = Math.floor(i / PER_QUERY);
      const j = i % PER_QUERY;
      return `{"id":"d${q}_${j}","video":"v${q}","start":${j * 30},"end":${j * 30 + 30},"text":"chunk ${j} of video ${q}"}\n`;
    });
    const chunks = loadProject(dir, env);
    const run = cli(["import", "run", "--system", "sysA", join(dir, "big.run")], env);
    if (!/imported 1,000,000 run entries/.test(run.stdout)) throw new Error(`unexpected output: ${run.stdout}`);
    const rate = LINES / run.seconds;
    // The machine is shared: the CPU time the process used tells how much of the wall time was waiting.
    const load = loadavg()[0].toFixed(1);
    const again = cli(["import", "run", "--system", "sysA", join(dir, "big.run")], env);
    await writeLines(
      join(dir, "labels.qrels"),
      QUERIES * LABELS_PER_QUERY,
      (i) =>
        `q${Math.floor(i / LABELS_PER_QUERY)} 0 d${Math.floor(i / LABELS_PER_QUERY)}_${i % LABELS_PER_QUERY} ${i % 4}\n`,
    );
    const labels = cli(["import", "labels", "--source", "prior", join(dir, "labels.qrels")], env);
    if (!/imported 200,000 reference labels/.test(labels.stdout))
      throw new Error(`unexpected output: ${labels.stdout}`);
    const labelRate = (QUERIES * LABELS_PER_QUERY) / labels.seconds;
    // A database command's start: `status` on this project (connect, migrations checked, one count query), best of 3.
    const starts = [0, 1, 2].map(() => cli(["status"], env));
    const start = starts.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const command = "npm run bench -- import  (node bin/assessor.mjs import run --system sysA big.run, SQLite)";
    const pgLabels = await postgresLabelRow(dir);
    return [
      {
        name: "import 1M-line TREC run: throughput",
        target: `≥ ${TARGET_RATE.toLocaleString("en-US")} lines/s`,
        measured: `${Math.round(rate).toLocaleString("en-US")} lines/s (${run.seconds.toFixed(1)} s wall for the whole process; ${run.cpuSeconds.toFixed(1)} s CPU; load avg ${load})`,
        pass: rate >= TARGET_RATE,
        command,
      },
      {
        name: "import 1M-line TREC run: peak memory",
        target: `≤ ${TARGET_RSS_MB} MB RSS`,
        measured: `${Math.round(run.maxRssMb)} MB RSS`,
        pass: run.maxRssMb <= TARGET_RSS_MB,
        command,
      },
      {
        name: "re-import the same run (no change)",
        target: "reported as unchanged",
        measured: `${again.seconds.toFixed(1)} s`,
        pass: /unchanged/.test(again.stdout),
        command,
      },
      {
        name: "import 200,000 reference labels (qrels): throughput",
        target: `≥ ${TARGET_LABEL_RATE.toLocaleString("en-US")} rows/s`,
        measured: `${Math.round(labelRate).toLocaleString("en-US")} rows/s (${labels.seconds.toFixed(1)} s wall for the whole process; ${labels.cpuSeconds.toFixed(1)} s CPU; ${Math.round(labels.maxRssMb)} MB RSS)`,
        pass: labelRate >= TARGET_LABEL_RATE,
        command: "npm run bench -- import  (node bin/assessor.mjs import labels --source prior labels.qrels, SQLite)",
      },
      {
        name: "database command start (assessor status)",
        target: `≤ ${TARGET_START_S} s`,
        measured: `${start.seconds.toFixed(2)} s wall, ${start.cpuSeconds.toFixed(2)} s CPU (best of 3; load avg ${loadavg()[0].toFixed(1)})`,
        pass: start.seconds <= TARGET_START_S,
        command: "npm run bench -- import  (node bin/assessor.mjs status, SQLite)",
      },
      pgLabels,
      {
        name: "import 1M chunks JSONL (bench set-up)",
        target: "— (reported)",
        measured: `${chunks.seconds.toFixed(1)} s, ${Math.round(chunks.maxRssMb)} MB RSS`,
        pass: null,
        command: "node bin/assessor.mjs import chunks chunks.jsonl",
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bench's project, videos, queries and 1,000,000 chunks, through the CLI; returns the chunk import's figures. */
function loadProject(dir: string, env: NodeJS.ProcessEnv): ReturnType<typeof cli> {
  cli(["project", "create", "bench"], env);
  cli(["import", "videos", join(dir, "videos.jsonl")], env);
  cli(["import", "queries", join(dir, "queries.jsonl")], env);
  return cli(["import", "chunks", join(dir, "chunks.jsonl")], env);
}

/**
 * The same label import on PostgreSQL: a database of its own (created here on the server at
 * BENCH_PG_URL, else TEST_DATABASE_URL, else the local default; dropped afterwards) with the same
 * project, videos, queries and 1,000,000 chunks (then VACUUM ANALYZE and CHECKPOINT, not measured),
 * then the same 200,000 qrels through the CLI.
 * Reported as not measured when no server answers.
 */
async function postgresLabelRow(dir: string): Promise<TBenchRow> {
  const base = benchPgUrl();
  const name = "import 200,000 reference labels (qrels): throughput, PostgreSQL";
  const target = `≥ ${TARGET_LABEL_RATE.toLocaleString("en-US")} rows/s`;
  const command = `npm run bench -- import  (node bin/assessor.mjs import labels --source prior labels.qrels, PostgreSQL at ${base})`;
  const unreachable = await pgUnreachable(base);
  if (unreachable) return { name, target, measured: unreachable, pass: null, command };
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  const database = `assessor_bench_${process.pid}_${Date.now().toString(36)}`;
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
    const url = new URL(base);
    url.pathname = `/${database}`;
    url.searchParams.delete("schema");
    const env = { ...process.env, DATABASE_URL: url.toString() };
    const chunks = loadProject(dir, env);
    // The set-up leaves autovacuum and a checkpoint due on a million new rows; by the time a team
    // imports labels they have run, so they run here, before the measurement, not during it.
    const settle = new pg.Client({ connectionString: url.toString() });
    await settle.connect();
    try {
      await settle.query("VACUUM ANALYZE");
      await settle.query("CHECKPOINT").catch(() => undefined); // superuser or pg_checkpoint only
    } finally {
      await settle.end();
    }
    const labels = cli(["import", "labels", "--source", "prior", join(dir, "labels.qrels")], env);
    if (!/imported 200,000 reference labels/.test(labels.stdout))
      throw new Error(`unexpected output: ${labels.stdout}`);
    const rate = (QUERIES * LABELS_PER_QUERY) / labels.seconds;
    return {
      name,
      target,
      measured: `${Math.round(rate).toLocaleString("en-US")} rows/s (${labels.seconds.toFixed(1)} s wall for the whole process; ${labels.cpuSeconds.toFixed(1)} s CPU; ${Math.round(labels.maxRssMb)} MB RSS; load avg ${loadavg()[0].toFixed(1)}; set-up: 1M chunks imported in ${chunks.seconds.toFixed(1)} s, then VACUUM ANALYZE, CHECKPOINT)`,
      pass: rate >= TARGET_LABEL_RATE,
      command,
    };
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await bench())
    console.log(`${row.pass ? "ok " : "NO "} ${row.name}: ${row.measured} (target ${row.target})`);
}
