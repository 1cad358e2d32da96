import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { seededRng } from "../../lib/stats/random.ts";
import { studentMultiplier } from "../../lib/stats/active.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import { makeChunks, makeJudgeLabels, makeProject, makeQueries, makeRun, makeUser } from "../helpers/factories.ts";

/**
 * A decision from creation to settled, on the real database: 60 questions × 4 pooled chunks with
 * a hidden true grade each; sysA ranks by the true grade (with noise), sysB at random, so sysA is
 * better on nDCG@10 (true difference computed below). The judge gives the true grade 70% of the
 * time. Nothing is human-labelled at first: the decision has no basis; a batch is drawn and the
 * drawn questions' discriminating pairs (the chunks sysA and sysB rank at different places; a chunk
 * both rank alike cancels out of DCG_A − DCG_B) are assigned to two annotators; while they grade it
 * waits; once they have graded (the true grades) it is settled for sysA, and its interval holds the
 * true difference computed with every pair's true grade.
 */
const tdb = useTestDatabase();
let db: Db;
let projectId: number;
let projectName: string;
const truth = new Map<string, number>();
const pools = new Map<string, string>();
/** Per question id, the chunk ids sysA and sysB rank at different places (all four are in both top 10s). */
const rankedApart = new Map<number, number[]>();

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "decide", annotatorsPerItem: 2 });
  projectId = p.id;
  projectName = p.name;
  await makeUser(db, { role: "annotator" });
  await makeUser(db, { role: "annotator" });
  const qids = Array.from({ length: 60 }, (_, i) => `q${String(i).padStart(2, "0")}`);
  const docids = qids.flatMap((q) => [0, 1, 2, 3].map((k) => `${q}_c${k}`));
  const chunks = await makeChunks(db, p.id, docids);
  const queries = await makeQueries(db, p.id, qids);
  await db.query.updateMany({ where: { projectId }, data: { status: "accepted" } });
  const rng = seededRng(11);
  const runA: [string, string, number][] = [];
  const runB: [string, string, number][] = [];
  const judge: { queryId: number; chunkId: number; grade: number }[] = [];
  const pool: { id: string; projectId: number; queryId: number; chunkId: number }[] = [];
  for (const q of qids) {
    const grades = [0, 1, 2, 3].map(() => (rng.next() < 0.6 ? 0 : 1 + rng.int(3)));
    const byA = [0, 1, 2, 3].map((k) => ({ k, s: grades[k] + rng.next() * 1.5 })).sort((a, b) => b.s - a.s);
    const byB = [0, 1, 2, 3].map((k) => ({ k, s: rng.next() })).sort((a, b) => b.s - a.s);
    byA.forEach((x, i) => runA.push([q, `${q}_c${x.k}`, 10 - i]));
    byB.forEach((x, i) => runB.push([q, `${q}_c${x.k}`, 10 - i]));
    const apart: number[] = [];
    for (let k = 0; k < 4; k++) {
      const queryId = queries.get(q)!.id;
      const chunkId = chunks.get(`${q}_c${k}`)!.id;
      if (byA.findIndex((x) => x.k === k) !== byB.findIndex((x) => x.k === k)) apart.push(chunkId);
      rankedApart.set(queryId, apart);
      truth.set(`${queryId}:${chunkId}`, grades[k]);
      judge.push({ queryId, chunkId, grade: rng.next() < 0.7 ? grades[k] : rng.int(4) });
      const id = `decide-${q}-${k}`;
      pools.set(id, `${queryId}:${chunkId}`);
      pool.push({ id, projectId, queryId, chunkId });
    }
  }
  await makeRun(db, p.id, "sysA", runA, { queries, chunks });
  await makeRun(db, p.id, "sysB", runB, { queries, chunks });
  await makeJudgeLabels(db, p.id, "j1", judge);
  await db.poolItem.createMany({ data: pool });
});

