#!/usr/bin/env node
// `npm run demo`: loads the demo project into a fresh database and serves the app.
//
//   1. database: SQLite at data/assessor.db by default — an existing file is moved aside to
//      data/assessor.db.<time>.bak, so every run starts fresh and nothing is lost. With
//      DATABASE_URL set (PostgreSQL or another SQLite file) that database is used as it is and
//      must not already hold a project named "demo".
//   2. through the CLI, as a user would: migrate; project "demo" (first, so a second load into
//      the same database stops before writing anything); four users (printed logins); videos,
//      transcripts (chunked 20 s with 5 s overlap), queries, three runs, judge labels; pool
//      (depth 5) and assignment to the two annotators (2 per item, fixed seed); then sample
//      labels (scripts/demo/seed-labels.ts): questions q01–q08 graded by both annotators and
//      their disagreements adjudicated, so the dashboard has numbers on first start, while
//      q09–q12 are left for ann1 and ann2 to try; then a second chunking of the same videos
//      (c40o0: 40 s windows without overlap) with the same three systems' runs
//      (demo/runs/c40o0/, system names `<system>@c40o0`), the transfer judge
//      `transfer:default->c40o0` (`assessor chunking transfer`) and a small audit of it: the top
//      chunk of hybrid-rrf@c40o0 for every question pooled, assigned to both annotators, and graded
//      for q01–q08 by the same sample-label script, so the Chunkings card has numbers (with PPI)
//      on first start; then the generated answers of two generator configurations (demo/answers/,
//      lib/answers/demo.ts): gen-a from hybrid-rrf's top 3 chunks, gen-b from vector's top
//      chunk, q01–q08 labelled by both annotators (one disagreement adjudicated) and every answer by
//      the answer judge, so the Generation section has numbers too; then a decision (hybrid-rrf vs
//      bm25 on nDCG@10, lib/decisions) with a first batch drawn among q09–q12, for the Decisions card.
//   3. unless DEMO_NO_SERVE=1: `next build` when there is no production build newer than the
//      sources (in NEXT_DIST_DIR, default .next), then `next start` on http://127.0.0.1:3000,
//      this machine only since the logins are printed (DEMO_HOST=0.0.0.0 for every interface,
//      DEMO_PORT for another port; scripts/demo/address.mjs) with NEXTAUTH_URL to match and
//      NEXTAUTH_SECRET generated once into data/.secret (or taken from the environment).
//
// The demo's files are in demo/ (media made once by scripts/make-demo-media.sh; runs and judge
// labels by scripts/demo/make-runs.ts). Needs no network and no tool beyond `npm ci`.
/* global fetch */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { demoAddress } from "./demo/address.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root);

const PROJECT = "demo";
const POOL_DEPTH = 5;
const PER_ITEM = 2;
const CHUNK_SECONDS = 20;
const OVERLAP_SECONDS = 5;
const address = demoAddress();
const port = address.port;

/** Fixed demo passwords: this is sample data on a local machine, printed on purpose. */
const DEMO_USERS = [
  { email: "lead@example.com", name: "Lee Lead", role: "lead", password: "demo-lead" },
  { email: "adjudicator@example.com", name: "Ada Adjudicator", role: "adjudicator", password: "demo-adjudicator" },
  { email: "ann1@example.com", name: "Ann One", role: "annotator", password: "demo-ann1" },
  { email: "ann2@example.com", name: "Ann Two", role: "annotator", password: "demo-ann2" },
];
const annotators = DEMO_USERS.filter((u) => u.role === "annotator").map((u) => u.email);

const SYSTEMS = [
  { name: "vector", file: "demo/runs/vector.trec" },
  { name: "bm25", file: "demo/runs/bm25.trec" },
  { name: "hybrid-rrf", file: "demo/runs/hybrid-rrf.trec" },
];
/** Must match scripts/demo/make-runs.ts SECOND_CHUNKING. The chunking of the first import is "default". */
const SECOND_CHUNKING = { name: "c40o0", seconds: 40, overlap: 0 };
const SECOND_SYSTEMS = SYSTEMS.map((s) => ({
  name: `${s.name}@${SECOND_CHUNKING.name}`,
  file: `demo/runs/${SECOND_CHUNKING.name}/${s.name}.trec`,
}));
/** The audit of the transfer judge: this run's top chunk for every question. */
const AUDIT = { run: `hybrid-rrf@${SECOND_CHUNKING.name}`, depth: 1 };

const started = Date.now();
const seconds = (t0) => `${((Date.now() - t0) / 1000).toFixed(1)} s`;
const say = (line) => process.stdout.write(`${line}\n`);

function fail(message) {
  process.stderr.write(`\ndemo: ${message}\n`);
  process.exit(1);
}

