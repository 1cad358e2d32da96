/**
 * Pooling and assignment benchmark: 500 queries × 10 runs × depth 20 on SQLite, target
 * pool + assign ≤ 5 s.
 *
 * Set-up (not measured), in a fresh SQLite file in a temp dir: one project, 500 queries, 100
 * candidate chunks per query (50,000 chunks), 10 runs each returning 50 of a query's candidates
 * with random scores (250,000 run entries; a fixed seed), 4 annotators. Seeded with plain
 * better-sqlite3 inserts in one transaction.
 * Measured: `buildPool(depth 20)` over all 10 runs (≈ 44,000 items and 100,000 provenance rows),
 * then `assign(perItem 2)` over the whole pool (≈ 89,000 assignments), as library calls in this
 * process — the work `assessor pool` and `assessor assign` do after start-up.
 *
 * Run alone: `npx tsx scripts/bench/pool.ts` (or `npm run bench -- pool`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const QUERIES = 500;
const RUNS = 10;
const DEPTH = 20;
const CANDIDATES = 100;
const PER_RUN = 50;
const ANNOTATORS = 4;
const TARGET_SECONDS = 5;

function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function seed(file: string): Promise<number> {
  const { default: Database } = await import("better-sqlite3");
  const conn = new Database(file);
  const now = new Date().toISOString().replace("Z", "+00:00");
  const random = rng(20261130);
  conn.exec("BEGIN");
  const projectId = Number(
    conn.prepare(`INSERT INTO "Project" ("name", "createdAt") VALUES ('bench', ?)`).run(now).lastInsertRowid,
  );
  const videoId = Number(
    conn
      .prepare(`INSERT INTO "Video" ("projectId", "externalId", "title") VALUES (?, 'v', 'bench video')`)
      .run(projectId).lastInsertRowid,
  );
  const chunkingId = Number(
    conn
      .prepare(
        `INSERT INTO "Chunking" ("projectId", "name", "method", "createdAt") VALUES (?, 'default', 'imported', ?)`,
      )
      .run(projectId, now).lastInsertRowid,
  );
  const insQuery = conn.prepare(`INSERT INTO "Query" ("projectId", "externalId", "text") VALUES (?, ?, ?)`);
  const insChunk = conn.prepare(
    `INSERT INTO "Chunk" ("projectId", "chunkingId", "externalId", "videoId", "startSeconds", "endSeconds", "text") VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insRun = conn.prepare(
    `INSERT INTO "Run" ("projectId", "chunkingId", "system", "contentHash", "createdAt") VALUES (?, ?, ?, ?, ?)`,
  );
  const insEntry = conn.prepare(
    `INSERT INTO "RunEntry" ("runId", "queryId", "chunkId", "rank", "score") VALUES (?, ?, ?, ?, ?)`,
  );
  const insUser = conn.prepare(
    `INSERT INTO "User" ("id", "email", "name", "role", "passwordHash", "active", "createdAt") VALUES (?, ?, ?, 'annotator', 'x', 1, ?)`,
  );
  const queryIds: number[] = [];
  const chunkIds: number[][] = [];
  for (let q = 0; q < QUERIES; q++) {
    queryIds.push(Number(insQuery.run(projectId, `q${q}`, `question ${q}`).lastInsertRowid));
    const ids: number[] = [];
    for (let c = 0; c < CANDIDATES; c++)
      ids.push(
        Number(insChunk.run(projectId, chunkingId, `d${q}_${c}`, videoId, c * 30, c * 30 + 30, "text").lastInsertRowid),
      );
    chunkIds.push(ids);
  }
  for (let r = 0; r < RUNS; r++) {
    const runId = Number(insRun.run(projectId, chunkingId, `system${r}`, `hash${r}`, now).lastInsertRowid);
    for (let q = 0; q < QUERIES; q++) {
      const pick = [...chunkIds[q]];
      for (let i = pick.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [pick[i], pick[j]] = [pick[j], pick[i]];
      }
      // Two-decimal scores: ties happen, as in real runs, and exercise the docid tie-break.
      const scored = pick.slice(0, PER_RUN).map((chunkId) => ({ chunkId, score: Math.round(random() * 100) / 100 }));
      scored.sort((a, b) => b.score - a.score);
      scored.forEach((s, i) => insEntry.run(runId, queryIds[q], s.chunkId, i + 1, s.score));
    }
  }
  for (let a = 0; a < ANNOTATORS; a++)
    insUser.run(`bench-annotator-${a}`, `annotator${a}@bench.example`, `Annotator ${a}`, now);
  conn.exec("COMMIT");
  conn.close();
  return projectId;
}

export async function bench() {
  const dir = mkdtempSync(join(tmpdir(), "assessor-bench-pool-"));
  const file = join(dir, "bench.db");
  const previous = process.env.DATABASE_URL;
  process.env.DATABASE_URL = `file:${file}`;
  try {
    const { migrate } = await import("../../lib/db/migrate.ts");
    await migrate();
    const projectId = await seed(file);
    const { getDb, closeDb } = await import("../../lib/db/client.ts");
    const { buildPool } = await import("../../lib/pooling/build.ts");
    const { assign } = await import("../../lib/assignment/assign.ts");
    const db = await getDb();
    try {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const pool = await buildPool(db, projectId, { depth: DEPTH });
      const t1 = performance.now();
      const assigned = await assign(db, projectId, { perItem: 2, seed: 1 });
      const t2 = performance.now();
      const seconds = (t2 - t0) / 1000;
      const cpu = process.cpuUsage(cpu0);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      const detail = `pool ${((t1 - t0) / 1000).toFixed(2)} s (${pool.totalItems.toLocaleString("en-US")} items, ${pool.newProvenance.toLocaleString("en-US")} provenance) + assign ${((t2 - t1) / 1000).toFixed(2)} s (${assigned.created.toLocaleString("en-US")} assignments); this process's CPU ${cpuSeconds.toFixed(2)} s`;
      return [
        {
          name: `pool + assign, ${QUERIES} queries × ${RUNS} runs × depth ${DEPTH} (SQLite)`,
          target: `≤ ${TARGET_SECONDS} s`,
          measured: `${seconds.toFixed(2)} s: ${detail}`,
          pass: seconds <= TARGET_SECONDS,
          command: "npm run bench -- pool",
        },
      ];
    } finally {
      await closeDb();
    }
  } finally {
    if (previous === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previous;
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await bench())
    console.log(`${row.name}: ${row.measured} (target ${row.target}) ${row.pass ? "pass" : "FAIL"}`);
}
