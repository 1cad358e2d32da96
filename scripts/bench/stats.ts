/**
 * Benchmarks of the statistics core, as whole processes the way a user runs them:
 * - `assessor eval` on the 1,000,000-line run and its qrels from scripts/bench/make_big_run.py
 *   with ndcg_cut.5,10 recip_rank recall.5,10,100 P.5 map. trec_eval 10.0 (C) takes 1.43 s and
 *   82 MB on this machine class; the goal is at most that time and at most 200 MB peak RSS.
 * - `assessor eval -m all_trec` (every trec_eval measure) on the same run, against trec_eval 10.0
 *   itself when a binary is found (TREC_EVAL, else `trec_eval` on the PATH): a genuine one, built
 *   unmodified with its own Makefile from usnistgov/trec_eval tag v10.0 (commit f4253652; the
 *   Makefile compiles without -O). The output must be byte for byte trec_eval's, or the module
 *   stops; then at most 0.7 × trec_eval's wall time and at most 200 MB; without a binary the ratio
 *   is reported as not measured.
 * - `assessor agreement` with a 10,000-resample bootstrap on 5,000 pairs (250 queries × 20
 *   chunks): at most 1 s.
 * Wall time, peak RSS and CPU time come from /usr/bin/time (GNU time, "%e %M %U %S"); each command
 * runs three times after one warm-up and the median wall time and largest peak are reported. The
 * CPU time and the load average are printed too: on a shared machine wall time mostly measures
 * the other processes.
 * Data is generated into a temporary directory that is removed afterwards.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { seededRng } from "../../lib/stats/random.ts";
import type { TBenchRow } from "./index.ts";

const root = join(import.meta.dirname, "..", "..");
const cli = join(root, "bin", "assessor.mjs");
const RUNS = 3;

/** The big collection's generator, kept next to this file. */
const generator = () => join(import.meta.dirname, "make_big_run.py");

type Timing = { wall: number; rssMb: number | null; cpu: number | null };