/** Runs `assessor ARGS…` (this checkout's CLI); on error fails the demo with its message, unless check is false. */
function assessor(args, { input, check = true } = {}) {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [join(root, "bin", "assessor.mjs"), ...args], {
    input,
    encoding: "utf8",
    env: process.env,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) fail(`could not run the CLI: ${r.error.message}`);
  if (r.status !== 0) {
    if (check) fail(`\`assessor ${args.join(" ")}\` failed (exit ${r.status}):\n${(r.stderr || r.stdout).trim()}`);
    return r;
  }
  const outLines = r.stdout.trim().split("\n").filter(Boolean);
  const shown = outLines.length > 8 ? [...outLines.slice(0, 5), `… (${outLines.length - 5} more lines)`] : outLines;
  say(
    `  assessor ${args.join(" ")}  (${seconds(t0)})${shown.length ? `\n${shown.map((l) => `    ${l}`).join("\n")}` : ""}`,
  );
  return r;
}

function step(title, fn) {
  const t0 = Date.now();
  say(`\n▶ ${title}`);
  const result = fn();
  say(`  done in ${seconds(t0)}`);
  return result;
}

function demoFilesPresent() {
  const needed = [
    "demo/videos.jsonl",
    "demo/queries.jsonl",
    "demo/judge.jsonl",
    ...SYSTEMS.map((s) => s.file),
    ...SECOND_SYSTEMS.map((s) => s.file),
  ];
  for (const v of readJsonl("demo/videos.jsonl")) needed.push(v.path, `demo/transcripts/${v.id}.vtt`);
  const missing = needed.filter((f) => !existsSync(join(root, f)));
  if (missing.length)
    fail(
      `demo files are missing: ${missing.join(", ")} (they are committed in the repository; is this a full checkout?)`,
    );
}