describe("a decision settled with few labels", () => {
  it("has no basis before people label anything, then waits for the drawn questions, then settles", async () => {
    const { createDecision, decisionReport, findDecision, listDecisionRows } =
      await import("../../lib/decisions/store.ts");
    const { drawBatch } = await import("../../lib/decisions/draw.ts");
    const { submitJudgement } = await import("../../lib/labels/submit.ts");
    const created = await createDecision(db, projectId, {
      name: "a-vs-b",
      systems: ["sysA", "sysB"],
      measure: "ndcg@10",
    });
    expect(created.measure).toBe("ndcg_cut_10");
    expect(created.judge).toBe("j1");
    expect(created.population).toHaveLength(60);
    expect(created.population.every((p) => !p.certain && p.uncertainty >= 0)).toBe(true);
    for (const p of created.population)
      expect(p.chunks).toEqual([...rankedApart.get(p.queryId)!].sort((a, b) => a - b));
    const apartPairs = [...rankedApart.values()].reduce((s, cs) => s + cs.length, 0);
    expect(apartPairs).toBeLessThan(60 * 4);
    let r = await decisionReport(db, projectId, created);
    expect(r.state.status).toBe("no_basis");

    const batch = await drawBatch(db, projectId, "a-vs-b", { budget: 20, perItem: 2, seed: 5 });
    expect(batch.look).toBe(1);
    expect(batch.drawn.length).toBe(20);
    // The discriminating pairs of every drawn question, to both annotators; nothing else.
    const assigned = await db.assignment.findMany({
      select: { poolItemId: true, userId: true, poolItem: { select: { queryId: true, chunkId: true } } },
    });
    const wanted = batch.drawn.flatMap((q) => rankedApart.get(q)!.map((c) => `${q}:${c}`));
    expect(new Set(assigned.map((a) => `${a.poolItem.queryId}:${a.poolItem.chunkId}`))).toEqual(new Set(wanted));
    expect(assigned).toHaveLength(wanted.length * 2);
    const stored = await findDecision(db, projectId, "a-vs-b");
    expect(Object.keys(stored.batches[0].probabilities)).toHaveLength(60);
    r = await decisionReport(db, projectId, stored);
    expect(r.state.status).toBe("labelling");
    expect(r.state.pending).toBe(20);
    // A question still to draw costs its discriminating pairs × 2 annotators, on average over the 40 left.
    const left = [...rankedApart].filter(([q]) => !batch.drawn.includes(q));
    expect(r.labelsPerQuestion).toBeCloseTo((left.reduce((s, [, cs]) => s + cs.length, 0) / 40) * 2, 12);

    let n = 0;
    for (const a of assigned) {
      const grade = truth.get(pools.get(a.poolItemId)!)!;
      await submitJudgement(db, a.userId, {
        poolItemId: a.poolItemId,
        grade,
        startSeconds: null,
        notes: "",
        flags: [],
        timeSpentMs: 1000,
        idempotencyKey: `decide-key-${n++}`,
      });
    }
    r = await decisionReport(db, projectId, await findDecision(db, projectId, "a-vs-b"));
    expect(r.state.pending).toBe(0);
    const pair = r.state.pairs[0];
    expect(pair.estimate).not.toBeNull();
    // The true mean difference of nDCG@10 over the 60 questions, with the true grades.
    const { dashboardData } = await import("../../lib/dashboard/data.ts");
    const { runRankings } = await import("../../lib/dashboard/rankings.ts");
    const { retrievalValues } = await import("../../lib/dashboard/systems.ts");
    const { data } = await dashboardData(db, projectId);
    const qrels = new Map<number, Map<number, number>>();
    for (const [key, g] of truth) {
      const [q, c] = key.split(":").map(Number);
      if (!qrels.has(q)) qrels.set(q, new Map());
      qrels.get(q)!.set(c, g);
    }
    const v = retrievalValues(data, "human", qrels, await runRankings(db, data), "linear");
    const col = v.columns.findIndex((c) => c.id === "ndcg_cut_10");
    const a = data.runs.findIndex((x) => x.system === "sysA");
    const b = data.runs.findIndex((x) => x.system === "sysB");
    const trueDiff = v.values[a][col].reduce((s, x, i) => s + x - v.values[b][col][i], 0) / v.queryIds.length;
    expect(trueDiff).toBeGreaterThan(0.05);
    expect(pair.estimate!.low).toBeLessThanOrEqual(trueDiff);
    expect(pair.estimate!.high).toBeGreaterThanOrEqual(trueDiff);
    expect(r.state.status).toBe("settled");
    expect(r.state.outcome).toBe("sysA");
    // One look at 20 of 60 questions: Hwang–Shih–DeCani spending with γ = −4 (the default, kept with the
    // decision), t = 1/3, spent α(1 − e^{−γt})/(1 − e^{−γ}) = 0.05 · (e^{4/3} − 1)/(e^4 − 1)
    // = 0.05 · 2.793668/53.598150 = 0.0026061; the interval is at that look's boundary, as Student's
    // half-width over the decision's 60 questions (lib/stats/active.ts studentMultiplier).
    expect(r.decision.spending).toEqual({ family: "hsd", gamma: -4 });
    expect(r.state.spending).toBe("hsd(-4)");
    expect(r.state.looks).toHaveLength(1);
    expect(r.state.looks[0].t).toBeCloseTo(1 / 3, 12);
    expect(r.state.looks[0].spent).toBeCloseTo(0.0026061, 6);
    expect(pair.estimate!.z).toBeCloseTo(studentMultiplier(r.state.looks[0].z, 60), 12);
    expect(pair.estimate!.z).toBeGreaterThan(r.state.looks[0].z);
    expect(await listDecisionRows(db, projectId)).toHaveLength(1);
  });

  it("is named once per project, refuses unknown systems and measures, and is driven from the command line", async () => {
    const { createDecision } = await import("../../lib/decisions/store.ts");
    await expect(
      createDecision(db, projectId, { name: "a-vs-b", systems: ["sysA", "sysB"], measure: "ndcg@10" }),
    ).rejects.toThrow(/exists already/);
    await expect(
      createDecision(db, projectId, { name: "x", systems: ["sysA", "nope"], measure: "ndcg@10" }),
    ).rejects.toThrow(/no run named "nope"/);
    await expect(
      createDecision(db, projectId, { name: "x", systems: ["sysA", "sysB"], measure: "map" }),
    ).rejects.toThrow(/unknown measure "map"/);
    const env = { DATABASE_URL: tdb.url };
    const show = runCli(["decide", "show", "a-vs-b", "--project", projectName], { env });
    expect(show.stderr).toBe("");
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/settled: sysA is better/);
    const created = runCli(
      ["decide", "create", "b-vs-a", "--compare", "sysB,sysA", "--measure", "recall@10", "--project", projectName],
      { env },
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/no basis yet/);
    const json = JSON.parse(
      runCli(["decide", "show", "b-vs-a", "--format", "json", "--project", projectName], { env }).stdout,
    ) as { state: { status: string; spending: string } };
    expect(json.state.status).toBe("no_basis");
    expect(json.state.spending).toBe("hsd(-4)");
    // Another spending family is kept with the decision; an unknown one is refused, naming the option.
    const hsd = runCli(
      [
        "decide",
        "create",
        "hsd",
        "--compare",
        "sysA,sysB",
        "--measure",
        "ndcg@10",
        "--spending",
        "hsd(-2)",
        "--project",
        projectName,
      ],
      { env },
    );
    expect(hsd.code).toBe(0);
    expect(hsd.stdout).toMatch(/spent over the looks by hsd\(-2\)/);
    const { findDecision } = await import("../../lib/decisions/store.ts");
    expect((await findDecision(db, projectId, "hsd")).spending).toEqual({ family: "hsd", gamma: -2 });
    const badSpending = runCli(
      [
        "decide",
        "create",
        "bad",
        "--compare",
        "sysA,sysB",
        "--measure",
        "ndcg@10",
        "--spending",
        "bonferroni",
        "--project",
        projectName,
      ],
      { env },
    );
    expect(badSpending.code).not.toBe(0);
    expect(badSpending.stderr).toMatch(/--spending: expected obf, pocock or hsd\(γ\)/);
    // A decision stored before the family was kept (the population a bare array) reads with the default of
    // that time, O'Brien–Fleming type, so its earlier looks keep their boundaries.
    const stored = await findDecision(db, projectId, "hsd");
    await db.decision.update({ where: { id: stored.id }, data: { population: stored.population } });
    expect((await findDecision(db, projectId, "hsd")).spending).toEqual({ family: "obf" });
    expect((await findDecision(db, projectId, "hsd")).population).toEqual(stored.population);
    const badBudget = runCli(["assign", "--decision", "b-vs-a", "--project", projectName], { env });
    expect(badBudget.code).not.toBe(0);
    expect(badBudget.stderr).toMatch(/--decision and --budget go together/);
    const plan = runCli(["decide", "plan", "a-vs-b", "--differences", "0.05,0.2", "--project", projectName], { env });
    expect(plan.code).toBe(0);
    // A drawn question costs its discriminating pairs: their mean over the 60 questions.
    const perQuestion = ([...rankedApart.values()].reduce((s, cs) => s + cs.length, 0) / 60).toFixed(1);
    expect(plan.stdout).toContain(
      `60 questions, ${perQuestion} pooled pairs per question to label, 2 annotators per pair`,
    );
    expect(plan.stdout).toMatch(/^0\.2 +(\d+ \(\d+\)|not reachable) +(\d+ \(\d+\)|not reachable)$/m);
    const deleted = runCli(["decide", "delete", "b-vs-a", "--project", projectName], { env });
    expect(deleted.code).toBe(0);
    expect(runCli(["decide", "show", "b-vs-a", "--project", projectName], { env }).stderr).toMatch(
      /no decision named "b-vs-a"/,
    );
  });
});
