/**
 * Annotators benchmark (`npm run bench -- annotators`): the Annotators card's and the ability
 * model's targets, in a temporary SQLite database seeded with bulk inserts (lib/db/bulk.ts): a
 * project of 50 annotators and 100,000
 * judgements (500 questions × 100 pooled items, two annotators an item, each annotator with a bias
 * and a reliability of their own; disagreements are disputed and most of them adjudicated).
 * - The Annotators card's main request (lib/annotators/routes.ts annotatorsCard without `part`, what
 *   GET /api/dashboard/[projectId]/annotators returns for the card, with the card's default
 *   3 s threshold and no judge: everything but the ability model, which the card asks for apart
 *   with `part=model`) after a label change (scripts/bench/_seeded.ts changeFinalLabel), in a
 *   process that served the card before (the first request, which loads the dashboard's data
 *   from nothing, is timed apart as the cold one): the items come from the dashboard's data,
 *   which re-reads only the changed judgements (lib/annotators/items.ts), and the agreement cells
 *   and leniencies are remembered by their exact input (lib/stats/annotators.ts), so only the
 *   changed annotators' are computed again. Target ≤ 300 ms.
 * - The annotator-ability model (lib/stats/annotators-model.ts abilityModel as the report and the
 *   card's `part=model` call it: Dawid–Skene fitted with SQUAREM on the distinct answer patterns,
 *   intervals from the question-clustered sandwich) on the same items, built as the CLI's report
 *   builds them (lib/annotators/items.ts itemsFromLabels). Target ≤ 2 s.
 * Each is timed in a child process of its own, up to RUNS times (median reported); when the runs
 * take longer than BUDGET_MS in all, fewer are timed, and the row says how many. The child is
 * stopped after CAP_MS: a run not finished by then is reported as "> CAP_MS, not finished" (a
 * missed target); the model's row adds its EM steps and how its intervals were made.
 */
