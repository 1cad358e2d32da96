import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { demoRunFiles } from "../../scripts/demo/make-runs.ts";
import { parseCaptions } from "../../lib/formats/captions.ts";
import { runCli } from "../helpers/cli.ts";

/**
 * `npm run demo` with DEMO_NO_SERVE=1 against a fresh test database (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL): everything the demo promises is in the database afterwards. Expected
 * numbers come from the committed demo files, read here independently of the importers.
 */
const root = join(import.meta.dirname, "..", "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const jsonl = <T>(path: string): T[] =>
  read(path)
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

const USERS = [
  { email: "lead@example.com", role: "lead", password: "demo-lead" },
  { email: "adjudicator@example.com", role: "adjudicator", password: "demo-adjudicator" },
  { email: "ann1@example.com", role: "annotator", password: "demo-ann1" },
  { email: "ann2@example.com", role: "annotator", password: "demo-ann2" },
];
const SYSTEMS = ["bm25", "vector", "hybrid-rrf"];
const POOL_DEPTH = 5;
/** The second chunking (scripts/demo.mjs SECOND_CHUNKING): runs in demo/runs/c40o0/, systems "<system>@c40o0"; its audit pools hybrid-rrf@c40o0's top 1. */
const SECOND = "c40o0";
const AUDIT = { system: "hybrid-rrf", depth: 1 };

function runDemo(env: Record<string, string>): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [join(root, "scripts", "demo.mjs")], {
    cwd: root,
    env: { ...process.env, ...env, DEMO_NO_SERVE: "1" },
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * The pool the demo should build, derived from the run files alone: per query, the union of each
 * run's first POOL_DEPTH lines in trec_eval's order (score descending, ties by docid descending).
 */
function expectedPool(): Set<string> {
  const pool = new Set<string>();
  const add = (file: string, depth: number) => {
    const byQuery = new Map<string, { docid: string; score: number }[]>();
    for (const line of read(file).split("\n").filter(Boolean)) {
      const [qid, , docid, , score] = line.split(/\s+/);
      byQuery.set(qid, [...(byQuery.get(qid) ?? []), { docid, score: Number(score) }]);
    }
    for (const [qid, rows] of byQuery) {
      rows.sort((a, b) => b.score - a.score || (a.docid < b.docid ? 1 : -1));
      for (const r of rows.slice(0, depth)) pool.add(`${qid} ${r.docid}`);
    }
  };
  for (const system of SYSTEMS) add(`demo/runs/${system}.trec`, POOL_DEPTH);
  // The audit of the transfer judge: the second chunking's chunk ids differ from the first's.
  add(`demo/runs/${SECOND}/${AUDIT.system}.trec`, AUDIT.depth);
  return pool;
}

describe("the demo's committed files", () => {
  it("match what scripts/demo/make-runs.ts makes from the transcripts with today's chunker", () => {
    const { files } = demoRunFiles();
    expect([...files.keys()].sort()).toEqual([
      "demo/judge.jsonl",
      "demo/runs/bm25.trec",
      `demo/runs/${SECOND}/bm25.trec`,
      `demo/runs/${SECOND}/hybrid-rrf.trec`,
      `demo/runs/${SECOND}/vector.trec`,
      "demo/runs/hybrid-rrf.trec",
      "demo/runs/vector.trec",
    ]);
    // A difference means the chunker or the inputs changed: run `npx tsx scripts/demo/make-runs.ts`.
    for (const [path, content] of files) expect(content, path).toBe(read(path));
  });

  it("are small, and every video's media and transcript exist", () => {
    const videos = jsonl<{ id: string; path: string; duration: number }>("demo/videos.jsonl");
    expect(videos.map((v) => v.id)).toEqual(["bm25", "rrf", "ndcg"]);
    let total = 0;
    for (const v of videos) {
      expect(existsSync(join(root, v.path)), v.path).toBe(true);
      expect(existsSync(join(root, "demo", "transcripts", `${v.id}.vtt`))).toBe(true);
      total += readFileSync(join(root, v.path)).length;
      expect(v.duration).toBeGreaterThan(60);
      expect(v.duration).toBeLessThan(95);
    }
    expect(total).toBeLessThan(4 * 1024 * 1024);
  });

  it("are H.264/AAC MP4 files whose transcripts end within the video", () => {
    for (const v of jsonl<{ id: string; path: string; duration: number }>("demo/videos.jsonl")) {
      const bytes = readFileSync(join(root, v.path));
      // ISO BMFF: the first box is "ftyp"; the sample descriptions name the codecs.
      expect(bytes.subarray(4, 8).toString("latin1"), v.path).toBe("ftyp");
      expect(bytes.includes(Buffer.from("avc1")), `${v.path} has H.264`).toBe(true);
      expect(bytes.includes(Buffer.from("mp4a")), `${v.path} has AAC`).toBe(true);
      const file = `demo/transcripts/${v.id}.vtt`;
      const { cues, errors } = parseCaptions(read(file), file, "vtt");
      expect(errors).toEqual([]);
      expect(cues.length).toBeGreaterThanOrEqual(12);
      expect(cues[cues.length - 1].end).toBeLessThanOrEqual(v.duration);
    }
  });

  it("give every query a reference start at the start of a spoken sentence of its video", () => {
    const queries = jsonl<{ id: string; start: number; video: string }>("demo/queries.jsonl");
    expect(queries).toHaveLength(12);
    for (const q of queries) {
      const file = `demo/transcripts/${q.video}.vtt`;
      const starts = parseCaptions(read(file), file, "vtt").cues.map((c) => c.start);
      // Starts are written to 0.1 s; a regenerated transcript with other timings fails here.
      expect(Math.min(...starts.map((s) => Math.abs(s - q.start))), q.id).toBeLessThan(0.1);
    }
  });
});

describe("where npm run demo listens", () => {
  it("checks its port on 127.0.0.1 (the interface it binds unless DEMO_HOST says otherwise) before loading anything", async () => {
    const { createServer } = await import("node:net");
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = String((busy.address() as { port: number }).port);
    try {
      const r = spawnSync(process.execPath, [join(root, "scripts", "demo.mjs")], {
        cwd: root,
        env: { ...process.env, DEMO_PORT: port, DEMO_NO_SERVE: "", DATABASE_URL: "file:/nonexistent/never-opened.db" },
        encoding: "utf8",
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(r.stdout).not.toContain("Database and project");
    } finally {
      busy.close();
    }
  });
});

describe("npm run demo with DEMO_NO_SERVE=1", () => {
  const testDb = useTestDatabase();
  let first: SpawnSyncReturns<string>;

  beforeAll(async () => {
    first = runDemo({ DATABASE_URL: testDb.url });
  }, 900_000);

  it("succeeds, says what it did, and prints the four logins with their passwords", () => {
    expect(first.stderr + first.stdout).not.toMatch(/demo: .*failed/);
    expect(first.status, first.stderr).toBe(0);
    for (const u of USERS)
      expect(first.stdout).toMatch(
        new RegExp(`${u.role}\\s+${u.email.replace(".", "\\.")}\\s+password: ${u.password}`),
      );
    expect(first.stdout).toContain("DEMO_NO_SERVE=1: not starting the server");
    expect(first.stdout).toMatch(/Demo data loaded in \d+\.\d s/);
  });

  it("creates the four users, whose printed passwords sign in", async () => {
    const { getDb } = await import("../../lib/db/client.ts");
    const { verifyCredentials } = await import("../../lib/users/users.ts");
    const db = await getDb();
    const users = await db.user.findMany({
      orderBy: { email: "asc" },
      select: { email: true, role: true, active: true },
    });
    expect(users).toEqual(
      [...USERS]
        .sort((a, b) => a.email.localeCompare(b.email))
        .map((u) => ({ email: u.email, role: u.role, active: true })),
    );
    for (const u of USERS) expect((await verifyCredentials(db, u.email, u.password)).ok, u.email).toBe(true);
  });

  it("loads 3 videos, 16 + 7 chunks in two chunkings, 12 queries with tags and reference starts, 3 + 3 runs, the judge labels and the transfer judge", async () => {
    const { getDb } = await import("../../lib/db/client.ts");
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { name: "demo" } });
    expect(project.poolDepth).toBe(POOL_DEPTH);
    expect(project.annotatorsPerItem).toBe(2);

    const videos = await db.video.findMany({ where: { projectId: project.id }, orderBy: { externalId: "asc" } });
    expect(videos.map((v) => [v.externalId, v.path])).toEqual([
      ["bm25", "demo/media/bm25.mp4"],
      ["ndcg", "demo/media/ndcg.mp4"],
      ["rrf", "demo/media/rrf.mp4"],
    ]);

    // 20 s windows every 15 s up to each transcript's last cue start (87.0, 68.7, 68.2 s):
    // 6 + 5 + 5 windows, none empty.
    const chunks = await db.chunk.findMany({
      where: { projectId: project.id, chunking: { name: "default" } },
      select: { externalId: true },
    });
    expect(chunks).toHaveLength(16);
    // c40o0: 40 s windows every 40 s up to the same last cue starts: 3 + 2 + 2.
    const second = await db.chunk.findMany({
      where: { projectId: project.id, chunking: { name: SECOND } },
      select: { externalId: true },
    });
    expect(second).toHaveLength(7);
    expect(second.map((c) => c.externalId)).toContain("bm25_0-41745");
    const chunkIds = new Set(chunks.map((c) => c.externalId));
    expect(chunkIds.has("bm25_0-21009")).toBe(true);

    const queries = await db.query.findMany({
      where: { projectId: project.id },
      include: { tags: true, places: { include: { video: true } } },
      orderBy: { externalId: "asc" },
    });
    const fileQueries = jsonl<{ id: string; start: number; video: string; tags: string[] }>("demo/queries.jsonl");
    expect(queries).toHaveLength(12);
    expect(
      queries.map((q) => [
        q.externalId,
        q.places[0]?.startSeconds,
        q.places[0]?.video?.externalId,
        q.tags.map((t) => t.tag).sort(),
      ]),
    ).toEqual(fileQueries.map((q) => [q.id, q.start, q.video, [...q.tags].sort()]));
    expect(queries.filter((q) => q.tags.some((t) => t.tag === "named-entity")).map((q) => q.externalId)).toEqual([
      "q01",
      "q02",
      "q08",
      "q11",
    ]);

    const runs = await db.run.findMany({
      where: { projectId: project.id },
      include: { _count: { select: { entries: true } } },
      orderBy: { system: "asc" },
    });
    const lines = (file: string) => read(file).split("\n").filter(Boolean).length;
    expect(runs.map((r) => [r.system, r._count.entries])).toEqual(
      [
        ...SYSTEMS.map((s) => [s, lines(`demo/runs/${s}.trec`)]),
        ...SYSTEMS.map((s) => [`${s}@${SECOND}`, lines(`demo/runs/${SECOND}/${s}.trec`)]),
      ].sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    );

    const judge = await db.judgeLabel.findMany({ where: { projectId: project.id, judge: "gpt-judge" } });
    expect(judge).toHaveLength(jsonl("demo/judge.jsonl").length);
    expect(judge.every((j) => (j.rationale ?? "").length > 10)).toBe(true);
    // The transfer judge labels chunks of c40o0 only, each with its provenance.
    const transfer = await db.judgeLabel.findMany({
      where: { projectId: project.id, NOT: { judge: "gpt-judge" } },
      include: { chunk: { include: { chunking: true } } },
    });
    expect(new Set(transfer.map((j) => j.judge))).toEqual(new Set([`transfer:default->${SECOND}`]));
    expect(transfer.length).toBeGreaterThan(10);
    expect(
      transfer.every((j) => j.chunk.chunking.name === SECOND && (j.provenance ?? "").includes('"from":"default"')),
    ).toBe(true);
  });

  it("builds the pool from every run's top 5 and gives each item to both annotators", async () => {
    const { getDb } = await import("../../lib/db/client.ts");
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { name: "demo" } });
    const items = await db.poolItem.findMany({
      where: { projectId: project.id },
      include: { query: true, chunk: true, assignments: { include: { user: true } } },
    });
    const expected = expectedPool();
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((i) => `${i.query.externalId} ${i.chunk.externalId}`))).toEqual(expected);
    for (const item of items)
      expect(item.assignments.map((a) => a.user.email).sort()).toEqual(["ann1@example.com", "ann2@example.com"]);
    // Every pooled pair of the first chunking has the LLM judge's label (it graded each run's top 10);
    // the audit items are c40o0's, which the transfer judge labels where the first chunking has labels.
    const judged = new Set(
      (
        await db.judgeLabel.findMany({
          where: { projectId: project.id, judge: "gpt-judge" },
          include: { query: true, chunk: true },
        })
      ).map((j) => `${j.query.externalId} ${j.chunk.externalId}`),
    );
    const defaultChunking = await db.chunking.findUniqueOrThrow({
      where: { projectId_name: { projectId: project.id, name: "default" } },
    });
    const first = items.filter((i) => i.chunk.chunkingId === defaultChunking.id);
    expect(first.length).toBeGreaterThan(0);
    expect(first.map((i) => `${i.query.externalId} ${i.chunk.externalId}`).filter((p) => !judged.has(p))).toEqual([]);
  });

  it("ships q01–q08 graded by both annotators and adjudicated, so the dashboard has numbers; q09–q12 are left to grade", async () => {
    const { getDb } = await import("../../lib/db/client.ts");
    const { allPanels } = await import("../../lib/dashboard/panels.ts");
    const { ZDashboardQuery } = await import("../../lib/dashboard/options.ts");
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { name: "demo" } });
    const items = await db.poolItem.findMany({
      where: { projectId: project.id },
      include: {
        query: true,
        chunk: { include: { chunking: true } },
        judgements: { include: { user: true } },
        adjudication: true,
      },
    });
    const { referenceLabels } = await import("../../lib/labels/reference.ts");
    const status = new Map((await referenceLabels(db, project.id)).map((r) => [r.poolItemId, r.status]));
    const graded = new Set(["q01", "q02", "q03", "q04", "q05", "q06", "q07", "q08"]);
    const done = items.filter((i) => graded.has(i.query.externalId));
    const open = items.filter((i) => !graded.has(i.query.externalId));
    expect(done.length).toBeGreaterThan(30);
    expect(open.length).toBeGreaterThan(10);
    for (const i of done) {
      expect(i.judgements.map((j) => j.user.email).sort()).toEqual(["ann1@example.com", "ann2@example.com"]);
      // Final: agreed, or disagreed and adjudicated.
      const agreed = i.judgements[0].grade === i.judgements[1].grade;
      expect(agreed || i.adjudication !== null, i.id).toBe(true);
      expect(status.get(i.id), i.id).toBe(agreed ? "agreed" : "adjudicated");
    }
    expect(done.filter((i) => i.adjudication).length).toBeGreaterThan(3);
    for (const i of open) expect(i.judgements).toEqual([]);

    const panels = await allPanels(db, project.id, ZDashboardQuery.parse({}));
    expect(panels.agreement.judges.map((j) => j.name)).toEqual(["gpt-judge", `transfer:default->${SECOND}`]);
    const judge = panels.agreement.judges[0].report;
    // The LLM judge graded the first chunking's chunks; the audit items are c40o0's (the transfer judge's).
    const audit = done.filter((i) => i.chunk.chunking.name === SECOND);
    expect(audit.length).toBe(8);
    expect(judge?.n).toBe(done.length - audit.length);
    // The transfer judge is audited on the audit items it labels (rule version 2 may leave one unjudged).
    const transferred = new Set(
      (
        await db.judgeLabel.findMany({
          where: { projectId: project.id, judge: `transfer:default->${SECOND}` },
          select: { queryId: true, chunkId: true },
        })
      ).map((j) => `${j.queryId}:${j.chunkId}`),
    );
    expect(panels.agreement.judges[1].report?.n).toBe(
      audit.filter((i) => transferred.has(`${i.queryId}:${i.chunkId}`)).length,
    );
    expect(judge?.kappa.linear).toBeGreaterThan(0.3);
    expect(judge?.kappa.linear).toBeLessThan(1);
    expect(judge?.confusion.flat().reduce((a, b) => a + b, 0)).toBe(done.length - audit.length);
    expect(panels.human.overall.report?.n).toBe(done.length);
    expect(JSON.stringify(panels.systems)).toContain("hybrid-rrf");
  });

  it("gives the Chunkings card numbers: both chunkings × the three systems, c40o0 on transfer + audited human labels with PPI", async () => {
    const { getDb } = await import("../../lib/db/client.ts");
    const { getChunkingReport } = await import("../../lib/dashboard/panels.ts");
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { name: "demo" } });
    const r = await getChunkingReport(db, project.id, { gain: "exponential" });
    expect(r.baseline).toBe("default");
    expect(r.rows.map((row) => `${row.chunking} ${row.system}`)).toEqual(
      [...SYSTEMS]
        .sort()
        .map((s) => `default ${s}`)
        .concat([...SYSTEMS].sort().map((s) => `${SECOND} ${s}`)),
    );
    // Time-IoU needs an answer end: the demo's questions give a start only, so it is not scored.
    const iou = r.columns.findIndex((c) => c.id === "time_iou_10");
    for (const row of r.rows)
      row.cells.forEach((cell, i) =>
        i === iou
          ? expect(cell).toMatchObject({ mean: null, n: 0 })
          : expect(cell.mean, `${row.chunking} ${row.system}`).not.toBeNull(),
      );
    const second = r.rows.filter((row) => row.chunking === SECOND);
    expect(second.every((row) => row.transferJudge === `transfer:default->${SECOND}` && row.audited === 8)).toBe(true);
    expect(second.every((row) => row.cells.every((c, i) => i === iou || c.test !== null))).toBe(true);
    expect(second.some((row) => row.cells.some((c) => c.ppi !== null))).toBe(true);
  });

  it("gives the Generation section numbers: gen-a and gen-b on q01–q08's human labels (one adjudicated), the answer judge on all 24", async () => {
    const { getDb } = await import("../../lib/db/client.ts");
    const { getGeneration } = await import("../../lib/dashboard/panels.ts");
    const db = await getDb();
    const project = await db.project.findUniqueOrThrow({ where: { name: "demo" } });
    const g = await getGeneration(db, project.id, { source: "human", gain: "exponential" });
    // Expected from demo/answers/labels.jsonl alone: per system the mean over its answers of (#s + 0.5·#p) / #claims.
    type TLine = {
      system: string;
      query: string;
      claims: string[];
      relevance: number;
      adjudication?: { claims: string[] };
    };
    const labels = jsonl<TLine>("demo/answers/labels.jsonl");
    const mean = (system: string) => {
      const rows = labels.filter((l) => l.system === system).map((l) => (l.adjudication ?? l).claims);
      return (
        rows.reduce((s, c) => s + c.reduce((t, x) => t + (x === "s" ? 1 : x === "p" ? 0.5 : 0), 0) / c.length, 0) /
        rows.length
      );
    };
    expect(g.empty).toBeNull();
    expect(g.systems).toEqual(["gen-a", "gen-b"]);
    expect(g.answers).toBe(jsonl("demo/answers/gen-a.jsonl").length + jsonl("demo/answers/gen-b.jsonl").length);
    const human = g.tables.find((t) => t.source === "human")!;
    expect(human.labelled).toBe(labels.length);
    expect(human.rows[0].cells[0].mean).toBeCloseTo(mean("gen-a"), 12);
    expect(human.rows[1].cells[0].mean).toBeCloseTo(mean("gen-b"), 12);
    expect(human.rows[1].cells[0].test).not.toBeNull();
    expect(labels.filter((l) => l.adjudication)).toHaveLength(1);
    expect(await db.answerAdjudication.count()).toBe(1);
    expect(g.tables.find((t) => t.source === "judge")!.labelled).toBe(jsonl("demo/answers/judge.jsonl").length);
    // Judge vs people on every claim of the 16 labelled answers; some disagreement, better than chance.
    expect(g.claims!.n).toBe(labels.reduce((s, l) => s + l.claims.length, 0));
    expect(g.claims!.kappa.linear.value).toBeGreaterThan(0.3);
    expect(g.claims!.rawAgreement).toBeLessThan(1);
    expect(g.faithfulness!.n).toBe(labels.length);
    // Both kinds of failure occur in the demo: gen-b answers q05 from another video's chunk, and misreads q04's chunk.
    const all = g.attribution.find((a) => a.source === "human")!.tables[0];
    expect(all.atLeast1.examples.retrieval_failed).toContain("q05");
    expect(all.atLeast1.examples.generator_failed).toContain("q04");
  });

  it("runs the README's sequence: export qrels, then eval a run on it (exit 0, trec_eval's rules: no pair twice), for each chunking", () => {
    const dir = mkdtempSync(join(tmpdir(), "assessor-demo-"));
    try {
      /** trec_eval 10.0 stops (exit 4) when a (query, docid) pair is judged twice; `assessor eval` refuses the file. */
      const pairsTwice = (file: string) => {
        const seen = new Set<string>();
        return readFileSync(file, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((l) => l.split(/\s+/))
          .filter(([qid, , docid]) => seen.size === seen.add(`${qid} ${docid}`).size);
      };
      const ref = join(dir, "reference.qrels");
      const exported = runCli(["export", "qrels", "--out", ref]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stderr).toContain('the labels of "default" only');
      expect(pairsTwice(ref)).toEqual([]);
      const evaluated = runCli(["eval", ref, "demo/runs/bm25.trec"]);
      expect(evaluated.code, evaluated.stderr).toBe(0);
      expect(evaluated.stdout).toMatch(/^map\s+all\s+0\.\d{4}$/m);

      const second = join(dir, `${SECOND}.qrels`);
      expect(runCli(["export", "qrels", "--chunking", SECOND, "--out", second]).code).toBe(0);
      expect(pairsTwice(second)).toEqual([]);
      const onSecond = runCli(["eval", second, `demo/runs/${SECOND}/hybrid-rrf.trec`]);
      expect(onSecond.code, onSecond.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("round-trips the questions: export questions, then import queries into a fresh project gives the same questions", () => {
    const dir = mkdtempSync(join(tmpdir(), "assessor-demo-"));
    try {
      const file = join(dir, "questions.jsonl");
      expect(runCli(["export", "questions", "--project", "demo", "--out", file]).code).toBe(0);
      expect(runCli(["project", "create", "fresh"]).code).toBe(0);
      expect(runCli(["import", "videos", "--project", "fresh", "demo/videos.jsonl"]).code).toBe(0);
      const imported = runCli(["import", "queries", "--project", "fresh", file]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain("12 new");
      const again = runCli(["export", "questions", "--project", "fresh", "--status", "all"]);
      // The author is whoever imported (the CLI); everything else comes back as it left.
      const withoutAuthor = (text: string) => text.replace(/"author":"[^"]*",/g, "");
      expect(withoutAuthor(again.stdout)).toBe(withoutAuthor(readFileSync(file, "utf8")));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to load twice into a database that already has the demo project, and writes nothing", async () => {
    const { getDb } = await import("../../lib/db/client.ts");
    const counts = async () => {
      const db = await getDb();
      return [await db.user.count(), await db.project.count(), await db.poolItem.count(), await db.assignment.count()];
    };
    // This process keeps the database open meanwhile, as a running app would.
    const before = await counts();
    const again = runDemo({ DATABASE_URL: testDb.url });
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain('already has a project named "demo"');
    expect(await counts()).toEqual(before);
  }, 120_000);
});
