/**
 * The annotator's queue at scale, against the production server (`next start`)
 * on a fresh SQLite database in a temp dir. One annotator has 100,000 assigned items in one project
 * (2,000 questions × 50 items, written with bulk SQL), the first 40,000 of them graded, and 10 items
 * in a second project (so the page shows the project picker).
 *
 * 1. Queue API: GET /api/annotate/queue?projectId= (the page from the first ungraded item), a page
 *    after a cursor in the middle, a page before it, and GET /api/annotate/projects; per call the
 *    response size and the median time of 15 calls (after 3 not counted). Target: ≤ 50 KB per call.
 * 2. Time to first item in headless Chromium: a signed-in annotator opens /annotate; an init script
 *    records performance.now() (from navigation start) when the first item (<article data-item-id>,
 *    which comes with the server's HTML) is in the DOM and after the next animation frame (painted),
 *    and when it is ready for keys (<article data-ready>: the page is hydrated). Median of 5 loads
 *    (after 1 not counted). Target: ≤ 300 ms to the item painted.
 *
 * Needs a production build: NEXT_DIST_DIR (default .next-bench, else .next) with a BUILD_ID.
 * Run alone: NEXT_DIST_DIR=.next-bench npx tsx scripts/bench/queue.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { productionBuild, withNextDist } from "./_app.ts";
import type { TBenchRow } from "./index.ts";
import { median } from "./_median.ts";

const QUESTIONS = 2_000;
const PER_QUESTION = 50;
const GRADED = 40_000;
const PASSWORD = "bench-password";

/** The database: users through the app's own function, everything else with bulk SQL (recursive CTEs). */
export async function seed(dir: string): Promise<{ email: string; projectId: number; middle: string }> {
  const file = join(dir, "bench.db");
  process.env.DATABASE_URL = `file:${file}`;
  const { migrate } = await import("../../lib/db/migrate.ts");
  await migrate();
  const { getDb, closeDb } = await import("../../lib/db/client.ts");
  const { createUser } = await import("../../lib/users/users.ts");
  const { sqliteNow } = await import("../../lib/db/dialect.ts");
  const db = await getDb();
  const email = "queue-bench@example.org";
  const user = await createUser(db, { email, name: "Queue Bench", role: "annotator", password: PASSWORD });
  await closeDb();

  const { default: Database } = await import("better-sqlite3");
  const conn = new Database(file);
  const now = sqliteNow();
  const uuid = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
  const seq = (n: number) => `WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM s WHERE n + 1 < ${n})`;
  conn.exec("BEGIN");
  const projects: number[] = [];
  for (const [name, questions, per] of [
    ["Large collection", QUESTIONS, PER_QUESTION],
    ["Small collection", 2, 5],
  ] as const) {
    const projectId = Number(
      conn.prepare(`INSERT INTO "Project" ("name", "guidelines", "createdAt") VALUES (?, '', ?)`).run(name, now)
        .lastInsertRowid,
    );
    projects.push(projectId);
    const chunkingId = Number(
      conn
        .prepare(
          `INSERT INTO "Chunking" ("projectId", "name", "method", "createdAt") VALUES (?, 'default', 'imported', ?)`,
        )
        .run(projectId, now).lastInsertRowid,
    );
    const videoId = Number(
      conn
        .prepare(
          `INSERT INTO "Video" ("projectId", "externalId", "title", "path", "durationSeconds") VALUES (?, 'v1', 'Bench video', 'demo/media/bm25.mp4', 92)`,
        )
        .run(projectId).lastInsertRowid,
    );
    conn
      .prepare(
        `${seq(per)} INSERT INTO "Chunk" ("projectId", "chunkingId", "externalId", "videoId", "startSeconds", "endSeconds", "text") SELECT ?, ?, 'c' || n, ?, (n % 18) * 5, (n % 18) * 5 + 10, 'Chunk ' || n || ': the speaker explains a part of the ranking function in some detail.' FROM s`,
      )
      .run(projectId, chunkingId, videoId);
    conn
      .prepare(
        `${seq(questions)} INSERT INTO "Query" ("projectId", "externalId", "text") SELECT ?, 'q' || n, 'Question ' || n || ': what does the speaker say about this part of the method, and why does it matter?' FROM s`,
      )
      .run(projectId);
    conn
      .prepare(
        `INSERT INTO "PoolItem" ("id", "projectId", "queryId", "chunkId", "createdAt") SELECT ${uuid}, q."projectId", q."id", c."id", ? FROM "Query" q JOIN "Chunk" c ON c."projectId" = q."projectId" WHERE q."projectId" = ?`,
      )
      .run(now, projectId);
    conn
      .prepare(
        `INSERT INTO "Assignment" ("poolItemId", "userId", "orderKey", "calibration", "createdAt") SELECT p."id", ?, abs(random()) / 9223372036854775807.0, 0, ? FROM "PoolItem" p WHERE p."projectId" = ? ORDER BY p."queryId", p."chunkId"`,
      )
      .run(user.id, now, projectId);
  }
  // The first GRADED items of the large project, in the annotator's order, are graded.
  conn
    .prepare(
      `INSERT INTO "Judgement" ("poolItemId", "userId", "grade", "flags", "notes", "idempotencyKey", "createdAt", "updatedAt")
       SELECT a."poolItemId", a."userId", 1, '[]', '', 'bench-' || a."id", ?, ? FROM "Assignment" a JOIN "PoolItem" p ON p."id" = a."poolItemId"
       WHERE a."userId" = ? AND p."projectId" = ? ORDER BY p."queryId", a."orderKey", a."id" LIMIT ?`,
    )
    .run(now, now, user.id, projects[0], GRADED);
  conn.exec("COMMIT");
  conn.exec("ANALYZE");
  const middle = conn
    .prepare(
      `SELECT a."poolItemId" AS id FROM "Assignment" a JOIN "PoolItem" p ON p."id" = a."poolItemId" WHERE a."userId" = ? AND p."projectId" = ? ORDER BY p."queryId", a."orderKey", a."id" LIMIT 1 OFFSET 70000`,
    )
    .get(user.id, projects[0]) as { id: string };
  const count = conn.prepare(`SELECT COUNT(*) AS n FROM "Assignment" WHERE "userId" = ?`).get(user.id) as { n: number };
  conn.close();
  if (count.n !== QUESTIONS * PER_QUESTION + 10)
    throw new Error(`seeded ${count.n} assignments, expected ${QUESTIONS * PER_QUESTION + 10}`);
  return { email, projectId: projects[0], middle: middle.id };
}

