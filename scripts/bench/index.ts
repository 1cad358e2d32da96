/**
 * `npm run bench [-- NAME...]`: runs every benchmark module in scripts/bench/ (each file except
 * this one exports `bench(): Promise<BenchRow[]>`), one after another so they do not compete for
 * the machine, and prints one markdown table with the machine it ran on. The same text is written
 * to bench-results/latest.md. Names select modules by file name without `.ts`
 * (`npm run bench -- stats pooling`).
 *
 * Each module runs in a child process of its own: no database client, environment change or heap
 * growth of one module reaches the next, and a module that crashes its process (or calls
 * process.exit) cannot take the table with it. A module that throws, exits early, or returns
 * something that is not a list of rows becomes a failed row naming the module and the error;
 * the other modules still run. Modules that serve the app (NEEDS_BUILD) get a production build of
 * the code as it is: the one in NEXT_DIST_DIR when that is set, otherwise one made in .next-bench
 * before they run (about 25 s). Exit code: 0 when every module ran (a missed target is a "no" in
 * the table, not a crash), 1 when a module failed to run, 2 for an unknown module name.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";

const ZBenchRow = z.object({
  name: z.string(),
  target: z.string(),
  measured: z.string(),
  /** null: a figure reported for context, with no target of its own. */
  pass: z.boolean().nullable(),
  command: z.string(),
});
export type TBenchRow = z.infer<typeof ZBenchRow>;

type ModuleResult = { module: string; seconds: number; rows: TBenchRow[]; failed: boolean };

const benchDir = import.meta.dirname;
const root = join(benchDir, "..", "..");

export function benchModules(dir = benchDir): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && f !== "index.ts" && !f.startsWith("_"))
    .map((f) => basename(f, ".ts"))
    .sort();
}

/** Picks the modules named on the command line (all when none); unknown names are an error. */
export function selectModules(available: string[], names: string[]): { selected: string[]; unknown: string[] } {
  if (names.length === 0) return { selected: available, unknown: [] };
  const wanted = names.map((n) => n.replace(/\.ts$/, ""));
  return {
    selected: available.filter((m) => wanted.includes(m)),
    unknown: wanted.filter((n) => !available.includes(n)),
  };
}

function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split("\n")[0].slice(0, 300);
}

const failedRow = (module: string, message: string): TBenchRow => ({
  name: `${module} (module failed)`,
  target: "runs",
  measured: `error: ${message}`,
  pass: false,
  command: `npm run bench -- ${module}`,
});

/** Imports one module and runs its bench() in this process. */
export async function runModule(module: string, dir = benchDir): Promise<ModuleResult> {
  const t0 = performance.now();
  try {
    const mod: unknown = await import(pathToFileURL(join(dir, `${module}.ts`)).href);
    const fn = typeof mod === "object" && mod !== null && "bench" in mod ? mod.bench : undefined;
    if (typeof fn !== "function") throw new Error("the module exports no bench() function");
    const result: unknown = await fn();
    const parsed = z.array(ZBenchRow).safeParse(result);
    if (!parsed.success)
      throw new Error(
        `bench() returned an unexpected value: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`,
      );
    if (parsed.data.length === 0) throw new Error("bench() returned no rows");
    return { module, seconds: (performance.now() - t0) / 1000, rows: parsed.data, failed: false };
  } catch (e) {
    return { module, seconds: (performance.now() - t0) / 1000, rows: [failedRow(module, errorText(e))], failed: true };
  }
}

/** Modules that start the production server (tests/helpers/server.ts) and so need a build. */
const NEEDS_BUILD = ["annotate", "answers", "dashboard", "queue"];
const BENCH_DIST = ".next-bench";

/**
 * The build directory for the modules that serve the app: NEXT_DIST_DIR when it holds a build,
 * else a fresh build of the working tree in .next-bench (`next build` adds its types folder to
 * tsconfig.json's include list; the file is put back as it was).
 */
