import { beforeAll, afterAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { startRun } from "../../lib/judge/service.ts";
import { runWorker } from "../../lib/judge/runner.ts";
import { createProbes } from "../../lib/judge/probe/create.ts";
import { workProbes } from "../../lib/judge/probe/work.ts";
import { loadProbeSummary } from "../../lib/judge/probe/load.ts";
import { INJECTIONS } from "../../lib/judge/probe/perturb.ts";
import { PARAPHRASED_TEMPLATE } from "../../lib/judge/probe/paraphrase.ts";
import { getProbes } from "../../lib/dashboard/probes.ts";
import { getMeta } from "../../lib/dashboard/panels.ts";
import { servePanel } from "../../lib/dashboard/serve.ts";
import { ZDashboardQuery } from "../../lib/dashboard/options.ts";
import type { TAgreementPanel } from "../../lib/dashboard/agreement.ts";
import { annotatorsCard, ZAnnotatorsQuery } from "../../lib/annotators/routes.ts";
import { trustReportDownload, ZTrustReportQuery } from "../../lib/judge/report-route.ts";
import { httpStatus } from "../../lib/errors.ts";
import { createDecision } from "../../lib/decisions/store.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCliAsync } from "../helpers/cli.ts";
import { startFakeLlm, type TFakeLlm } from "../helpers/fake-llm.ts";
import { humanGrade, passageOf, swayedScript } from "../helpers/probe-script.ts";
import { seedJudgeProject } from "./judge-fixture.ts";

/**
 * Robustness probes against the fake OpenAI-compatible server (the one mock), on the real database
 * (SQLite, or PostgreSQL with TEST_DATABASE_URL). The fake is scripted (tests/helpers/probe-script.ts)
 * as a judge swayed by an instruction to the assessor and by the question's words in the passage,
 * and not by padding, truncation or a paraphrase. The probes must show exactly that.
 */
const env = { PROBE_API_KEY: "sk-probe-test" };

useTestDatabase();
let db: Db;
let fake: TFakeLlm;
let projectId: number;
let chunkIds: number[];
let queryIds: number[];

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  fake = await startFakeLlm({ script: swayedScript, models: ["fake-judge", "other-model"] });
  const seeded = await seedJudgeProject(db, { name: "probe-project", queries: 6, perQuery: 8 });
  projectId = seeded.project.id;
  chunkIds = seeded.chunkIds;
  queryIds = seeded.queryIds;
  // People's reference labels: chunk i gets i mod 4 (12 pairs of each grade).
  await db.referenceLabel.createMany({
    data: seeded.queryIds.flatMap((queryId, q) =>
      Array.from({ length: 8 }, (_, k) => ({
        projectId,
        source: "people",
        queryId,
        chunkId: chunkIds[q * 8 + k],
        grade: humanGrade(q * 8 + k),
      })),
    ),
  });
  const { run, apiKey } = await startRun(
    db,
    projectId,
    {
      judge: "gpt",
      model: "fake-judge",
      baseUrl: fake.url,
      apiKeyEnv: "PROBE_API_KEY",
      timeoutMs: 5000,
      priceIn: 1,
      priceOut: 1,
    },
    env,
  );
  expect((await runWorker(db, run.id, { apiKey })).status).toBe("completed");
});
afterAll(async () => {
  await fake.close();
});

