import type { Db } from "../../lib/db/client.ts";
import { makeChunks, makeProject, makeQueries, makeUser } from "./factories.ts";

/**
 * A small project with generated answers, written directly (the shape lib/answers/demo.ts
 * writes), for the Generation section's and the exports' integration tests. Values worked by hand
 * in tests/integration/generation-panel.test.ts.
 *
 * Questions q1, q2, q3; chunks a, b, c, d (one chunking). Reference chunk labels (imported, "gold"):
 *   q1: a=3, b=0      q2: c=1      q3: d=0
 * Answers (system, question: context; human claim labels + relevance; judge "judge-a"):
 *   sysA q1: [a, b]   human s s p / 3 (Ann and Bob agree)      judge s p p / 3
 *   sysA q2: [d]      human n x / 1                             judge n n / 1
 *   sysA q3: [d]      human s / 2                               judge s / 2
 *   sysB q1: [a, b]   human p n / 2                             judge s n / 2
 *   sysB q2: [c]      Ann s p / 3, Bob s n / 3: disputed, adjudicated s p / 3   judge s s / 3
 *   sysB q3: [a]      human no claims / 0 (both agree)          no judge label
 */
export const GEN_ANSWERS = [
  {
    system: "sysA",
    qid: "q1",
    text: "Robertson developed it. Sparck Jones did too. In the 1970s.",
    context: ["a", "b"],
    human: { labels: ["s", "s", "p"], relevance: 3 },
    judge: { labels: ["s", "p", "p"], relevance: 3 },
  },
  {
    system: "sysA",
    qid: "q2",
    text: "It came from Okapi. At City University.",
    context: ["d"],
    human: { labels: ["n", "x"], relevance: 1 },
    judge: { labels: ["n", "n"], relevance: 1 },
  },
  {
    system: "sysA",
    qid: "q3",
    text: "The default is 0.75.",
    context: ["d"],
    human: { labels: ["s"], relevance: 2 },
    judge: { labels: ["s"], relevance: 2 },
  },
  {
    system: "sysB",
    qid: "q1",
    text: "Probably Salton. Not sure.",
    context: ["a", "b"],
    human: { labels: ["p", "n"], relevance: 2 },
    judge: { labels: ["s", "n"], relevance: 2 },
  },
  {
    system: "sysB",
    qid: "q2",
    text: "Okapi at City. In London.",
    context: ["c"],
    human: null,
    judge: { labels: ["s", "s"], relevance: 3 },
  },
  { system: "sysB", qid: "q3", text: "", context: ["a"], human: { labels: [], relevance: 0 }, judge: null },
] as const;

export async function makeGenerationProject(db: Db, name = "gen") {
  const project = await makeProject(db, { name });
  const chunks = await makeChunks(db, project.id, ["a", "b", "c", "d"]);
  const queries = await makeQueries(db, project.id, ["q1", "q2", "q3"]);
  const gold: [string, string, number][] = [
    ["q1", "a", 3],
    ["q1", "b", 0],
    ["q2", "c", 1],
    ["q3", "d", 0],
  ];
  await db.referenceLabel.createMany({
    data: gold.map(([q, c, grade]) => ({
      projectId: project.id,
      source: "gold",
      queryId: queries.get(q)!.id,
      chunkId: chunks.get(c)!.id,
      grade,
    })),
  });
  const ann = await makeUser(db, { name: "Ann" });
  const bob = await makeUser(db, { name: "Bob" });
  const adj = await makeUser(db, { name: "Ada", role: "adjudicator" });
  const ids = new Map<string, string>();
  for (const a of GEN_ANSWERS) {
    const disputed = a.system === "sysB" && a.qid === "q2";
    const answer = await db.answer.create({
      data: {
        projectId: project.id,
        system: a.system,
        queryId: queries.get(a.qid)!.id,
        text: a.text,
        contentHash: `${a.system}-${a.qid}`,
        disputedAt: disputed ? new Date() : null,
      },
    });
    ids.set(`${a.system}/${a.qid}`, answer.id);
    await db.answerContext.createMany({
      data: a.context.map((c, position) => ({ answerId: answer.id, position, chunkId: chunks.get(c)!.id })),
    });
    const sentences = a.text === "" ? [] : a.text.split(/(?<=\.)\s+/);
    await db.answerClaim.createMany({
      data: sentences.map((text, position) => ({ answerId: answer.id, version: 1, position, text })),
    });
    const label = (
      userId: string,
      labels: readonly string[],
      relevance: number,
      extra: { notes?: string; flags?: string[] } = {},
    ) =>
      db.answerJudgement.create({
        data: {
          answerId: answer.id,
          userId,
          claimVersion: 1,
          claimLabels: JSON.stringify(labels),
          relevance,
          notes: extra.notes ?? "",
          flags: JSON.stringify(extra.flags ?? []),
          idempotencyKey: `${answer.id}-${userId}`,
        },
      });
    if (a.human) {
      await label(
        ann.id,
        a.human.labels,
        a.human.relevance,
        a.qid === "q1" && a.system === "sysA" ? { notes: "dates are vague", flags: ["unsure"] } : {},
      );
      await label(bob.id, a.human.labels, a.human.relevance);
    }
    if (disputed) {
      await label(ann.id, ["s", "p"], 3);
      await label(bob.id, ["s", "n"], 3);
      await db.answerAdjudication.create({
        data: {
          answerId: answer.id,
          adjudicatorId: adj.id,
          claimVersion: 1,
          claimLabels: JSON.stringify(["s", "p"]),
          relevance: 3,
          rationale: "the second claim is half there",
        },
      });
    }
    if (a.judge)
      await db.answerJudgeLabel.create({
        data: {
          projectId: project.id,
          judge: "judge-a",
          answerId: answer.id,
          claimVersion: 1,
          claimLabels: JSON.stringify(a.judge.labels),
          relevance: a.judge.relevance,
          provenance: JSON.stringify({ run: 1, model: "fake" }),
        },
      });
  }
  return { project, ids, users: { ann, bob, adj } };
}