import { randomUUID } from "node:crypto";
import { spawnSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import type { Db } from "../../lib/db/client.ts";
import type { TAnnotatedItem } from "../../lib/stats/annotators.ts";
import type { TBenchRow } from "./index.ts";
import { changeFinalLabel, tempSqlite } from "./_seeded.ts";
import { median } from "./_median.ts";

const COMMAND = "npm run bench -- annotators";
const root = join(import.meta.dirname, "..", "..");

export const SIZE = { annotators: 50, queries: 500, itemsPerQuery: 100, chunks: 10_000, videos: 50 };
/** Share of disputed items the adjudicator has decided (the rest wait for adjudication). */
const ADJUDICATED = 0.9;
const RUNS = 5;
/** Time allowed for one measurement's repeated runs (at least one run is always timed). */
const BUDGET_MS = 30_000;
/** A measurement's child process is stopped after this long (runs not finished by then are not counted). */
const CAP_MS = 90_000;

const fmt = (t: number) =>
  t >= 7_200_000
    ? `${(t / 3_600_000).toFixed(1)} h`
    : t >= 300_000
      ? `${(t / 60_000).toFixed(0)} min`
      : t >= 10_000
        ? `${(t / 1000).toFixed(1)} s`
        : `${t.toFixed(0)} ms`;
const load = () => `load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`;

type Seeded = { projectId: number; judgements: number; items: number; adjudicated: number; disputed: number };

/** The project of the module comment; grades from a seeded generator, the same on every run. */
export async function seedAnnotators(db: Db): Promise<Seeded> {
  const [{ bulkTransaction }, { sqliteNow }, { seededRng }, { defaultChunkingId }] = await Promise.all([
    import("../../lib/db/bulk.ts"),
    import("../../lib/db/dialect.ts"),
    import("../../lib/stats/random.ts"),
    import("../../lib/chunkings/store.ts"),
  ]);
  const project = await db.project.create({ data: { name: `bench-annotators-${Date.now()}` } });
  const pid = project.id;
  const users: string[] = [];
  for (let i = 0; i < SIZE.annotators; i++)
    users.push(
      (
        await db.user.create({
          data: {
            email: `bench-ann${i}-${pid}@example.org`,
            name: `Annotator ${i}`,
            role: "annotator",
            passwordHash: "x",
          },
          select: { id: true },
        })
      ).id,
    );
  const adjudicator = (
    await db.user.create({
      data: { email: `bench-adj-${pid}@example.org`, name: "Adjudicator", role: "adjudicator", passwordHash: "x" },
      select: { id: true },
    })
  ).id;
  const chunkingId = await defaultChunkingId(db, pid);
  const rng = seededRng(35);
  // Each annotator's habits: reliability (chance of the true grade) 0.55–0.95; bias −0.4…+0.4, the
  // lean of their errors (chance of erring upwards 0.5 + bias: lenient when positive).
  const habits = users.map(() => ({ reliability: 0.55 + 0.4 * rng.next(), bias: 0.8 * rng.next() - 0.4 }));
  const gradeBy = (a: number, truth: number) => {
    const h = habits[a];
    if (rng.next() < h.reliability) return truth;
    const step = rng.next() < 0.5 + h.bias ? 1 : -1;
    const g = truth + step * (rng.next() < 0.15 ? 2 : 1);
    return Math.max(0, Math.min(3, g));
  };
  const chunkStart = (c: number) => Math.floor(c / SIZE.videos) * 20;
  const result = { projectId: pid, judgements: 0, items: 0, adjudicated: 0, disputed: 0 };
  await bulkTransaction(db, async (tx) => {
    const now = tx.provider === "sqlite" ? sqliteNow() : new Date().toISOString();
    const ids = async (table: string) =>
      (await tx.all<{ id: number }>(`SELECT "id" FROM "${table}" WHERE "projectId" = ? ORDER BY "id"`, [pid])).map(
        (r) => Number(r.id),
      );
    await tx.insert(
      "Video",
      [
        { name: "projectId", type: "int" },
        { name: "externalId", type: "text" },
        { name: "title", type: "text" },
      ],
      SIZE.videos,
      (i) => [pid, `v${i}`, `Video ${i}`],
    );
    const videoIds = await ids("Video");
    await tx.insert(
      "Chunk",
      [
        { name: "projectId", type: "int" },
        { name: "chunkingId", type: "int" },
        { name: "externalId", type: "text" },
        { name: "videoId", type: "int" },
        { name: "startSeconds", type: "float" },
        { name: "endSeconds", type: "float" },
        { name: "text", type: "text" },
      ],
      SIZE.chunks,
      (i) => [
        pid,
        chunkingId,
        `c${String(i).padStart(5, "0")}`,
        videoIds[i % SIZE.videos],
        chunkStart(i),
        chunkStart(i) + 20,
        "",
      ],
    );
    const chunkIds = await ids("Chunk");
    await tx.insert(
      "Query",
      [
        { name: "projectId", type: "int" },
        { name: "externalId", type: "text" },
        { name: "text", type: "text" },
      ],
      SIZE.queries,
      (i) => [pid, `q${String(i).padStart(4, "0")}`, `question ${i}`],
    );
    const queryIds = await ids("Query");

    // Query q pools chunks (q·100 + k) mod 10,000, k < 100: distinct within a query.
    type Item = { id: string; q: number; c: number; disputed: boolean };
    const items: Item[] = [];
    const assignments: [string, string, number][] = [];
    const judgements: [string, string, number, number | null, number, string][] = [];
    const adjudications: [string, string, number, number | null][] = [];
    for (let q = 0; q < SIZE.queries; q++)
      for (let k = 0; k < SIZE.itemsPerQuery; k++) {
        const c = (q * SIZE.itemsPerQuery + k) % SIZE.chunks;
        const u = rng.next();
        const truth = u < 0.5 ? 0 : u < 0.75 ? 1 : u < 0.9 ? 2 : 3;
        const a = rng.int(SIZE.annotators);
        const b = (a + 1 + rng.int(SIZE.annotators - 1)) % SIZE.annotators;
        const it: Item = { id: randomUUID(), q: queryIds[q], c: chunkIds[c], disputed: false };
        const start = truth > 0 ? chunkStart(c) + 5 : null;
        const grades = [gradeBy(a, truth), gradeBy(b, truth)];
        [a, b].forEach((annotator, n) => {
          assignments.push([it.id, users[annotator], rng.next()]);
          const g = grades[n];
          judgements.push([
            it.id,
            users[annotator],
            g,
            g > 0 ? (start ?? chunkStart(c)) : null,
            5_000 + rng.int(55_000),
            `bench-${it.id}-${n}`,
          ]);
        });
        if (grades[0] !== grades[1]) {
          it.disputed = true;
          if (rng.next() < ADJUDICATED) adjudications.push([it.id, adjudicator, truth, start]);
        }
        items.push(it);
      }
    await tx.insert(
      "PoolItem",
      [
        { name: "id", type: "text" },
        { name: "projectId", type: "int" },
        { name: "queryId", type: "int" },
        { name: "chunkId", type: "int" },
        { name: "createdAt", type: "timestamp" },
        { name: "disputedAt", type: "timestamp" },
      ],
      items.length,
      (i) => [items[i].id, pid, items[i].q, items[i].c, now, items[i].disputed ? now : null],
    );
    await tx.insert(
      "Assignment",
      [
        { name: "poolItemId", type: "text" },
        { name: "userId", type: "text" },
        { name: "orderKey", type: "float" },
        { name: "createdAt", type: "timestamp" },
      ],
      assignments.length,
      (i) => [...assignments[i], now],
    );
    await tx.insert(
      "Judgement",
      [
        { name: "poolItemId", type: "text" },
        { name: "userId", type: "text" },
        { name: "grade", type: "int" },
        { name: "startSeconds", type: "float" },
        { name: "timeSpentMs", type: "int" },
        { name: "idempotencyKey", type: "text" },
        { name: "createdAt", type: "timestamp" },
        { name: "updatedAt", type: "timestamp" },
      ],
      judgements.length,
      (i) => [...judgements[i], now, now],
    );
    await tx.insert(
      "Adjudication",
      [
        { name: "poolItemId", type: "text" },
        { name: "adjudicatorId", type: "text" },
        { name: "grade", type: "int" },
        { name: "startSeconds", type: "float" },
        { name: "createdAt", type: "timestamp" },
      ],
      adjudications.length,
      (i) => [...adjudications[i], now],
    );
    result.items = items.length;
    result.judgements = judgements.length;
    result.adjudicated = adjudications.length;
    result.disputed = items.filter((it) => it.disputed).length;
  });
  return result;
}

/** The items the model is fitted on, built as the CLI's report builds them (pseudonymous names). */
export async function annotatedItems(db: Db, projectId: number): Promise<TAnnotatedItem[]> {
  const [{ loadItemLabels, ruleSettings }, { itemsFromLabels, pseudonym }] = await Promise.all([
    import("../../lib/labels/load.ts"),
    import("../../lib/annotators/items.ts"),
  ]);
  const [settings, items] = await Promise.all([ruleSettings(db, projectId), loadItemLabels(db, projectId)]);
  return itemsFromLabels(items, settings, (u) => pseudonym(projectId, u)).items;
}

type Measured = { times: number[]; cold: number | null; finished: boolean; note: string };

/**
 * Times `what` in a child process of its own (the same command run as `--measure`), up to RUNS
 * runs while they take less than BUDGET_MS in all; the child is stopped after CAP_MS, so a
 * computation far over its target cannot hold the bench for an hour. Each finished run's time
 * comes back as one line on the child's stdout.
 */
function measureInChild(what: "card" | "model", projectId: number): Measured {
  const r = spawnSync(
    process.execPath,
    ["--import", import.meta.resolve("tsx"), import.meta.filename, "--measure", what, String(projectId)],
    { cwd: root, stdio: ["ignore", "pipe", 2], env: process.env, timeout: CAP_MS, encoding: "utf8" },
  );
  const lines = (r.stdout ?? "").split("\n").map((l) => l.trim());
  const times = lines.filter((l) => /^[0-9.]+$/.test(l)).map(Number);
  const cold = lines.find((l) => /^cold [0-9.]+$/.test(l));
  const stopped = r.signal !== null || (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  if (!stopped && r.status !== 0) throw new Error(`measuring the ${what} failed (exit code ${r.status})`);
  return {
    times,
    cold: cold === undefined ? null : Number(cold.slice(5)),
    finished: times.length > 0,
    note: stopped ? `stopped after ${CAP_MS / 1000} s` : "",
  };
}

/**
 * The child's side of measureInChild: prints each run's milliseconds on a line of its own (and,
 * for the card, the first request's as `cold <ms>`).
 */
async function measureHere(what: string, projectId: number): Promise<void> {
  const { getDb } = await import("../../lib/db/client.ts");
  const db = await getDb();
  let run: (i: number) => Promise<number>;
  if (what === "card") {
    const { annotatorsCard, ZAnnotatorsQuery } = await import("../../lib/annotators/routes.ts");
    // The card's main request: its default threshold (AnnotatorsCard.tsx: 3 s), no judge on the page.
    const query = ZAnnotatorsQuery.parse({ fastSeconds: "3" });
    const card = async () => {
      const s = performance.now();
      const report = await annotatorsCard(db, String(projectId), query); // the route passes its path parameter
      const t = performance.now() - s;
      if (report instanceof Response || !("annotators" in report) || report.annotators.length === 0)
        throw new Error("the Annotators card returned no annotators");
      return t;
    };
    // The first request in the process loads the dashboard's data from nothing (a server's first).
    process.stdout.write(`cold ${await card()}\n`);
    run = async (i) => {
      await changeFinalLabel(db, projectId, i); // a final human label changes (scripts/bench/_seeded.ts)
      return card();
    };
  } else {
    const { abilityModel } = await import("../../lib/stats/annotators-model.ts");
    const items = await annotatedItems(db, projectId);
    run = async () => {
      const s = performance.now();
      const m = abilityModel(items);
      const t = performance.now() - s;
      if (!m) throw new Error("the ability model returned nothing");
      return t;
    };
  }
  let spent = 0;
  for (let i = 0; i < RUNS && (i === 0 || spent < BUDGET_MS); i++) {
    const t = await run(i);
    process.stdout.write(`${t}\n`);
    spent += t;
  }
}

const measuredText = (m: Measured, extra: string) =>
  m.finished
    ? `${fmt(median(m.times))} (median of ${m.times.length}${m.times.length < RUNS ? ` (runs stop after ${BUDGET_MS / 1000} s in all${m.note ? `, ${m.note}` : ""})` : ""}, in order: ${m.times.map(fmt).join(", ")}; ${extra})`
    : `> ${CAP_MS / 1000} s: not finished, ${m.note} (${extra})`;

/** What the model's row says of the fit: its EM steps and how its intervals were made (or why there are none). */
async function modelFacts(items: TAnnotatedItem[]): Promise<string> {
  const { abilityModel } = await import("../../lib/stats/annotators-model.ts");
  const fit = abilityModel(items);
  return fit ? `${fit.iterations} EM steps; ${fit.intervals}` : "no fit";
}

export async function bench(): Promise<TBenchRow[]> {
  const { db, done } = await tempSqlite("assessor-bench-annotators-");
  try {
    const t0 = performance.now();
    const seeded = await seedAnnotators(db);
    const seedMs = performance.now() - t0;
    const { projectId } = seeded;
    const scale = `${SIZE.annotators} annotators, ${seeded.judgements.toLocaleString("en")} judgements on ${seeded.items.toLocaleString("en")} items of ${SIZE.queries} questions, ${seeded.disputed.toLocaleString("en")} disputed, ${seeded.adjudicated.toLocaleString("en")} adjudicated; seeded in ${(seedMs / 1000).toFixed(1)} s`;
    const card = measureInChild("card", projectId);
    const model = measureInChild("model", projectId);
    const items = await annotatedItems(db, projectId);
    const facts = await modelFacts(items);
    return [
      {
        name: `Annotators card's main request after a label change (lib/annotators/routes.ts annotatorsCard without part=model, as GET /api/dashboard/[projectId]/annotators; everything but the ability model, which the card asks for apart; ${scale}; SQLite)`,
        target: "≤ 300 ms",
        measured: measuredText(
          card,
          `a label change before each run, in a process that served the card once before: that first, cold request ${card.cold === null ? "not finished" : fmt(card.cold)}; ${load()}`,
        ),
        pass: card.finished && median(card.times) <= 300,
        command: COMMAND,
      },
      {
        name: `annotator-ability model (lib/stats/annotators-model.ts abilityModel: Dawid–Skene with SQUAREM on distinct answer patterns, question-clustered sandwich intervals, as the report calls it) on the same ${items.length.toLocaleString("en")} items`,
        target: "≤ 2 s",
        measured: measuredText(model, `${load()}; ${facts}`),
        pass: model.finished && median(model.times) <= 2000,
        command: COMMAND,
      },
    ];
  } finally {
    await done();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === "--measure") await measureHere(process.argv[3], Number(process.argv[4]));
  else for (const r of await bench()) console.log(JSON.stringify(r));
  process.exit(0);
}
