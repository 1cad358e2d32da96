/**
 * LLM judge benchmark: 10,000 pooled pairs judged against the fake OpenAI-compatible
 * server (tests/helpers/fake-llm.ts, in a process of its own, answering every request after
 * 20 ms) with concurrency 32, on a fresh SQLite database.
 *
 * - Throughput: pairs per second of `runWorker` (the code `judge run` and the app server use),
 *   from the first claim to the last result stored. Target ≥ 1,000 pairs/s; the ceiling set by
 *   the endpoint is 32 / 20 ms = 1,600 requests/s, so the runner, not the database, must not be
 *   the limit.
 * - Peak memory: the worker process's maximum resident set (the benchmark runs it in its own
 *   process, so this includes Node, Prisma and the run's 10,000 prompts). Target ≤ 300 MB.
 * - Resume after a kill: `assessor judge run` as a user starts it (a second configuration, so the
 *   response cache does not answer), `kill -9` once a third of the pairs are stored, then
 *   `assessor judge resume`: the time from starting the resume until its first new result is
 *   stored (process start, the dead worker's claims taken back, the pairs' texts read, the first
 *   answers flushed). Target < 2 s.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { TBenchRow } from "./index.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

const PAIRS = 10_000;
const QUERIES = 100;
const LATENCY_MS = 20;
const CONCURRENCY = 32;
const root = join(import.meta.dirname, "..", "..");
const KEY_ENV = { BENCH_JUDGE_API_KEY: "none" };

export async function startFake(): Promise<{ url: string; child: ChildProcess }> {
  const { freePort } = await import("../../tests/helpers/server.ts");
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      join(root, "tests", "helpers", "fake-llm.ts"),
      "--port",
      String(port),
      "--latency",
      String(LATENCY_MS),
    ],
    { cwd: root, stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((ok, ko) => {
    child.stdout?.once("data", () => ok());
    child.once("exit", (code) => ko(new Error(`the fake server exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/v1`, child };
}

const cli = (args: string[], env: Record<string, string>) =>
  spawn(process.execPath, [join(root, "bin", "assessor.mjs"), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });

export async function bench(): Promise<TBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "assessor-bench-judge-"));
  const dbUrl = `file:${join(dir, "bench.db")}`;
  process.env.DATABASE_URL = dbUrl;
  const fake = await startFake();
  try {
    const { migrate } = await import("../../lib/db/migrate.ts");
    await migrate();
    const { getDb } = await import("../../lib/db/client.ts");
    const db = await getDb();
    const project = await db.project.create({ data: { name: "judge-bench" } });
    const video = await db.video.create({
      data: {
        projectId: project.id,
        externalId: "v",
        title: "Bench talk",
        path: "demo/media/bm25.mp4",
        durationSeconds: 36_000,
      },
    });
    const defaultId = await defaultChunkingId(db, project.id);
    await db.chunk.createMany({
      data: Array.from({ length: PAIRS }, (_, i) => ({
        chunkingId: defaultId,
        projectId: project.id,
        externalId: `c${i}`,
        videoId: video.id,
        startSeconds: i * 3,
        endSeconds: i * 3 + 15,
        text: `Chunk ${i}: a few sentences of transcript about ranking, fusion and evaluation, number ${i}.`,
      })),
    });
    await db.query.createMany({
      data: Array.from({ length: QUERIES }, (_, q) => ({
        projectId: project.id,
        externalId: `q${q}`,
        text: `Question ${q}: what does the speaker say about topic ${q}?`,
      })),
    });
    const chunks = await db.chunk.findMany({
      where: { projectId: project.id },
      select: { id: true },
      orderBy: { id: "asc" },
    });
    const queries = await db.query.findMany({
      where: { projectId: project.id },
      select: { id: true },
      orderBy: { id: "asc" },
    });
    const per = PAIRS / QUERIES;
    await db.poolItem.createMany({
      data: chunks.map((c, i) => ({ projectId: project.id, queryId: queries[Math.floor(i / per)].id, chunkId: c.id })),
    });

    // Throughput and memory: the worker in a process of its own (as `judge resume` runs it).
    const { startRun } = await import("../../lib/judge/service.ts");
    const { run } = await startRun(
      db,
      project.id,
      {
        judge: "bench",
        model: "fake-judge",
        baseUrl: fake.url,
        apiKeyEnv: "BENCH_JUDGE_API_KEY",
        concurrency: CONCURRENCY,
      },
      KEY_ENV,
    );
    const worker = spawn(
      process.execPath,
      [
        ...(process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir", process.env.BENCH_PROFILE] : []),
        "--import",
        "tsx",
        join(import.meta.dirname, "judge.ts"),
        "--worker",
        String(run.id),
      ],
      { cwd: root, env: { ...process.env, ...KEY_ENV, DATABASE_URL: dbUrl }, stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    worker.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    await new Promise((r) => worker.once("exit", r));
    const { done, seconds, rssMb } = JSON.parse(out) as { done: number; seconds: number; rssMb: number };
    const rate = done / seconds;

    // Resume after kill -9: the CLI, as a user runs it.
    const resumeJudge = "bench-resume";
    const args = ["--project", "judge-bench"];
    const env = { ...KEY_ENV, DATABASE_URL: dbUrl };
    const first = cli(
      [
        "judge",
        "run",
        ...args,
        "--judge",
        resumeJudge,
        "--model",
        "fake-judge",
        "--base-url",
        fake.url,
        "--api-key-env",
        "BENCH_JUDGE_API_KEY",
        "--concurrency",
        String(CONCURRENCY),
        "--temperature",
        "0.1",
      ],
      env,
    );
    const runId = async () =>
      (await db.judgeRun.findFirst({ where: { projectId: project.id, judge: resumeJudge } }))?.id;
    const stored = async (id: number) => db.judgeTask.count({ where: { runId: id, status: "done" } });
    let id: number | undefined;
    for (;;) {
      if (first.exitCode !== null) throw new Error(`judge run exited early (${first.exitCode})`);
      id = await runId();
      if (id !== undefined && (await stored(id)) >= PAIRS / 3) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    const before = await stored(id);
    const r0 = performance.now();
    const resume = cli(["judge", "resume", String(id), ...args], env);
    let firstNew = Number.NaN;
    while (Number.isNaN(firstNew)) {
      if ((await stored(id)) > before) firstNew = (performance.now() - r0) / 1000;
      else if (resume.exitCode !== null)
        throw new Error(`judge resume exited (${resume.exitCode}) before storing a result`);
      else await new Promise((r) => setTimeout(r, 10));
    }
    const code = await new Promise<number | null>((r) =>
      resume.exitCode !== null ? r(resume.exitCode) : resume.once("exit", r),
    );
    const resumeTotal = (performance.now() - r0) / 1000;
    const after = await stored(id);
    // For context: what any database command pays to start (tsx, Prisma), the floor of the resume's figure.
    const s0 = performance.now();
    const list = cli(["project", "list"], env);
    await new Promise((r) => list.once("exit", r));
    const startOnly = (performance.now() - s0) / 1000;
    const { closeDb } = await import("../../lib/db/client.ts");
    await closeDb();

    const machine = `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;
    return [
      {
        name: `judge run: ${PAIRS.toLocaleString("en")} pairs, fake endpoint answering in ${LATENCY_MS} ms, concurrency ${CONCURRENCY} (SQLite)`,
        target: "≥ 1,000 pairs/s",
        measured: `${Math.round(rate).toLocaleString("en")} pairs/s (${done.toLocaleString("en")} in ${seconds.toFixed(2)} s; endpoint ceiling ${Math.round((CONCURRENCY * 1000) / LATENCY_MS).toLocaleString("en")}/s; ${machine})`,
        pass: rate >= 1000 && done === PAIRS,
        command: "npm run bench -- judge",
      },
      {
        name: "judge run: peak memory of the worker process (10,000 pairs)",
        target: "≤ 300 MB",
        measured: `${rssMb.toFixed(0)} MB max RSS`,
        pass: rssMb <= 300,
        command: "npm run bench -- judge",
      },
      {
        name: "judge resume after kill -9 (CLI): start of `judge resume` to its first new result stored",
        target: "< 2 s",
        measured: `${firstNew.toFixed(2)} s (killed at ${before.toLocaleString("en")} stored; the resume finished the other ${(after - before).toLocaleString("en")} in ${resumeTotal.toFixed(1)} s, exit ${code}; ${machine})`,
        pass: firstNew < 2 && after === PAIRS && code === 0,
        command: "npm run bench -- judge",
      },
      {
        name: "for context: start of a database command (`assessor project list`: Node, tsx, Prisma)",
        target: "—",
        measured: `${startOnly.toFixed(2)} s (${machine})`,
        pass: null,
        command: "npm run bench -- judge",
      },
    ];
  } finally {
    fake.child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The measured worker: runs the run, then prints what it did, how long it took and its peak memory. */
async function worker(runId: number): Promise<void> {
  const { getDb } = await import("../../lib/db/client.ts");
  const { runWorker } = await import("../../lib/judge/runner.ts");
  const db = await getDb();
  const t0 = performance.now();
  const result = await runWorker(db, runId, { apiKey: KEY_ENV.BENCH_JUDGE_API_KEY });
  const seconds = (performance.now() - t0) / 1000;
  process.stdout.write(
    JSON.stringify({ done: result.progress.done, seconds, rssMb: process.resourceUsage().maxRSS / 1024 }),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf("--worker");
  if (i > 0) await worker(Number(process.argv[i + 1]));
  else for (const r of await bench()) console.log(JSON.stringify(r));
  process.exit(0);
}
