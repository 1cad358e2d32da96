import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { ZDashboardQuery } from "../../lib/dashboard/options.ts";
import { getTrust } from "../../lib/dashboard/panels.ts";
import { canonicalJson, type THashedReport } from "../../lib/judge/report.ts";
import { runWorker } from "../../lib/judge/runner.ts";
import { startRun } from "../../lib/judge/service.ts";
import { runCli, runCliOk } from "../helpers/cli.ts";
import { startFakeLlm, type TFakeLlm } from "../helpers/fake-llm.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { seedJudgeProject } from "./judge-fixture.ts";

/**
 * The trust report and the Judge trust card on a real database (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL) with a judge run of 3 samples per pair against the fake OpenAI-compatible
 * server. 4 questions × 5 pooled chunks; the human grade of chunk i (question q = ⌊i/5⌋, k = i mod 5)
 * is (q + k) mod 4, so 5 pairs have each of grades 0 and 1 (q = 0: k = 0, 4 / k = 1; q = 1: k = 3 /
 * k = 0, 4; q = 2: k = 2 / k = 3; q = 3: k = 1 / k = 2) and 10 pairs grade 2 or 3. The judge's three
 * samples of a pair are h, min(3, h + 1), h: its label (the median) is h.
 * Confidence at ≥ 1: h = 0 → 1/3 (event false), else 1 (true). Brier = 5 · (1/3)² / 20 = 1/36;
 * ECE = (5/20) · |0 − 1/3| = 1/12 (bins 3 and 9; bin 9 is exact).
 * At ≥ 2: h = 0 → 0 (false), h = 1 → 1/3 (false), h ≥ 2 → 1 (true): Brier = 5 · (1/9) / 20 = 1/36, ECE = 1/12.
 */