describe("judge probe", () => {
  it("the CLI probes a run on a stratified sample and prints the shifts: swayed by injection and stuffing, not by padding", async () => {
    fake.requests.length = 0;
    const r = await runCliAsync(["judge", "probe", "gpt", "--sample", "24", "--seed", "3", "--format", "json"], {
      env,
    });
    expect(r.stderr).toContain("skipped order: the run's template shows no neighbouring transcript");
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Awaited<ReturnType<typeof loadProbeSummary>> & { pairs: number };
    expect(out.pairs).toBe(24);
    const row = (k: string) => out.rows.find((x) => x.kind === k)!;
    expect(out.rows.map((x) => x.kind)).toEqual(["injection", "stuffing", "padding", "truncation", "paraphrase"]);
    for (const x of out.rows) expect(x.pairs).toBe(24);
    // Injection: every pair graded 3 now; the run's grades on a stratified sample are ~1.5 on average.
    expect(row("injection").meanShift).toBeGreaterThan(1);
    expect(row("injection").interval!.low).toBeGreaterThan(0.5);
    expect(row("injection").kappa.linear.after).toBeLessThan(row("injection").kappa.linear.before! - 0.3);
    // Stuffing: one up for every pair not at 3 already.
    expect(row("stuffing").meanShift).toBeGreaterThan(0.5);
    expect(row("stuffing").interval!.low).toBeGreaterThan(0);
    expect(row("stuffing").down).toBe(0);
    // Padding, truncation, paraphrase: this judge does not move.
    for (const k of ["padding", "truncation", "paraphrase"]) {
      expect(row(k).meanShift).toBe(0);
      expect(row(k).changed).toBe(0);
      expect(row(k).interval).toEqual({ low: 0, high: 0 });
      expect(row(k).kappa.linear.after).toBeCloseTo(row(k).kappa.linear.before!, 12);
    }
    expect(row("injection").worst.length).toBe(5);
    expect(fake.requests).toHaveLength(24 * 5);

    // The table form, once the probes exist: resumed, nothing sent again.
    fake.requests.length = 0;
    const t = await runCliAsync(["judge", "probe", "gpt", "--sample", "24", "--seed", "3"], { env });
    expect(t.code).toBe(0);
    expect(fake.requests).toHaveLength(0);
    expect(t.stdout).toMatch(/^injection\t24\t\+\d\.\d\d\t\[/m);
    expect(t.stdout).toMatch(/^padding\t24\t0\.00\t\[0\.00, 0\.00\]\t0\.0%/m);
    expect(t.stdout).toMatch(/^worst injection: q\d /m);
  });

  it("stores each probe as a judge run naming its perturbation, seed and source, with the sample stratified by the human grade", async () => {
    const source = await db.judgeRun.findFirstOrThrow({ where: { projectId, judge: "gpt" } });
    const probes = await db.judgeRun.findMany({ where: { projectId, judge: { startsWith: "gpt~probe:" } } });
    expect(probes.map((p) => p.judge).sort()).toEqual(
      ["injection", "padding", "paraphrase", "stuffing", "truncation"].map((k) => `gpt~probe:${k}`),
    );
    for (const p of probes) {
      const params = JSON.parse(p.params) as { probe: { kind: string; seed: number; sourceRunId: number } };
      expect(params.probe).toMatchObject({ kind: p.judge.split(":")[1], seed: 3, sourceRunId: source.id });
      expect(p.status).toBe("completed");
      expect(p.template).toBe(p.judge.endsWith("paraphrase") ? PARAPHRASED_TEMPLATE : source.template);
    }
    const tasks = await db.judgeTask.findMany({ where: { runId: probes[0].id } });
    const grades = new Map<number, number>();
    for (const t of tasks) {
      const g = humanGrade(chunkIds.indexOf(t.chunkId));
      grades.set(g, (grades.get(g) ?? 0) + 1);
    }
    expect([...grades.entries()].sort()).toEqual([
      [0, 6],
      [1, 6],
      [2, 6],
      [3, 6],
    ]);
    // The same pairs in every probe.
    const pairsOf = async (runId: number) =>
      (await db.judgeTask.findMany({ where: { runId }, orderBy: [{ queryId: "asc" }, { chunkId: "asc" }] })).map(
        (t) => `${t.queryId}:${t.chunkId}`,
      );
    for (const p of probes.slice(1)) expect(await pairsOf(p.id)).toEqual(await pairsOf(probes[0].id));
  });

  it("a different seed or sample for existing probes is refused, and nothing is written", async () => {
    const before = await db.judgeRun.count();
    const r = await runCliAsync(["judge", "probe", "gpt", "--sample", "24", "--seed", "4"], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--sample: probe "gpt~probe:injection" exists already');
    expect(r.stderr).toContain("with sample 24 and seed 3");
    expect(await db.judgeRun.count()).toBe(before);
    const bad = await runCliAsync(["judge", "probe", "gpt", "--sample", "5", "--kinds", "injection,wobble"], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--kinds: "wobble" is not a probe');
  });

  it("the order probe swaps the neighbours of a template that shows them; padding comes from another video", async () => {
    const template = "Q: {{question}}\nBEFORE: {{before}}\n<passage>{{chunk}}</passage>\nAFTER: {{after}}";
    const { run, apiKey } = await startRun(
      db,
      projectId,
      { judge: "ctx", model: "fake-judge", baseUrl: fake.url, apiKeyEnv: "PROBE_API_KEY", template, timeoutMs: 5000 },
      env,
    );
    await runWorker(db, run.id, { apiKey });
    fake.requests.length = 0;
    const set = await createProbes(db, projectId, "ctx", {
      sample: 8,
      seed: 5,
      kinds: ["order", "padding", "paraphrase"],
    });
    expect(set.skipped).toEqual([
      { kind: "paraphrase", reason: "the run's template is the lead's own: give its paraphrase (--template FILE)" },
    ]);
    const work = await workProbes(db, set.runs, apiKey);
    expect(work.map((w) => [w.kind, w.result?.status])).toEqual([
      ["padding", "completed"],
      ["order", "completed"],
    ]);
    // Chunks alternate between the two videos, so a chunk's neighbours in its video are i − 2 and i + 2.
    const order = fake.requests.filter((q) => (passageOf(q.prompt).match(/Chunk \d+:/g) ?? []).length === 1);
    expect(order).toHaveLength(8);
    for (const q of order) {
      const i = Number(/<passage>Chunk (\d+):/.exec(q.prompt)![1]);
      const before = /BEFORE: Chunk (\d+):/.exec(q.prompt)?.[1];
      const after = /AFTER: Chunk (\d+):/.exec(q.prompt)?.[1];
      expect(before === undefined ? null : Number(before)).toBe(i + 2 < 48 ? i + 2 : null);
      expect(after === undefined ? null : Number(after)).toBe(i - 2 >= 0 ? i - 2 : null);
    }
    // Padding: the passage is the chunk and then another chunk's transcript, from the other video.
    const padded = fake.requests.filter((q) => (passageOf(q.prompt).match(/Chunk \d+:/g) ?? []).length >= 2);
    expect(padded.length).toBe(8);
    for (const q of padded) {
      const [first, second] = [
        ...passageOf(q.prompt).matchAll(/Chunk (\d+): words spoken in (Ranking talk|Fusion lecture)/g),
      ];
      expect(second[2]).not.toBe(first[2]);
    }
    const injected = fake.requests.filter((q) => INJECTIONS.some((w) => q.prompt.includes(w)));
    expect(injected).toHaveLength(0);
  });

  it("the dashboard's panel shows the shifts per source run, and probes are refused where they cannot be made", async () => {
    const set = await createProbes(db, projectId, "gpt", { sample: 24, seed: 3, kinds: ["injection"] });
    expect(set.runs.map((r) => r.created)).toEqual([false]);
    await expect(createProbes(db, projectId, "ctx", { sample: 8, seed: 5, maxCost: 0.000001 })).rejects.toThrow(
      /--max-cost: run \d+ \(ctx\) has no prices/,
    );
    // The injection probe of gpt exists with sample 24 and seed 3.
    await expect(createProbes(db, projectId, "gpt", { sample: 48, seed: 9, kinds: ["injection"] })).rejects.toThrow(
      /exists already/,
    );
    const panel = await getProbes(db, projectId);
    const gpt = panel.sources.find((s) => s.source === "gpt")!;
    expect(gpt.rows.find((r) => r.kind === "injection")!.meanShift).toBeGreaterThan(1);
    expect(gpt.rows.find((r) => r.kind === "padding")!.meanShift).toBe(0);
    expect(gpt.rows.every((r) => r.status === "completed")).toBe(true);
    expect(panel.sources.map((s) => s.source)).toEqual(["ctx", "gpt"]);
    // A probe (perturbed chunks) is never the dashboard's default judge, even the most recent complete
    // one: a probe of every pooled pair.
    const full = await createProbes(db, projectId, "ctx", { sample: 48, seed: 5, kinds: ["truncation"] });
    await workProbes(db, full.runs, env.PROBE_API_KEY);
    const meta = await getMeta(db, projectId);
    expect(meta.judges.find((j) => j.name === "ctx~probe:truncation")).toBeUndefined();
    expect(meta.defaultJudge).toBe("ctx");
  });

  it("the dashboard does not offer a probe as a judge, and refuses one as its judge, naming the run it probes", async () => {
    const probes = (await db.judgeRun.findMany({ where: { projectId, judge: { contains: "~probe:" } } })).map(
      (r) => r.judge,
    );
    expect(probes).toContain("gpt~probe:injection");
    expect(probes).toContain("ctx~probe:truncation");
    // The picker's choices (the meta panel's judges) and the judges side by side: the runs, no probe.
    const meta = await getMeta(db, projectId);
    expect(meta.judges.map((j) => j.name).sort()).toEqual(["ctx", "gpt"]);
    expect(meta.judges.some((j) => j.name.includes("~probe:"))).toBe(false);
    const q = ZDashboardQuery.parse({});
    const agreement = (await servePanel(db, String(projectId), "agreement", q)) as TAgreementPanel;
    expect(agreement.judges.map((b) => b.name).sort()).toEqual(["ctx", "gpt"]);
    // Every panel that reads the judge parameter refuses a probe: a 4xx naming it and its source run.
    const refusal = {
      code: "bad_input",
      message: expect.stringMatching(
        /^judge "gpt~probe:injection" is a robustness probe of run "gpt" \(its chunks changed on purpose: injection\).*Judge robustness card/,
      ) as unknown,
    };
    expect(httpStatus.bad_input).toBe(422);
    const probeQuery = ZDashboardQuery.parse({ judge: "gpt~probe:injection" });
    for (const panel of ["breakdowns", "calibration", "systems", "ppi", "trust"] as const)
      await expect(servePanel(db, String(projectId), panel, probeQuery), panel).rejects.toMatchObject(refusal);
    // The source run is still a judge; an unknown name is still a 404 listing the judges offered.
    await expect(
      servePanel(db, String(projectId), "calibration", ZDashboardQuery.parse({ judge: "gpt" })),
    ).resolves.toMatchObject({ judge: "gpt" });
    await expect(
      servePanel(db, String(projectId), "calibration", ZDashboardQuery.parse({ judge: "nobody" })),
    ).rejects.toMatchObject({ code: "not_found", message: expect.not.stringContaining("~probe:") as unknown });
    // The page's other judge parameters: the Annotators card and the Judge trust card's download.
    await expect(
      annotatorsCard(db, String(projectId), ZAnnotatorsQuery.parse({ judge: "gpt~probe:injection" })),
    ).rejects.toMatchObject(refusal);
    const probeRun = await db.judgeRun.findFirstOrThrow({ where: { projectId, judge: "ctx~probe:truncation" } });
    await expect(
      trustReportDownload(db, String(projectId), ZTrustReportQuery.parse({ judge: String(probeRun.id) })),
    ).rejects.toMatchObject({ code: "bad_input", message: expect.stringContaining('probe of run "ctx"') as unknown });
    // Nor is a probe a member of a jury (a judge made to label the pool); nothing is written.
    const jury = await runCliAsync(
      ["judge", "combine", "--judge", "jury", "--method", "median", "gpt", "gpt~probe:injection"],
      {
        env,
      },
    );
    expect(jury.code).not.toBe(0);
    expect(jury.stderr).toMatch(/judge "gpt~probe:injection" is a robustness probe of run "gpt"/);
    expect(await db.judgeLabel.count({ where: { projectId, judge: "jury" } })).toBe(0);
    // On the command line, a probe's own trust report stays available (its figures under the perturbation).
    const r = await runCliAsync(["judge", "report", "gpt~probe:injection", "--format", "json"], { env });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { judge: string }).judge).toBe("gpt~probe:injection");
  });

  it("the judge's trust report carries the probes' figures as the card shows them", async () => {
    const r = await runCliAsync(["judge", "report", "gpt", "--format", "json"], { env });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      robustness: { probes: { kind: string; meanShift: number | null; interval: { low: number } | null }[] } | null;
    };
    const panel = (await getProbes(db, projectId)).sources.find((s) => s.source === "gpt")!;
    const probes = report.robustness!.probes;
    expect(probes.map((x) => x.kind)).toEqual(panel.rows.map((x) => x.kind));
    for (const x of probes) expect(x.meanShift).toBe(panel.rows.find((y) => y.kind === x.kind)!.meanShift);
    expect(probes.find((x) => x.kind === "injection")!.interval!.low).toBeGreaterThan(0.5);
    const md = await runCliAsync(["judge", "report", "gpt", "--format", "md"], { env });
    expect(md.stdout).toMatch(/\| injection \| 24 \| 75\.0% \| 1\.\d+ \[1\.\d+, 1\.\d+\] \| 0\.\d+ → 0\.000 \|/);
  });

  it("a probe with a cost cap stops at the cap", async () => {
    const { run, apiKey } = await startRun(
      db,
      projectId,
      {
        judge: "priced",
        model: "other-model", // not answered from the other runs' cache
        baseUrl: fake.url,
        apiKeyEnv: "PROBE_API_KEY",
        timeoutMs: 5000,
        priceIn: 1000,
        priceOut: 1000,
        concurrency: 1,
      },
      env,
    );
    await runWorker(db, run.id, { apiKey });
    const set = await createProbes(db, projectId, "priced", { sample: 24, kinds: ["stuffing"], maxCost: 0.3 });
    fake.requests.length = 0;
    const [w] = await workProbes(db, set.runs, apiKey);
    expect(fake.requests).toHaveLength(1);
    expect(w.result?.status).toBe("stopped");
    expect(w.result?.reason).toMatch(/cost cap/);
    const labelled = await db.judgeLabel.count({ where: { projectId, judge: "priced~probe:stuffing" } });
    // One request costs more than the cap (about 500 prompt tokens at $1,000 per million): the first answer stops it.
    expect(labelled).toBe(1);
    expect((await db.judgeRun.findFirstOrThrow({ where: { judge: "priced~probe:stuffing" } })).status).toBe("stopped");
  });

  it("a decision refuses a probe as its judge (last: it adds two systems' runs to the project)", async () => {
    const chunk = await db.chunk.findUniqueOrThrow({ where: { id: chunkIds[0] } });
    for (const [system, flip] of [
      ["sys-a", false],
      ["sys-b", true],
    ] as const) {
      const run = await db.run.create({
        data: { projectId, chunkingId: chunk.chunkingId, system, contentHash: `probe-test-${system}` },
      });
      await db.runEntry.createMany({
        data: queryIds.flatMap((queryId, q) => {
          const ids = chunkIds.slice(q * 8, q * 8 + 8);
          return (flip ? ids.reverse() : ids).map((chunkId, i) => ({
            runId: run.id,
            queryId,
            chunkId,
            rank: i + 1,
            score: 8 - i,
          }));
        }),
      });
    }
    const spec = { name: "probe-judged", systems: ["sys-a", "sys-b"], measure: "ndcg@10" };
    await expect(createDecision(db, projectId, { ...spec, judge: "gpt~probe:stuffing" })).rejects.toMatchObject({
      code: "bad_input",
      message: expect.stringContaining('"gpt~probe:stuffing" is a robustness probe of run "gpt"') as unknown,
    });
  });
});