async function timed(url: string, cookie: string): Promise<{ bytes: number; ms: number; status: number }> {
  const times: number[] = [];
  let bytes = 0;
  let status = 0;
  for (let i = 0; i < 18; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { Cookie: cookie } });
    const body = await res.arrayBuffer();
    const ms = performance.now() - t0;
    status = res.status;
    bytes = body.byteLength;
    if (i >= 3) times.push(ms);
  }
  return { bytes, ms: median(times), status };
}

type TMark = { dom: number; painted: number; ready: number };

async function firstItem(url: string, email: string): Promise<TMark[]> {
  const { launchBrowser } = await import("../../tests/helpers/server.ts");
  const { loginAs } = await import("../../tests/helpers/login.ts");
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await loginAs(page, url, email, PASSWORD);
    await page.addInitScript(() => {
      const w = window as unknown as { __first?: { dom: number; painted: number; ready: number } };
      new MutationObserver((_, obs) => {
        if (!w.__first && document.querySelector("article[data-item-id]")) {
          const dom = performance.now();
          w.__first = { dom, painted: dom, ready: 0 };
          requestAnimationFrame(() => w.__first && (w.__first.painted = performance.now()));
        }
        if (w.__first && !w.__first.ready && document.querySelector("article[data-ready]")) {
          w.__first.ready = performance.now();
          obs.disconnect();
        }
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    const marks: TMark[] = [];
    for (let i = 0; i < 6; i++) {
      await page.goto(`${url}/annotate`);
      await page.waitForFunction(
        () => {
          const f = (window as unknown as { __first?: TMark }).__first;
          return f !== undefined && f.painted !== f.dom && f.ready > 0;
        },
        undefined,
        { timeout: 30_000 },
      );
      const m = await page.evaluate(() => ({ ...(window as unknown as { __first: TMark }).__first }));
      if (i > 0) marks.push(m);
    }
    return marks;
  } finally {
    await browser.close();
  }
}

export async function bench(): Promise<TBenchRow[]> {
  const dist = productionBuild(".next-bench");
  const dir = mkdtempSync(join(tmpdir(), "assessor-bench-queue-"));
  const { startServer } = await import("../../tests/helpers/server.ts");
  const { apiSession } = await import("../../tests/helpers/login.ts");
  return withNextDist(dist, async () => {
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const t0 = performance.now();
      const { email, projectId, middle } = await seed(dir);
      const seedSeconds = (performance.now() - t0) / 1000;
      server = await startServer({ DATABASE_URL: process.env.DATABASE_URL, ASSESSOR_DASHBOARD_WARMUP: "0" });
      const cookie = await apiSession(server.url, email, PASSWORD);
      const base = `${server.url}/api/annotate`;
      const calls = [
        ["first page (from the first ungraded item)", `${base}/queue?projectId=${projectId}`],
        ["page after a cursor", `${base}/queue?projectId=${projectId}&after=${middle}`],
        ["page before a cursor", `${base}/queue?projectId=${projectId}&before=${middle}`],
        ["projects (picker counts)", `${base}/projects`],
      ] as const;
      const api: { what: string; bytes: number; ms: number; status: number }[] = [];
      for (const [what, url] of calls) api.push({ what, ...(await timed(url, cookie)) });
      const marks = await firstItem(server.url, email);
      const firstDom = median(marks.map((m) => m.dom));
      const firstPaint = median(marks.map((m) => m.painted));
      const firstReady = median(marks.map((m) => m.ready));
      const maxBytes = Math.max(...api.map((a) => a.bytes));
      const cmd = `NEXT_DIST_DIR=${dist} npx tsx scripts/bench/queue.ts`;
      const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
      return [
        {
          name: `queue: API response per call, annotator with ${(QUESTIONS * PER_QUESTION).toLocaleString("en")} assigned items (${GRADED.toLocaleString("en")} graded) + 10 in a second project`,
          target: "≤ 50 KB per call",
          measured: api.map((a) => `${a.what} ${kb(a.bytes)}`).join("; "),
          pass: maxBytes <= 50 * 1024 && api.every((a) => a.status === 200),
          command: cmd,
        },
        {
          name: "queue: API time per call (median of 15, server warm)",
          target: "(context)",
          measured: `${api.map((a) => `${a.what} ${a.ms.toFixed(1)} ms`).join("; ")}; seeding ${seedSeconds.toFixed(1)} s`,
          pass: null,
          command: cmd,
        },
        {
          name: "queue: /annotate opened → first item shown (headless Chromium, from navigation start)",
          target: "≤ 300 ms",
          measured: `median ${firstPaint.toFixed(0)} ms painted (${firstDom.toFixed(0)} ms in DOM; keys work at ${firstReady.toFixed(0)} ms, hydrated), loads: ${marks.map((m) => m.painted.toFixed(0)).join(", ")} ms; load avg ${loadavg()[0].toFixed(1)}`,
          pass: firstPaint <= 300,
          command: cmd,
        },
      ];
    } finally {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await bench())
    console.log(
      `${row.name}\n  target ${row.target}: ${row.measured} → ${row.pass === null ? "context" : row.pass ? "pass" : "FAIL"}`,
    );
}