const KEY = "sk-test-trust-0123456789";
useTestDatabase();
let db: Db;
let fake: TFakeLlm;
let dir: string;
let projectId: number;
const human = (i: number) => (Math.floor(i / 5) + (i % 5)) % 4;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  fake = await startFakeLlm({ models: ["fake-judge"] });
  dir = mkdtempSync(join(tmpdir(), "trust-"));
  const seeded = await seedJudgeProject(db, { name: "trust", queries: 4, perQuery: 5 });
  projectId = seeded.project.id;
  const docid = (i: number) => `c${String(i).padStart(4, "0")}`;
  const qrels = [...Array(20).keys()].map((i) => `q${Math.floor(i / 5)} 0 ${docid(i)} ${human(i)}`);
  writeFileSync(join(dir, "gold.qrels"), `${qrels.join("\n")}\n`);
  runCliOk(["import", "labels", "--source", "gold", "--project", "trust", join(dir, "gold.qrels")]);
  // A second judge for the jury: the human grade, one lower on question q3.
  const other = [...Array(20).keys()].map((i) =>
    JSON.stringify({
      query: `q${Math.floor(i / 5)}`,
      chunk: docid(i),
      grade: i >= 15 ? Math.max(0, human(i) - 1) : human(i),
    }),
  );
  writeFileSync(join(dir, "other.jsonl"), `${other.join("\n")}\n`);
  runCliOk(["import", "judge", "--judge", "other", "--project", "trust", join(dir, "other.jsonl")]);
  // Three systems ranking each question's five chunks in three orders.
  const orders = [
    [0, 1, 2, 3, 4],
    [4, 3, 2, 1, 0],
    [2, 0, 4, 1, 3],
  ];
  orders.forEach((order, s) => {
    const lines: string[] = [];
    for (let q = 0; q < 4; q++)
      order.forEach((k, rank) => lines.push(`q${q} Q0 ${docid(q * 5 + k)} ${rank + 1} ${10 - rank} sys${s}`));
    writeFileSync(join(dir, `sys${s}.run`), `${lines.join("\n")}\n`);
    runCliOk(["import", "run", "--system", `sys${s}`, "--project", "trust", join(dir, `sys${s}.run`)]);
  });
  fake.setScript((req, attempt) => {
    const i = Number(/Chunk (\d+):/.exec(req.prompt)![1]);
    const h = human(i);
    return { kind: "answer", text: JSON.stringify({ score: attempt === 2 ? Math.min(3, h + 1) : h }) };
  });
  const { run, apiKey } = await startRun(
    db,
    projectId,
    {
      judge: "sampled",
      model: "fake-judge",
      baseUrl: fake.url,
      apiKeyEnv: "JUDGE_API_KEY",
      timeoutMs: 5000,
      maxRetries: 3,
      samples: 3,
      temperature: 0.7,
    },
    { JUDGE_API_KEY: KEY },
  );
  expect((await runWorker(db, run.id, { apiKey, concurrency: 1 })).status).toBe("completed");
  runCliOk(["judge", "combine", "--judge", "jury", "--method", "median", "--project", "trust", "sampled", "other"]);
}, 120_000);
afterAll(async () => {
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const hashOf = (r: THashedReport) => {
  const { sha256: _s, ...rest } = r;
  return createHash("sha256").update(canonicalJson(rest)).digest("hex");
};

describe("judge report", () => {
  it("json: model, template hash, calibration at ≥ 1 and ≥ 2, test–retest, ranking, counts, and its hash", () => {
    const r = JSON.parse(
      runCliOk(["judge", "report", "sampled", "--format", "json", "--project", "trust"]),
    ) as THashedReport;
    expect(r.kind).toBe("run");
    expect(r.run).toMatchObject({ model: "fake-judge", samples: 3, temperature: 0.7, status: "completed" });
    expect(r.run!.templateSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(r.counts).toMatchObject({ judgeLabels: 20, humanLabels: 20, paired: 20, questionsPaired: 4, humanPairs: 0 });
    expect(r.counts.humanByGradeOnPaired).toEqual([5, 5, 5, 5]);
    // The median of h, h + 1, h is h: the judge agrees with the people on every pair.
    expect(r.agreement!.kappa.quadratic).toBe(1);
    expect(r.leniency).toBe(0);
    expect(r.ceiling).toBeNull();
    const cal = r.calibration!;
    expect(cal).toMatchObject({ source: "samples", per: 3, bins: 10 });
    expect(cal.ge1.n).toBe(20);
    expect(cal.ge1.brier).toBeCloseTo(1 / 36, 12);
    expect(cal.ge1.ece).toBeCloseTo(1 / 12, 12);
    expect(cal.ge2.brier).toBeCloseTo(1 / 36, 12);
    expect(cal.ge2.ece).toBeCloseTo(1 / 12, 12);
    expect(cal.ge2.bins.map((b) => [b.low, b.count, b.accuracy])).toEqual([
      [0, 5, 0],
      [0.3, 5, 0],
      [0.9, 10, 1],
    ]);
    // Samples h, h + 1, h differ on every pair below grade 3 (15 of 20).
    expect(r.retest).toMatchObject({ pairs: 20, unstable: 15 });
    // Judge labels equal the human ones: both rank the systems alike.
    expect(r.ranking!.all).toMatchObject({ systems: 3, tau: 1, tauAp: 1 });
    expect(r.ranking!.all.tauInterval).toEqual({ low: 1, high: 1 });
    expect(r.ranking!.top.systems).toBe(2);
    expect(r.robustness).toBeNull();
    expect(r.robustnessNote).toMatch(/sampled~probe:KIND/);
    expect(r.sha256).toBe(hashOf(r));
  });

  it("md: the sections and the same hash as the json", () => {
    const json = JSON.parse(
      runCliOk(["judge", "report", "sampled", "--format", "json", "--project", "trust"]),
    ) as THashedReport;
    const md = runCliOk(["judge", "report", "sampled", "--project", "trust"]);
    for (const heading of [
      "## Labels it rests on",
      "## Calibration",
      "## Test–retest",
      "## Ranking of the systems",
      "## Robustness",
    ])
      expect(md).toContain(heading);
    expect(md).toContain("| grade ≥ 1 | 20 | 0.750 | 0.028 | 0.083 |");
    expect(md).toContain(json.sha256);
  });

  it("judge export --format qrels carries the report's hash in its sidecar", () => {
    const file = join(dir, "sampled.qrels");
    runCliOk(["judge", "export", "sampled", "--format", "qrels", "--out", file, "--project", "trust"]);
    const side = JSON.parse(readFileSync(`${file}.report.json`, "utf8")) as {
      report_sha256: string;
      file_sha256: string;
      report: THashedReport;
    };
    expect(side.file_sha256).toBe(createHash("sha256").update(readFileSync(file)).digest("hex"));
    const json = JSON.parse(
      runCliOk(["judge", "report", "sampled", "--format", "json", "--project", "trust"]),
    ) as THashedReport;
    expect(side.report_sha256).toBe(json.sha256);
    expect(side.report.sha256).toBe(json.sha256);
  });
});

describe("Judge trust card", () => {
  it("a jury beside its members on the same human-labelled pairs, and the jury's members as its confidence", async () => {
    const panel = await getTrust(db, projectId, ZDashboardQuery.parse({ judge: "jury" }));
    const jury = panel.jury!;
    expect(jury.members).toEqual(["sampled", "other"]);
    expect(jury.pairs).toBe(20);
    expect(jury.rows.map((r) => [r.judge, r.role, r.report.n])).toEqual([
      ["jury", "jury", 20],
      ["sampled", "member", 20],
      ["other", "member", 20],
    ]);
    expect(jury.rows[1].report.kappa.quadratic).toBe(1);
    expect(jury.rows[2].report.kappa.quadratic).toBeLessThan(1);
    expect(jury.rows[0].report.ci.bootstrap?.kappa_quadratic).not.toBeNull();
    // Two members: confidence 0, ½ or 1 per pair.
    expect(panel.calibration).toMatchObject({ source: "jury", per: 2 });
    expect(panel.calibration!.ge1.bins.every((b) => [0, 0.5, 0.9].includes(b.low))).toBe(true);
  });

  it("a judge without samples or jury says how to get a confidence", async () => {
    const panel = await getTrust(db, projectId, ZDashboardQuery.parse({ judge: "other" }));
    expect(panel.calibration).toBeNull();
    expect(panel.calibrationNote).toMatch(/--samples 3/);
    expect(panel.jury).toBeNull();
    expect(panel.ranking!.all.systems).toBe(3);
  });

  it("an imported judge's own probabilities (p_ge1, p_ge2) are its confidence; bad ones are refused by line and field", async () => {
    const docid = (i: number) => `c${String(i).padStart(4, "0")}`;
    // p_ge1 = 0.8 on every pair; p_ge2 = 0.5 on every pair but c0019 (none given).
    // ≥ 1: 15 of the 20 pairs have h ≥ 1. Brier = (15 · 0.2² + 5 · 0.8²) / 20 = (0.6 + 3.2) / 20 = 0.19;
    //   one bin [0.8, 0.9): ECE = |15/20 − 0.8| = 0.05.
    // ≥ 2: 19 pairs, 9 with h ≥ 2 (c0019 has h = 3 and is left out). Brier = 0.5² = 0.25 on every
    //   pair; one bin [0.5, 0.6): ECE = |9/19 − 0.5| = 1/38.
    const lines = [...Array(20).keys()].map((i) =>
      JSON.stringify({
        query: `q${Math.floor(i / 5)}`,
        chunk: docid(i),
        grade: human(i),
        p_ge1: 0.8,
        ...(i === 19 ? {} : { p_ge2: 0.5 }),
      }),
    );
    const file = join(dir, "probs.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);
    runCliOk(["import", "judge", "--judge", "probs", "--project", "trust", file]);
    const stored = await db.judgeLabel.findFirstOrThrow({
      where: { projectId, judge: "probs", chunk: { externalId: docid(3) } },
    });
    expect([stored.pGe1, stored.pGe2]).toEqual([0.8, 0.5]);

    const panel = await getTrust(db, projectId, ZDashboardQuery.parse({ judge: "probs" }));
    expect(panel.calibration).toMatchObject({ source: "imported", per: 1, bins: 10 });
    const cal = panel.calibration!;
    expect([cal.ge1.n, cal.ge2.n]).toEqual([20, 19]);
    expect(cal.ge1.brier).toBeCloseTo(0.19, 12);
    expect(cal.ge1.ece).toBeCloseTo(0.05, 12);
    expect(cal.ge2.brier).toBeCloseTo(0.25, 12);
    expect(cal.ge2.ece).toBeCloseTo(1 / 38, 12);
    expect(panel.calibrationNote).toBeNull();
    const md = runCliOk(["judge", "report", "probs", "--project", "trust"]);
    expect(md).toContain("the probability of the grade or above that the imported file gave (p_ge1, p_ge2)");
    expect(md).toContain("| grade ≥ 1 | 20 | 0.750 | 0.190 | 0.050 |");

    // The export gives them back as they came in; importing it again changes nothing.
    const out = join(dir, "probs-out.jsonl");
    runCliOk(["judge", "export", "probs", "--format", "jsonl", "--out", out, "--project", "trust"]);
    const exported = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(exported.find((r) => r.chunk === docid(3))).toMatchObject({ p_ge1: 0.8, p_ge2: 0.5 });
    expect(exported.find((r) => r.chunk === docid(19))).not.toHaveProperty("p_ge2");
    expect(runCliOk(["import", "judge", "--judge", "probs", "--project", "trust", out])).toMatch(
      /20 unchanged|unchanged: 20/,
    );

    // Out of [0, 1], and P(≥ 2) above P(≥ 1): each refused with its line and field, and nothing is written.
    const bad = join(dir, "bad-probs.jsonl");
    writeFileSync(
      bad,
      [
        JSON.stringify({ query: "q0", chunk: docid(0), grade: 0, p_ge1: 1.5 }),
        JSON.stringify({ query: "q0", chunk: docid(1), grade: 1, p_ge1: 0.3, p_ge2: 0.6 }),
      ].join("\n") + "\n",
    );
    const r = runCli(["import", "judge", "--judge", "bad-probs", "--project", "trust", bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "bad-probs.jsonl:1: p_ge1: expected the probability of grade ≥ 1, a probability from 0 to 1",
    );
    expect(r.stderr).toContain(
      "bad-probs.jsonl:2: p_ge2: expected p_ge2 (the probability of grade ≥ 2) at most p_ge1 (0.3), got 0.6",
    );
    expect(await db.judgeLabel.count({ where: { projectId, judge: "bad-probs" } })).toBe(0);
  });
});
