#!/usr/bin/env node
// The whole test suite, as the README and .ci/run call it (`npm test`):
//   1. type check, lint, format check, and a production build (integration tests that walk HTTP routes serve it);
//   2. unit and integration tests on SQLite;
//   3. the integration tests on PostgreSQL (TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test);
//   4. browser tests (Debian's chromium) on SQLite, then on PostgreSQL.
// A stage that cannot run (no PostgreSQL server, no Chromium) fails with a message that says how
// to get it; ASSESSOR_SKIP_PG=1 / ASSESSOR_SKIP_E2E=1 skip a stage on purpose, and say so.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import net from "node:net";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);
const started = Date.now();
const summary = [];

function run(label, cmd, args, env = {}) {
  const t0 = Date.now();
  process.stderr.write(`\n=== ${label}\n`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  summary.push(`${r.status === 0 ? "ok  " : "FAIL"} ${label} (${seconds} s)`);
  if (r.status !== 0) finish(1);
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
const bin = (name) => join(root, "node_modules", ".bin", name);

run("typecheck (tsc --noEmit)", bin("tsc"), ["--noEmit"]);
run("lint (eslint)", bin("eslint"), ["--max-warnings", "0", "."]);
run("format (prettier --check)", bin("prettier"), ["--check", "."]);
run("next build", bin("next"), ["build"], { NEXT_TELEMETRY_DISABLED: "1" });
run("unit + integration on SQLite", bin("vitest"), ["run"], { TEST_DATABASE_URL: "" });

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
  run("unit + integration on PostgreSQL", bin("vitest"), ["run", "tests/integration"], { TEST_DATABASE_URL: pgUrl });
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
  run("browser tests on SQLite", bin("vitest"), ["run", "--config", "vitest.e2e.config.ts"], {
    CHROMIUM_PATH: chromium,
    TEST_DATABASE_URL: "",
  });
  if (pgOk)
    run("browser tests on PostgreSQL", bin("vitest"), ["run", "--config", "vitest.e2e.config.ts"], {
      CHROMIUM_PATH: chromium,
      TEST_DATABASE_URL: pgUrl,
    });
}
finish(0);