function readJsonl(file) {
  return readFileSync(join(root, file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

// ---------------------------------------------------------------------------------------------
// 1. database

function prepareDatabase() {
  const url = process.env.DATABASE_URL?.trim();
  if (!url) {
    const file = join(root, "data", "assessor.db");
    mkdirSync(dirname(file), { recursive: true });
    if (existsSync(file)) {
      const stamp = new Date().toISOString().replace(/[:.]/g, "-");
      const backup = `${file}.${stamp}.bak`;
      renameSync(file, backup);
      for (const suffix of ["-wal", "-shm", "-journal"])
        if (existsSync(file + suffix)) renameSync(file + suffix, backup + suffix);
      say(`  moved the previous database aside to ${relative(root, backup)}`);
    }
    say(`  SQLite database: ${relative(root, file)}`);
  } else {
    say(`  database from DATABASE_URL: ${url.replace(/\/\/[^@/]*@/, "//…@")}`);
  }
  assessor(["migrate"]);
  const create = [
    "project",
    "create",
    PROJECT,
    "--pool-depth",
    String(POOL_DEPTH),
    "--annotators-per-item",
    String(PER_ITEM),
  ];
  const r = assessor(create, { check: false });
  if (r.status !== 0) {
    if (/already exists/.test(r.stderr))
      fail(
        `this database already has a project named "${PROJECT}": point DATABASE_URL at a fresh database, or unset it to use a fresh data/assessor.db`,
      );
    fail(`\`assessor ${create.join(" ")}\` failed (exit ${r.status}):\n${r.stderr.trim()}`);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. data

function createUsers() {
  for (const u of DEMO_USERS)
    assessor(["user", "add", "--email", u.email, "--name", u.name, "--role", u.role, "--password-stdin"], {
      input: `${u.password}\n`,
    });
}

function loadData() {
  const p = ["--project", PROJECT];
  assessor(["import", "videos", ...p, "demo/videos.jsonl"]);
  for (const v of readJsonl("demo/videos.jsonl"))
    assessor([
      "import",
      "transcript",
      ...p,
      "--video",
      v.id,
      "--chunk-seconds",
      String(CHUNK_SECONDS),
      "--overlap-seconds",
      String(OVERLAP_SECONDS),
      `demo/transcripts/${v.id}.vtt`,
    ]);
  assessor(["import", "queries", ...p, "demo/queries.jsonl"]);
  for (const s of SYSTEMS) assessor(["import", "run", ...p, "--system", s.name, s.file]);
  assessor(["import", "judge", ...p, "--judge", "gpt-judge", "demo/judge.jsonl"]);
}

function poolAndAssign() {
  const p = ["--project", PROJECT];
  assessor(["pool", ...p, "--depth", String(POOL_DEPTH)]);
  // A fixed seed: every demo gives each annotator the same order of items.
  assessor(["assign", ...p, "--per-item", String(PER_ITEM), "--annotators", annotators.join(","), "--seed", "1"]);
  assessor(["status", ...p]);
}

/** Part of the pool graded by both annotators and adjudicated (scripts/demo/seed-labels.ts). */
function sampleLabels() {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts", "demo", "seed-labels.ts")], {
    encoding: "utf8",
    env: process.env,
  });
  if (r.status !== 0) fail(`could not write the sample labels (exit ${r.status}):\n${(r.stderr || r.stdout).trim()}`);
  say(`  ${r.stdout.trim()}  (${seconds(t0)})`);
}

/** The second chunking, its runs, the transfer judge and its audit (see the file comment). */
function secondChunking() {
  const p = ["--project", PROJECT];
  const c = SECOND_CHUNKING;
  for (const v of readJsonl("demo/videos.jsonl"))
    assessor([
      "import",
      "transcript",
      ...p,
      "--video",
      v.id,
      "--chunking",
      c.name,
      "--chunk-seconds",
      String(c.seconds),
      "--overlap-seconds",
      String(c.overlap),
      `demo/transcripts/${v.id}.vtt`,
    ]);
  for (const s of SECOND_SYSTEMS) assessor(["import", "run", ...p, "--chunking", c.name, "--system", s.name, s.file]);
  assessor(["chunking", "transfer", ...p, "--from", "default", "--to", c.name]);
  assessor(["pool", ...p, "--runs", AUDIT.run, "--depth", String(AUDIT.depth)]);
  assessor(["assign", ...p, "--per-item", String(PER_ITEM), "--annotators", annotators.join(","), "--seed", "1"]);
  sampleLabels();
}

/** Generated answers of two configurations with people's and the judge's labels (scripts/demo/seed-answers.ts, lib/answers/demo.ts). */
function generatedAnswers() {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ["--import", "tsx", join(root, "scripts", "demo", "seed-answers.ts")], {
    encoding: "utf8",
    env: process.env,
  });
  if (r.status !== 0)
    fail(`could not write the generated answers (exit ${r.status}):\n${(r.stderr || r.stdout).trim()}`);
  say(`  ${r.stdout.trim()}  (${seconds(t0)})`);
}

/**
 * Decisions (lib/decisions): hybrid-rrf against bm25 on nDCG@10. q01–q08 are completely labelled
 * already; a first batch draws among q09–q12 (assigned to both annotators already, so nothing new
 * to grade): the Decisions card waits for their labels, and settles as ann1 and ann2 grade them.
 * And the two generators on faithfulness, with no batch drawn yet.
 */
function decision() {
  const p = ["--project", PROJECT];
  assessor([
    "decide",
    "create",
    "hybrid-vs-bm25",
    ...p,
    "--compare",
    "hybrid-rrf,bm25",
    "--measure",
    "ndcg@10",
    "--judge",
    "gpt-judge",
  ]);
  assessor([
    "assign",
    ...p,
    "--decision",
    "hybrid-vs-bm25",
    "--budget",
    "2",
    "--annotators",
    annotators.join(","),
    "--seed",
    "1",
  ]);
  // Between the two generators on faithfulness: q01–q08 are labelled already (certain), q09–q12
  // are left for the lead to draw from the card.
  assessor([
    "decide",
    "create",
    "gen-a-vs-gen-b",
    ...p,
    "--compare",
    "gen-a,gen-b",
    "--measure",
    "faithfulness",
    "--judge",
    "gpt-judge",
  ]);
}

function printLogins(url) {
  const width = Math.max(...DEMO_USERS.map((u) => u.email.length));
  say(`\nDemo logins${url ? ` for ${url}/login` : ""} (demo passwords — do not reuse):`);
  for (const u of DEMO_USERS) say(`  ${u.role.padEnd(12)} ${u.email.padEnd(width)}  password: ${u.password}`);
  say("Questions q01–q08 are already graded and adjudicated: the lead's Dashboard compares the judge and the");
  say(`three systems now, and its Chunkings card the two chunkings (default and ${SECOND_CHUNKING.name}).`);
  say("Try: grade q09–q12 as ann1 and ann2 (Annotate), settle their disagreements as the");
  say("adjudicator, and watch the dashboard change; `npx assessor export qrels` writes the labels.");
}

// ---------------------------------------------------------------------------------------------
// 3. serve

const SOURCE_DIRS = ["app", "components", "lib", "public", "prisma"];
const SOURCE_FILES = ["package.json", "package-lock.json", "next.config.js", "tsconfig.json", "postcss.config.mjs"];

function newestSourceTime() {
  let newest = 0;
  const visit = (path) => {
    let s;
    try {
      s = statSync(path);
    } catch {
      return;
    }
    if (s.isDirectory()) {
      if (path.endsWith(join("lib", "db", "generated"))) return; // regenerated by npm ci; follows the schema
      for (const name of readdirSync(path)) visit(join(path, name));
    } else newest = Math.max(newest, s.mtimeMs);
  };
  for (const d of SOURCE_DIRS) visit(join(root, d));
  for (const f of SOURCE_FILES) visit(join(root, f));
  return newest;
}

function ensureBuild(distDir) {
  const buildId = join(root, distDir, "BUILD_ID");
  if (existsSync(buildId) && statSync(buildId).mtimeMs >= newestSourceTime()) {
    say(`  the production build in ${distDir}/ is up to date`);
    return;
  }
  say(`  building the app into ${distDir}/ (next build; about a minute on 2 cores)…`);
  const r = spawnSync(process.execPath, [join(root, "node_modules", "next", "dist", "bin", "next"), "build"], {
    stdio: "inherit",
    env: nextEnv(),
  });
  if (r.status !== 0) fail(`next build failed (exit ${r.status})`);
}

/** The demo works offline: Next's anonymous telemetry stays off unless asked for. */
function nextEnv() {
  return { NEXT_TELEMETRY_DISABLED: "1", ...process.env };
}

function secret() {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = join(root, "data", ".secret");
  if (existsSync(file)) {
    const s = readFileSync(file, "utf8").trim();
    if (s) return s;
  }
  mkdirSync(dirname(file), { recursive: true });
  const s = randomBytes(32).toString("base64url");
  writeFileSync(file, `${s}\n`, { mode: 0o600 });
  say(`  generated NEXTAUTH_SECRET in data/.secret`);
  return s;
}

function serve(distDir) {
  const url = address.url;
  const child = spawn(
    process.execPath,
    [join(root, "node_modules", "next", "dist", "bin", "next"), ...address.nextArgs],
    {
      stdio: "inherit",
      env: {
        ...nextEnv(),
        NODE_ENV: "production",
        NEXT_DIST_DIR: distDir,
        NEXTAUTH_URL: url,
        NEXTAUTH_SECRET: secret(),
      },
    },
  );
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
  waitUntilUp(url).then((up) => {
    if (!up) return;
    printLogins(url);
    say(`\nAssessor is serving the demo at ${url}  (ready ${seconds(started)} after start; Ctrl+C to stop)`);
    say(
      address.everyInterface
        ? `Listening on every interface (DEMO_HOST=${address.host}): anyone who can reach this machine can sign in with the passwords above.`
        : `Listening on ${address.host} only${address.host === "127.0.0.1" ? " (this machine): DEMO_HOST=0.0.0.0 to open it to the network" : ""}.`,
    );
  });
}

/** True when nothing listens on the port yet (checked before a long build, not after). */
function portFree(p) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(p, address.host, () => srv.close(() => resolve(true)));
  });
}