/** Runs a command under GNU time (or without RSS when it is missing). */
function timeCommand(command: string, args: string[], cwd: string): Timing {
  const gnuTime = existsSync("/usr/bin/time");
  if (gnuTime) {
    const r = spawnSync("/usr/bin/time", ["-f", "%e %M %U %S", command, ...args], {
      cwd,
      encoding: "utf8",
      maxBuffer: 64 << 20,
    });
    if (r.status !== 0) throw new Error(`${command} ${args[0]} failed (${r.status}): ${r.stderr.slice(-500)}`);
    const last = r.stderr.trim().split("\n").at(-1) ?? "";
    const [wall, kb, user, sys] = last.split(" ").map(Number);
    if (!Number.isFinite(wall) || !Number.isFinite(kb)) throw new Error(`cannot read GNU time output: ${last}`);
    return { wall, rssMb: kb / 1024, cpu: user + sys };
  }
  const t0 = performance.now();
  const r = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${command} ${args[0]} failed (${r.status}): ${r.stderr.slice(-500)}`);
  return { wall: (performance.now() - t0) / 1000, rssMb: null, cpu: null };
}

/** trec_eval to compare with: TREC_EVAL, else `trec_eval` on the PATH; null when there is none. */
function trecEvalBinary(): string | null {
  const given = process.env.TREC_EVAL;
  if (given) return existsSync(given) ? given : null;
  const r = spawnSync("sh", ["-c", "command -v trec_eval"], { encoding: "utf8" });
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
}

type Measured = { wall: number; rssMb: number | null; walls: number[]; cpu: string; cpuSeconds: number | null };

function measure(args: string[], cwd: string): Measured {
  return measureCommand(process.execPath, [cli, ...args], cwd);
}

function measureCommand(command: string, args: string[], cwd: string): Measured {
  timeCommand(command, args, cwd); // warm-up: the CLI's bundle or tsx's transform cache, page cache
  const runs = Array.from({ length: RUNS }, () => timeCommand(command, args, cwd));
  const walls = runs.map((r) => r.wall).sort((a, b) => a - b);
  const rss = runs.map((r) => r.rssMb);
  const cpus = runs
    .map((r) => r.cpu)
    .filter((c): c is number => c !== null)
    .sort((a, b) => a - b);
  const cpu = cpus.length ? `CPU ${cpus[Math.floor(cpus.length / 2)].toFixed(2)} s user+sys` : "CPU n/a";
  return {
    wall: walls[Math.floor(walls.length / 2)],
    rssMb: rss.some((x) => x === null) ? null : Math.max(...(rss as number[])),
    walls,
    cpu,
    cpuSeconds: cpus.length ? cpus[Math.floor(cpus.length / 2)] : null,
  };
}

/** 5,000 pairs: 250 queries × 20 chunks, the other rater agreeing about 60% of the time. */
function writeAgreementData(dir: string): void {
  const rng = seededRng(2026);
  const ref: string[] = [];
  const other: string[] = [];
  for (let q = 0; q < 250; q++)
    for (let c = 0; c < 20; c++) {
      const g = rng.int(4);
      const r = rng.next();
      const o = r < 0.6 ? g : r < 0.85 ? Math.min(3, Math.max(0, g + (rng.next() < 0.5 ? -1 : 1))) : rng.int(4);
      ref.push(`q${q} 0 c${q}_${c} ${g}`);
      other.push(`q${q} 0 c${q}_${c} ${o}`);
    }
  writeFileSync(join(dir, "reference.qrels"), `${ref.join("\n")}\n`);
  writeFileSync(join(dir, "other.qrels"), `${other.join("\n")}\n`);
}

export async function bench(): Promise<TBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "bench-stats-"));
  try {
    const gen = spawnSync("python3", [generator(), dir], { encoding: "utf8" });
    if (gen.status !== 0) throw new Error(`make_big_run.py failed: ${gen.stderr}`);
    const evalArgs = [
      "eval",
      "big.qrels",
      "big.run",
      "-m",
      "ndcg_cut.5,10",
      "-m",
      "recip_rank",
      "-m",
      "recall.5,10,100",
      "-m",
      "P.5",
      "-m",
      "map",
    ];
    const ev = measure(evalArgs, dir);
    const allArgs = ["eval", "-m", "all_trec", "big.qrels", "big.run"];
    const all = measure(allArgs, dir);
    const te = trecEvalBinary();
    const ref = te ? measureCommand(te, ["-m", "all_trec", "big.qrels", "big.run"], dir) : null;
    if (te) {
      // the same numbers, or the comparison means nothing
      const ours = spawnSync(process.execPath, [cli, ...allArgs], {
        cwd: dir,
        encoding: "utf8",
        maxBuffer: 64 << 20,
      }).stdout;
      const theirs = spawnSync(te, ["-m", "all_trec", "big.qrels", "big.run"], {
        cwd: dir,
        encoding: "utf8",
        maxBuffer: 64 << 20,
      }).stdout;
      if (ours !== theirs) throw new Error(`assessor eval -m all_trec and ${te} disagree on big.run`);
    }
    writeAgreementData(dir);
    const agArgs = ["agreement", "reference.qrels", "other.qrels", "--bootstrap", "10000", "--seed", "1"];
    const ag = measure(agArgs, dir);
    const evalCommand = `python3 scripts/bench/make_big_run.py DIR && cd DIR && /usr/bin/time -f "%e s %M KB" node bin/assessor.mjs ${evalArgs.join(" ")}`;
    const s = (x: number) => `${x.toFixed(2)} s`;
    return [
      {
        name: "eval: 1,000,000-line run, 6 measures (whole process, wall)",
        target: "≤ 1.43 s (trec_eval 10.0)",
        measured: `${s(ev.wall)} median of ${RUNS} (${ev.walls.map((w) => w.toFixed(2)).join(", ")}; ${ev.cpu}; load average ${loadavg()[0].toFixed(1)})`,
        pass: ev.wall <= 1.43,
        command: evalCommand,
      },
      {
        name: "eval: 1,000,000-line run, peak RSS",
        target: "≤ 200 MB",
        measured: ev.rssMb === null ? "n/a (no /usr/bin/time)" : `${ev.rssMb.toFixed(0)} MB`,
        pass: ev.rssMb !== null && ev.rssMb <= 200,
        command: evalCommand,
      },
      {
        name: "eval -m all_trec: 1,000,000-line run, every trec_eval measure (whole process, wall, vs trec_eval 10.0)",
        target: "≤ 0.7 × trec_eval's wall time",
        measured: ref
          ? `${s(all.wall)} vs trec_eval ${s(ref.wall)} = ${(all.wall / ref.wall).toFixed(2)} × (medians of ${RUNS}: ours ${all.walls.map((w) => w.toFixed(2)).join(", ")}, ${all.cpu}; trec_eval ${ref.walls.map((w) => w.toFixed(2)).join(", ")}, ${ref.cpu}; CPU ratio ${all.cpuSeconds !== null && ref.cpuSeconds ? (all.cpuSeconds / ref.cpuSeconds).toFixed(2) : "n/a"}; identical output; load average ${loadavg()[0].toFixed(1)})`
          : `${s(all.wall)} median of ${RUNS} (${all.cpu}); ratio not measured: no trec_eval binary (set TREC_EVAL or put trec_eval on the PATH)`,
        pass: ref ? all.wall <= 0.7 * ref.wall : null,
        command: `python3 scripts/bench/make_big_run.py DIR && cd DIR && /usr/bin/time -f "%e s %M KB" node bin/assessor.mjs ${allArgs.join(" ")}; TREC_EVAL=… for the reference`,
      },
      {
        name: "eval -m all_trec: 1,000,000-line run, peak RSS",
        target: "≤ 200 MB",
        measured:
          all.rssMb === null
            ? "n/a (no /usr/bin/time)"
            : `${all.rssMb.toFixed(0)} MB${ref?.rssMb ? ` (trec_eval ${ref.rssMb.toFixed(0)} MB)` : ""}`,
        pass: all.rssMb !== null && all.rssMb <= 200,
        command: `node bin/assessor.mjs ${allArgs.join(" ")}`,
      },
      {
        name: "agreement: 5,000 pairs, 10,000-resample bootstrap (whole process, wall)",
        target: "≤ 1 s",
        measured: `${s(ag.wall)} median of ${RUNS} (${ag.walls.map((w) => w.toFixed(2)).join(", ")}; ${ag.cpu}), peak ${ag.rssMb === null ? "n/a" : `${ag.rssMb.toFixed(0)} MB`}`,
        pass: ag.wall <= 1,
        command: `npm run bench -- stats (agreement reference.qrels other.qrels ${agArgs.slice(3).join(" ")}; 250 queries × 20 chunks)`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
