#!/usr/bin/env node
// The whole test suite, as the README and .ci/run call it (`npm test`):
//   1. type check, lint, format check, and a production build (integration tests that walk HTTP routes serve it);
//   2. unit and integration tests on SQLite;
//   3. the integration tests on PostgreSQL (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test);
//   4. browser tests (Debian's chromium) on SQLite, then on PostgreSQL.
// A stage that cannot run (no PostgreSQL server, no Chromium) fails with a message that says how
// to get it; ASSESSOR_SKIP_PG=1 / ASSESSOR_SKIP_E2E=1 skip a stage on purpose, and say so.
// When a test stage fails, the closing summary names its failed tests with the first lines of
// their errors (read from vitest's JSON report), so the end of a long log says what broke.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import net from "node:net";
import { stripVTControlCharacters } from "node:util";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
process.chdir(root);
const started = Date.now();
const summary = [];

function run(label, cmd, args, env = {}, report = null) {
  const t0 = Date.now();
  process.stderr.write(`\n=== ${label}\n`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  summary.push(`${r.status === 0 ? "ok  " : "FAIL"} ${label} (${seconds} s)`);
  if (r.status !== 0) {
    if (report) summary.push(...failedTests(report));
    finish(1);
  }
}

const reports = mkdtempSync(join(tmpdir(), "assessor-test-"));
let reportCount = 0;

/** A vitest stage: its usual output, and a JSON report the summary reads when the stage fails. */
function vitest(label, args, env) {
  const report = join(reports, `${++reportCount}.json`);
  run(
    label,
    bin("vitest"),
    [...args, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    env,
    report,
  );
}

/** The first `max` lines of an error, plain and indented, without the frames of node_modules and Node itself. */
function errorLines(text, max) {
  return stripVTControlCharacters(text)
    .split("\n")
    .filter((l) => !/node_modules|node:internal|<anonymous>/.test(l))
    .slice(0, max)
    .map((l) => `      ${l}`);
}

/**
 * The failed tests of a vitest JSON report, each with the first lines of its error, so that the
 * summary (the end of the log, which is what a CI page shows) says what failed and why.
 */
function failedTests(report) {
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(report, "utf8"));
  } catch {
    return ["     (no test report: the run stopped before vitest wrote it)"];
  }
  const lines = [];
  for (const file of parsed.testResults ?? []) {
    const name = relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    if (!failed.length && file.status === "failed") lines.push(`  x ${name}`, ...errorLines(file.message ?? "", 6));
    for (const t of failed)
      lines.push(`  x ${name} > ${t.fullName}`, ...errorLines((t.failureMessages ?? []).join("\n"), 12));
  }
  return lines.length > 150 ? [...lines.slice(0, 150), "      …"] : lines;
}

function finish(code) {
  process.stderr.write(`\n=== summary (${((Date.now() - started) / 1000).toFixed(0)} s)\n${summary.join("\n")}\n`);
  process.exit(code);
}

function reachable(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || 5432) });
    s.setTimeout(2000);
    s.on("connect", () => (s.destroy(), resolve(true)));
    s.on("error", () => resolve(false));
    s.on("timeout", () => (s.destroy(), resolve(false)));
  });
}

export function findChromium() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
  ].filter(Boolean);
  return candidates.find((p) => existsSync(p));
}

if (!existsSync(join(root, "node_modules"))) {
  console.error("node_modules is missing: run `npm ci` first (the README's test command does).");
  process.exit(1);
}

run("typecheck (tsc --noEmit)", bin("tsc"), ["--noEmit"]);
run("lint (eslint)", bin("eslint"), ["--max-warnings", "0", "."]);
run("format (prettier --check)", bin("prettier"), ["--check", "."]);
run("next build", bin("next"), ["build"], { NEXT_TELEMETRY_DISABLED: "1" });
vitest("unit + integration on SQLite", ["run"], { TEST_DATABASE_URL: "" });

const pgUrl = process.env.TEST_DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/test";
let pgOk = false;
if (process.env.ASSESSOR_SKIP_PG === "1") summary.push("skip integration on PostgreSQL (ASSESSOR_SKIP_PG=1)");
else if (!(await reachable(pgUrl))) {
  console.error(
    `PostgreSQL is not reachable at ${pgUrl}. Start it (Debian: apt-get install -y postgresql && pg_ctlcluster 15 main start), set TEST_DATABASE_URL, or set ASSESSOR_SKIP_PG=1 to skip this stage.`,
  );
  summary.push("FAIL integration on PostgreSQL: server not reachable");
  finish(1);
} else {
  pgOk = true;
  vitest("unit + integration on PostgreSQL", ["run", "tests/integration"], { TEST_DATABASE_URL: pgUrl });
}

if (process.env.ASSESSOR_SKIP_E2E === "1") summary.push("skip browser tests (ASSESSOR_SKIP_E2E=1)");
else {
  const chromium = findChromium();
  if (!chromium) {
    console.error(
      "No Chromium found for the browser tests. Install Debian's: apt-get update && apt-get install -y chromium (or set CHROMIUM_PATH), or set ASSESSOR_SKIP_E2E=1 to skip them.",
    );
    summary.push("FAIL browser tests: no chromium");
    finish(1);
  }
  vitest("browser tests on SQLite", ["run", "--config", "vitest.e2e.config.ts"], {
    CHROMIUM_PATH: chromium,
    TEST_DATABASE_URL: "",
  });
  if (pgOk)
    vitest("browser tests on PostgreSQL", ["run", "--config", "vitest.e2e.config.ts"], {
      CHROMIUM_PATH: chromium,
      TEST_DATABASE_URL: pgUrl,
    });
}
finish(0);