function ensureBuild(): string {
  const given = process.env.NEXT_DIST_DIR;
  if (given && existsSync(join(root, given, "BUILD_ID"))) return given;
  process.stderr.write(`bench: building the app into ${BENCH_DIST} (next build) for ${NEEDS_BUILD.join(", ")} …\n`);
  const tsconfig = join(root, "tsconfig.json");
  const before = readFileSync(tsconfig, "utf8");
  try {
    const r = spawnSync(process.execPath, [join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
      cwd: root,
      stdio: ["ignore", 2, 2],
      env: { ...process.env, NEXT_DIST_DIR: BENCH_DIST, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (r.status !== 0) throw new Error(`next build failed (${r.error?.message ?? `exit code ${r.status}`})`);
  } finally {
    if (readFileSync(tsconfig, "utf8") !== before) writeFileSync(tsconfig, before);
  }
  return BENCH_DIST;
}

/** Runs one module in a child process (its output goes to stderr) and reads back its rows. */
export function runModuleIsolated(module: string, dir = benchDir): ModuleResult {
  const t0 = performance.now();
  const tmp = mkdtempSync(join(tmpdir(), "assessor-bench-"));
  const resultFile = join(tmp, "result.json");
  try {
    const r = spawnSync(
      process.execPath,
      [
        "--import",
        import.meta.resolve("tsx"),
        import.meta.filename,
        "--child",
        module,
        "--dir",
        dir,
        "--result",
        resultFile,
      ],
      {
        cwd: root,
        stdio: ["ignore", 2, 2], // the module's own output to stderr: stdout carries only the table
        env: process.env,
      },
    );
    if (existsSync(resultFile)) return JSON.parse(readFileSync(resultFile, "utf8")) as ModuleResult;
    const how = r.error ? r.error.message : r.signal ? `killed by ${r.signal}` : `exit code ${r.status}`;
    return {
      module,
      seconds: (performance.now() - t0) / 1000,
      rows: [failedRow(module, `the module's process ended before returning rows (${how})`)],
      failed: true,
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");

export function renderReport(results: ModuleResult[], when = new Date(), loadAtStart?: number): string {
  const lines = [
    "| benchmark | target | measured | pass | reproduce with |",
    "|---|---|---|---|---|",
    ...results.flatMap((r) =>
      r.rows.map(
        (row) =>
          `| ${cell(row.name)} | ${cell(row.target)} | ${cell(row.measured)} | ${row.pass === null ? "—" : row.pass ? "yes" : "**no**"} | \`${cell(row.command)}\` |`,
      ),
    ),
  ];
  const rows = results.flatMap((r) => r.rows);
  const passed = rows.filter((r) => r.pass === true).length;
  const withTarget = rows.filter((r) => r.pass !== null).length;
  const cpu = cpus();
  lines.push(
    "",
    `${passed} of ${withTarget} targets met${withTarget < rows.length ? ` (${rows.length - withTarget} more row${rows.length - withTarget === 1 ? "" : "s"} reported for context, marked —)` : ""}.`,
    "",
    `Machine: ${cpu.length} CPU${cpu.length === 1 ? "" : "s"} (${cpu[0]?.model.trim() ?? "unknown"}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${process.platform} ${process.arch}, Node ${process.version}, ${process.env.DATABASE_URL?.startsWith("postgres") ? "PostgreSQL" : "SQLite"} unless a row says otherwise.`,
    `Date: ${when.toISOString()}. Modules: ${results.map((r) => `${r.module} ${r.seconds.toFixed(1)} s`).join(", ")}.`,
    `Load average (1 min): ${loadAtStart === undefined ? "" : `${loadAtStart.toFixed(1)} at the start, `}${loadavg()[0].toFixed(1)} at the end — on a shared machine, wall times above include the other processes' share.`,
  );
  return `${lines.join("\n")}\n`;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "--child") {
    const [, module, , dir, , resultFile] = argv;
    const result = await runModule(module, dir);
    writeFileSync(resultFile, JSON.stringify(result));
    return 0;
  }
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`usage: npm run bench [-- MODULE...]\nmodules: ${benchModules().join(", ") || "(none)"}\n`);
    return 0;
  }
  const available = benchModules();
  const { selected, unknown } = selectModules(available, argv);
  if (unknown.length) {
    process.stderr.write(
      `error: no benchmark module named ${unknown.map((u) => `"${u}"`).join(", ")} in scripts/bench/ (available: ${available.join(", ") || "none"})\n`,
    );
    return 2;
  }
  if (selected.length === 0) {
    process.stderr.write("error: no benchmark modules in scripts/bench/\n");
    return 1;
  }
  if (selected.some((m) => NEEDS_BUILD.includes(m))) {
    try {
      process.env.NEXT_DIST_DIR = ensureBuild();
    } catch (e) {
      process.stderr.write(`bench: ${errorText(e)}; the modules that serve the app will say so\n`);
    }
  }
  const loadAtStart = loadavg()[0];
  const results: ModuleResult[] = [];
  for (const module of selected) {
    process.stderr.write(`bench: ${module} …\n`);
    const r = runModuleIsolated(module);
    process.stderr.write(
      `bench: ${module} ${r.failed ? "FAILED" : "done"} in ${r.seconds.toFixed(1)} s${r.failed ? `: ${r.rows[0].measured}` : ""}\n`,
    );
    results.push(r);
  }
  const report = renderReport(results, new Date(), loadAtStart);
  process.stdout.write(`\n${report}`);
  const outDir = join(root, "bench-results");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, "latest.md"), report);
  process.stderr.write(`written to bench-results/latest.md\n`);
  return results.some((r) => r.failed) ? 1 : 0;
}

if (import.meta.filename === process.argv[1]) {
  // Modules may leave handles open (database pools, timers): exit once the report is written.
  process.exit(await main(process.argv.slice(2)));
}
