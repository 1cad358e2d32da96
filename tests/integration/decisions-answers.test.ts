import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { seededRng } from "../../lib/stats/random.ts";
import { makeAnswer } from "../helpers/answer-items.ts";
import { runCli } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeProject, makeQueries, makeUser } from "../helpers/factories.ts";

/**
 * A decision between two generators on faithfulness, from creation to settled, on the real
 * database: 60 accepted questions, each answered by genA and genB with four claims. Each claim has a
 * hidden true label: supported with probability 0.85 for genA and 0.5 for genB, else not in the
 * context. The answer judge "aj" gives the true label 70% of the time, else a label at random. Nothing
 * is human-labelled at first; a batch of 20 questions is drawn and the compared answers of each (two
 * per question) are assigned to both annotators; once they have labelled them (the true labels) the
 * decision settles for genA, and its interval holds the true difference computed with every
 * answer's true labels.
 */
const tdb = useTestDatabase();
let db: Db;
let projectId: number;
let projectName: string;
const LABELS = ["s", "p", "n", "x"] as const;
/** Answer id → its claims' true labels. */
const truth = new Map<string, ("s" | "n")[]>();
/** Question id → [genA's answer id, genB's]. */
const answersOf = new Map<number, [string, string]>();
/** A question answered by genA alone: not in the decision. */
let loneQuestion = 0;

const faithful = (labels: readonly string[]) =>
  labels.length ? labels.reduce((s, l) => s + (l === "s" ? 1 : l === "p" ? 0.5 : 0), 0) / labels.length : 1;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const p = await makeProject(db, { name: "decide-answers", annotatorsPerItem: 2 });
  projectId = p.id;
  projectName = p.name;
  await makeUser(db, { role: "annotator" });
  await makeUser(db, { role: "annotator" });
  const qids = Array.from({ length: 61 }, (_, i) => `q${String(i).padStart(2, "0")}`);
  const queries = await makeQueries(db, p.id, qids);
  await db.query.updateMany({ where: { projectId }, data: { status: "accepted" } });
  const rng = seededRng(23);
  for (const qid of qids) {
    const queryId = queries.get(qid)!.id;
    const ids: string[] = [];
    for (const [system, pSupported] of [
      ["genA", 0.85],
      ["genB", 0.5],
    ] as const) {
      if (qid === "q60" && system === "genB") continue;
      const claims = [0, 1, 2, 3].map((k) => `${system} says ${qid} fact ${k}.`);
      const a = await makeAnswer(db, projectId, { system, queryId, claims, context: [] });
      const labels = claims.map(() => (rng.next() < pSupported ? ("s" as const) : ("n" as const)));
      truth.set(a.id, labels);
      ids.push(a.id);
      await db.answerJudgeLabel.create({
        data: {
          projectId,
          judge: "aj",
          answerId: a.id,
          claimVersion: 1,
          claimLabels: JSON.stringify(labels.map((l) => (rng.next() < 0.7 ? l : LABELS[rng.int(4)]))),
          relevance: 2,
          provenance: JSON.stringify({ run: 1, model: "scripted" }),
        },
      });
    }
    if (ids.length === 2) answersOf.set(queryId, [ids[0], ids[1]]);
    else loneQuestion = queryId;
  }
});