async function waitUntilUp(url) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  process.stderr.write(`demo: the server did not answer at ${url} within 120 s\n`);
  return false;
}

// ---------------------------------------------------------------------------------------------

say("Assessor demo");
if (!existsSync(join(root, "node_modules"))) fail("node_modules is missing: run `npm ci` first");
demoFilesPresent();
const serving = process.env.DEMO_NO_SERVE !== "1";
// Checked first, so a busy port does not cost a load and a build before failing.
if (serving && !(await portFree(port)))
  fail(
    `port ${port} on ${address.host} is already in use: stop the other server, or pick another port (DEMO_PORT=3001 npm run demo)`,
  );
step(`Database and project "${PROJECT}"`, prepareDatabase);
step("Users", createUsers);
step("Videos, transcripts, queries, runs, judge labels", loadData);
step(`Pool (depth ${POOL_DEPTH}) and assignment (${PER_ITEM} annotators per item)`, poolAndAssign);
step("Sample labels: questions q01–q08 graded by ann1 and ann2, disagreements adjudicated", sampleLabels);
step(
  `Second chunking ${SECOND_CHUNKING.name} (${SECOND_CHUNKING.seconds} s, no overlap): runs, transfer judge, audit of q01–q08`,
  secondChunking,
);
step("Generated answers: gen-a (top 3 chunks) and gen-b (top chunk), q01–q08 labelled, judge on all", generatedAnswers);
step(
  "Decisions: hybrid-rrf vs bm25 on nDCG@10, with a first batch drawn among q09–q12; gen-a vs gen-b on faithfulness",
  decision,
);
say(`\nDemo data loaded in ${seconds(started)}.`);

if (!serving) {
  printLogins(null);
  say("\nDEMO_NO_SERVE=1: not starting the server.");
} else {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  step("Production build", () => ensureBuild(distDir));
  say(`\n▶ Starting the app (next ${address.nextArgs.join(" ")})`);
  serve(distDir);
}
