/**
 * The answer task, against the production server (`next start`) on a fresh SQLite
 * database in a temp dir: 300 generated answers of 8 claims each, 5 context chunks each, imported
 * with the real importer (`importAnswers`) and assigned to one annotator (`assignAnswers`).
 *
 * In headless Chromium the annotator opens /annotate/answers and labels answers by keyboard as a
 * person would: `s` on each of the 8 claims, then a relevance key (`2`), which submits and shows
 * the next answer. Timed in the page from the relevance key's keydown to the next answer's
 * <article data-answer-id> being in the DOM and painted (the next animation frame), over 40
 * answers after 3 not counted, with a short pause per answer (a person reads). Target: p95 ≤ 50 ms.
 * The labels are then checked in the database: every answer pressed is stored once.
 *
 * Needs a production build: NEXT_DIST_DIR (default .next-bench, else .next) with a BUILD_ID.
 * Run alone: NEXT_DIST_DIR=.next-bench npx tsx scripts/bench/answers.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { productionBuild, withNextDist } from "./_app.ts";
import type { TBenchRow } from "./index.ts";

const ANSWERS = 300;
const CLAIMS = 8;
const CONTEXT = 5;
const WARMUP = 3;
const TIMED = 40;
const PASSWORD = "bench-password";

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

async function seed(dir: string): Promise<{ email: string; projectId: number }> {
  process.env.DATABASE_URL = `file:${join(dir, "bench.db")}`;
  const { migrate } = await import("../../lib/db/migrate.ts");
  await migrate();
  const { getDb, closeDb } = await import("../../lib/db/client.ts");
  const { createUser } = await import("../../lib/users/users.ts");
  const { importAnswers } = await import("../../lib/answers/import.ts");
  const { assignAnswers } = await import("../../lib/answers/assign.ts");
  const db = await getDb();
  const email = "answers-bench@example.org";
  await createUser(db, { email, name: "Answer Bench", role: "annotator", password: PASSWORD });
  const project = await db.project.create({ data: { name: "Answers bench", annotatorsPerItem: 1 } });
  const chunking = await db.chunking.create({ data: { projectId: project.id, name: "default", method: "imported" } });
  const video = await db.video.create({
    data: {
      projectId: project.id,
      externalId: "bm25",
      title: "What is BM25",
      path: "demo/media/bm25.mp4",
      durationSeconds: 92,
    },
  });
  await db.chunk.createMany({
    data: Array.from({ length: 18 }, (_, i) => ({
      projectId: project.id,
      chunkingId: chunking.id,
      videoId: video.id,
      externalId: `c${i}`,
      startSeconds: i * 5,
      endSeconds: i * 5 + 10,
      text: `Chunk ${i}: the speaker explains how term frequency saturates and how document length is normalised in the ranking function.`,
    })),
  });
  await db.query.createMany({
    data: Array.from({ length: ANSWERS }, (_, i) => ({
      projectId: project.id,
      externalId: `q${i}`,
      text: `Question ${i}: how does BM25 treat a term that occurs many times in a long document?`,
    })),
  });
  const lines = Array.from({ length: ANSWERS }, (_, i) => {
    const answer = Array.from(
      { length: CLAIMS },
      (_, k) =>
        `Claim ${k + 1} of answer ${i} says that term frequency saturates with k1 near ${(1.2 + k / 10).toFixed(1)}.`,
    ).join(" ");
    const context = Array.from({ length: CONTEXT }, (_, k) => `c${(i + k) % 18}`);
    return JSON.stringify({ qid: `q${i}`, answer, context });
  });
  await importAnswers(
    db,
    project.id,
    { system: "bench-gen", fileName: "answers.jsonl", text: lines.join("\n") + "\n" },
    { chunking: "default" },
  );
  await assignAnswers(db, project.id, { perItem: 1 });
  const claims = await db.answerClaim.count({ where: { answer: { projectId: project.id } } });
  if (claims !== ANSWERS * CLAIMS) throw new Error(`seeded ${claims} claims, expected ${ANSWERS * CLAIMS}`);
  await closeDb();
  return { email, projectId: project.id };
}

type TMark = { key: number; dom: number; painted: number };

async function label(url: string, email: string, projectId: number): Promise<TMark[]> {
  const { launchBrowser } = await import("../../tests/helpers/server.ts");
  const { loginAs } = await import("../../tests/helpers/login.ts");
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await loginAs(page, url, email, PASSWORD);
    // Plain JavaScript text: a function passed from here would be compiled by tsx, whose helpers
    // (e.g. __name for a named arrow function) do not exist in the page.
    await page.addInitScript({
      content: `
        window.__marks = [];
        const current = () => document.querySelector("article[data-answer-id][data-ready]")?.getAttribute("data-answer-id") ?? null;
        window.addEventListener("keydown", (e) => {
          if (/^[0-3]$/.test(e.key)) window.__pending = { key: performance.now(), from: current() };
        }, true);
        new MutationObserver(() => {
          const p = window.__pending;
          const now = current();
          if (!p || now === null || now === p.from) return;
          window.__pending = undefined;
          const mark = { key: p.key, dom: performance.now(), painted: Number.NaN };
          window.__marks.push(mark);
          requestAnimationFrame(() => (mark.painted = performance.now()));
        }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-answer-id", "data-ready"] });
      `,
    });
    await page.goto(`${url}/annotate/answers?project=${projectId}`);
    await page.locator("article[data-answer-id][data-ready]").waitFor({ timeout: 30_000 });
    for (let n = 0; n < WARMUP + TIMED; n++) {
      const before = await page.locator("article[data-answer-id]").getAttribute("data-answer-id");
      await page.locator("h1").first().click(); // focus on the page, not a field
      for (let k = 0; k < CLAIMS; k++) await page.keyboard.press("s");
      await page.keyboard.press("2");
      await page.waitForFunction(
        (prev) =>
          document.querySelector("article[data-answer-id][data-ready]")?.getAttribute("data-answer-id") !== prev,
        before,
        { timeout: 30_000 },
      );
      await page.waitForTimeout(300);
    }
    await page.waitForFunction(
      (n) => (window as unknown as { __marks: TMark[] }).__marks.filter((m) => !Number.isNaN(m.painted)).length >= n,
      WARMUP + TIMED,
      { timeout: 30_000 },
    );
    await page.getByTestId("outbox").waitFor();
    return (await page.evaluate(() => (window as unknown as { __marks: TMark[] }).__marks)).slice(WARMUP);
  } finally {
    await browser.close();
  }
}

export async function bench(): Promise<TBenchRow[]> {
  const dist = productionBuild(".next-bench");
  const dir = mkdtempSync(join(tmpdir(), "assessor-bench-answers-"));
  const { startServer } = await import("../../tests/helpers/server.ts");
  return withNextDist(dist, async () => {
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      const { email, projectId } = await seed(dir);
      server = await startServer({ DATABASE_URL: process.env.DATABASE_URL, ASSESSOR_DASHBOARD_WARMUP: "0" });
      const load = loadavg()[0];
      const marks = await label(server.url, email, projectId);
      // Every answer pressed is stored once (the outbox drains in the background: wait for it).
      const { getDb, closeDb } = await import("../../lib/db/client.ts");
      const db = await getDb();
      let stored = 0;
      for (let i = 0; i < 100 && stored < WARMUP + TIMED; i++) {
        stored = await db.answerJudgement.count();
        if (stored < WARMUP + TIMED) await new Promise((r) => setTimeout(r, 100));
      }
      await closeDb();
      const painted = marks.map((m) => m.painted - m.key);
      const dom = marks.map((m) => m.dom - m.key);
      const cmd = `NEXT_DIST_DIR=${dist} npx tsx scripts/bench/answers.ts`;
      return [
        {
          name: `answers: relevance key → next answer task shown (headless Chromium, ${CLAIMS} claims, ${CONTEXT} context chunks, ${TIMED} answers; load ${load.toFixed(1)})`,
          target: "p95 ≤ 50 ms",
          measured: `painted median ${quantile(painted, 0.5).toFixed(1)} ms, p95 ${quantile(painted, 0.95).toFixed(1)} ms (in DOM median ${quantile(dom, 0.5).toFixed(1)}, p95 ${quantile(dom, 0.95).toFixed(1)} ms); ${stored} of ${WARMUP + TIMED} labels stored`,
          pass: quantile(painted, 0.95) <= 50 && stored === WARMUP + TIMED,
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