describe("a decision between generators", () => {
  it("draws questions, assigns their compared answers, and settles on the people's labels", async () => {
    const { createDecision, decisionReport, findDecision } = await import("../../lib/decisions/store.ts");
    const { drawBatch } = await import("../../lib/decisions/draw.ts");
    const { submitAnswerJudgement } = await import("../../lib/answers/submit.ts");
    const created = await createDecision(db, projectId, {
      name: "gen",
      systems: ["genA", "genB"],
      measure: "faithfulness",
    });
    expect(created.measure).toBe("faithfulness");
    expect(created.judge).toBe("aj");
    // Every question both generators answered; the one genB did not answer is left out.
    expect(created.population.map((p) => p.queryId).sort((a, b) => a - b)).toEqual(
      [...answersOf.keys()].sort((a, b) => a - b),
    );
    expect(created.population.some((p) => p.queryId === loneQuestion)).toBe(false);
    expect(created.population.every((p) => !p.certain && p.uncertainty > 0 && !p.chunks)).toBe(true);
    let r = await decisionReport(db, projectId, created);
    expect(r.state.status).toBe("no_basis");
    // A question still to draw costs one label per compared answer and annotator.
    expect(r.labelsPerQuestion).toBe(4);

    const batch = await drawBatch(db, projectId, "gen", { budget: 20, perItem: 2, seed: 3 });
    expect(batch.drawn).toHaveLength(20);
    expect(batch.assignment?.created).toBe(20 * 2 * 2);
    // The compared answers of every drawn question, to both annotators; no pool item, nothing else.
    const assigned = await db.answerAssignment.findMany({ select: { answerId: true, userId: true } });
    const wanted = batch.drawn.flatMap((q) => answersOf.get(q)!);
    expect(new Set(assigned.map((a) => a.answerId))).toEqual(new Set(wanted));
    expect(assigned).toHaveLength(wanted.length * 2);
    expect(await db.assignment.count()).toBe(0);
    r = await decisionReport(db, projectId, await findDecision(db, projectId, "gen"));
    expect(r.state.status).toBe("labelling");
    expect(r.state.pending).toBe(20);

    // One annotator's labels are not a final label yet (two per answer): still waiting.
    let n = 0;
    const label = (a: { answerId: string; userId: string }) =>
      submitAnswerJudgement(db, a.userId, {
        answerId: a.answerId,
        claimVersion: 1,
        claimLabels: truth.get(a.answerId)!,
        relevance: 2,
        idempotencyKey: `decide-answer-key-${n++}`,
      });
    const firstUser = assigned[0].userId;
    for (const a of assigned.filter((x) => x.userId === firstUser)) await label(a);
    r = await decisionReport(db, projectId, await findDecision(db, projectId, "gen"));
    expect(r.state.status).toBe("labelling");
    for (const a of assigned.filter((x) => x.userId !== firstUser)) await label(a);

    r = await decisionReport(db, projectId, await findDecision(db, projectId, "gen"));
    expect(r.state.pending).toBe(0);
    const pair = r.state.pairs[0];
    // The true mean difference in faithfulness over the decision's 60 questions, from every answer's true labels.
    let sum = 0;
    for (const [a, b] of answersOf.values()) sum += faithful(truth.get(a)!) - faithful(truth.get(b)!);
    const trueDiff = sum / answersOf.size;
    expect(trueDiff).toBeGreaterThan(0.2);
    expect(pair.estimate!.low).toBeLessThanOrEqual(trueDiff);
    expect(pair.estimate!.high).toBeGreaterThanOrEqual(trueDiff);
    expect(r.state.status).toBe("settled");
    expect(r.state.outcome).toBe("genA");
  });

  it("refuses a generator without answers and a retrieval measure's judge, and is driven from the command line", async () => {
    const { createDecision } = await import("../../lib/decisions/store.ts");
    await expect(
      createDecision(db, projectId, { name: "x", systems: ["genA", "nope"], measure: "faithfulness" }),
    ).rejects.toThrow(/compare: no answers of system "nope".*genA, genB/);
    await expect(
      createDecision(db, projectId, { name: "x", systems: ["genA", "genB"], measure: "relevance", judge: "j9" }),
    ).rejects.toThrow(/judge: no answer judge named "j9"; answer judges: aj/);
    expect(await db.decision.count({ where: { name: "x" } })).toBe(0);
    const env = { DATABASE_URL: tdb.url };
    const show = runCli(["decide", "show", "gen", "--project", projectName], { env });
    expect(show.stderr).toBe("");
    expect(show.stdout).toMatch(/genA vs genB on faithfulness/);
    expect(show.stdout).toMatch(/settled: genA is better/);
    const created = runCli(
      [
        "decide",
        "create",
        "strict",
        "--compare",
        "genB,genA",
        "--measure",
        "faithfulness_strict",
        "--project",
        projectName,
      ],
      { env },
    );
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    const plan = runCli(["decide", "plan", "strict", "--project", projectName], { env });
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/2\.0 answers per question to label, 2 annotators per answer/);
    const assign = runCli(
      ["assign", "--decision", "strict", "--budget", "5", "--seed", "1", "--project", projectName],
      {
        env,
      },
    );
    expect(assign.stderr).toBe("");
    expect(assign.code).toBe(0);
    expect(assign.stdout).toMatch(/batch 1 of decision strict/);
  });
});
