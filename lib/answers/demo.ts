/**
 * The demo's generated answers: two generator configurations of the twelve demo
 * questions, so the dashboard's Generation section has numbers on first start.
 *
 * - demo/answers/gen-a.jsonl: answers written from hybrid-rrf's top 3 chunks; gen-b.jsonl: from
 *   vector's top chunk only (the answers file of docs/formats.md: qid, answer, context chunk ids in
 *   order), imported with `importAnswers` (claims split by `splitClaims`) and assigned to both
 *   annotators with `assignAnswers`, as `assessor import answers` and `assessor assign --answers` do;
 * - demo/answers/labels.jsonl: people's labels of q01–q08 for both systems (claims s/p/n/x and
 *   relevance 0–3), submitted by ann1 and ann2 alike through `submitAnswerJudgement` unless the line
 *   has `ann2` (their one disagreement, gen-a q08, settled by the line's `adjudication` through
 *   `adjudicateAnswer`); q09–q12 are left to label;
 * - demo/answers/judge.jsonl: the answer judge `gpt-judge` on all 24 answers (labels written by hand
 *   in the manner of an LLM judge, somewhat lenient: it calls partly supported claims supported, and
 *   claims true per the video but absent from the context not supported), stored as AnswerJudgeLabel
 *   rows as an answer judge run stores them.
 *
 * A project that already has answers is left as it is (running twice changes nothing).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { adjudicateAnswer } from "./adjudicate.ts";
import { assignAnswers } from "./assign.ts";
import { importAnswers } from "./import.ts";
import { ZClaimLabel } from "./labels.ts";
import { submitAnswerJudgement } from "./submit.ts";

export const DEMO_ANSWER_SYSTEMS = [
  { system: "gen-a", file: "demo/answers/gen-a.jsonl" },
  { system: "gen-b", file: "demo/answers/gen-b.jsonl" },
] as const;
export const DEMO_ANSWER_JUDGE = "gpt-judge";
const DEMO_SEED = 24;

const ZDemoLabel = z.object({ claims: z.array(ZClaimLabel), relevance: z.number().int().min(0).max(3) });
const ZDemoHuman = ZDemoLabel.extend({
  system: z.string(),
  query: z.string(),
  ann2: ZDemoLabel.optional(),
  adjudication: ZDemoLabel.extend({ rationale: z.string() }).optional(),
});
const ZDemoJudge = ZDemoLabel.extend({ system: z.string(), query: z.string() });

function readLines<T>(root: string, file: string, schema: z.ZodType<T>): T[] {
  return readFileSync(join(root, file), "utf8")
    .split("\n")
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => line.trim() !== "")
    .map(({ line, n }) => {
      const r = schema.safeParse(JSON.parse(line));
      if (!r.success)
        throw new Error(`${file}:${n}: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
      return r.data;
    });
}

export type TDemoAnswersResult = {
  answers: number;
  claims: number;
  labelled: number;
  adjudicated: number;
  judged: number;
  skipped: boolean;
};

/** Imports, assigns and labels the demo's answers in the project (see the file comment). */
export async function seedDemoAnswers(db: Db, projectName = "demo", root = process.cwd()): Promise<TDemoAnswersResult> {
  const project = await db.project.findUniqueOrThrow({ where: { name: projectName }, select: { id: true } });
  if ((await db.answer.count({ where: { projectId: project.id } })) > 0)
    return { answers: 0, claims: 0, labelled: 0, adjudicated: 0, judged: 0, skipped: true };
  const [ann1, ann2, adjudicator] = await Promise.all(
    ["ann1@example.com", "ann2@example.com", "adjudicator@example.com"].map((email) =>
      db.user.findUniqueOrThrow({ where: { email }, select: { id: true, email: true } }),
    ),
  );
  const human = readLines(root, "demo/answers/labels.jsonl", ZDemoHuman);
  const judge = readLines(root, "demo/answers/judge.jsonl", ZDemoJudge);

  for (const { system, file } of DEMO_ANSWER_SYSTEMS)
    await importAnswers(db, project.id, { system, path: join(root, file) }, { chunking: "default" });
  await assignAnswers(db, project.id, { annotators: [ann1.email, ann2.email], perItem: 2, seed: DEMO_SEED });

  const answers = await db.answer.findMany({
    where: { projectId: project.id },
    select: {
      id: true,
      system: true,
      claimVersion: true,
      query: { select: { externalId: true } },
      _count: { select: { claims: true } },
    },
  });
  const find = (system: string, qid: string, what: string, labels: readonly string[]) => {
    const a = answers.find((x) => x.system === system && x.query.externalId === qid);
    if (!a) throw new Error(`${what}: no demo answer of ${system} for ${qid}`);
    if (labels.length !== a._count.claims)
      throw new Error(`${what}: ${system} ${qid}: ${labels.length} claim labels for ${a._count.claims} claims`);
    return a;
  };
  // Check every file before writing a label.
  for (const h of human) {
    find(h.system, h.query, "demo/answers/labels.jsonl", h.claims);
    if (h.ann2) find(h.system, h.query, "demo/answers/labels.jsonl ann2", h.ann2.claims);
  }
  for (const j of judge) find(j.system, j.query, "demo/answers/judge.jsonl", j.claims);

  for (const h of human) {
    const a = find(h.system, h.query, "demo/answers/labels.jsonl", h.claims);
    const second = h.ann2 ?? { claims: h.claims, relevance: h.relevance };
    const label = (
      who: string,
      l: { claims: readonly z.infer<typeof ZClaimLabel>[]; relevance: number },
      ms: number,
    ) => ({
      answerId: a.id,
      claimVersion: a.claimVersion,
      claimLabels: [...l.claims],
      relevance: l.relevance,
      timeSpentMs: ms,
      idempotencyKey: `demo-answer-${who}-${h.system}-${h.query}`,
    });
    await submitAnswerJudgement(db, ann1.id, label("ann1", h, 40_000));
    await submitAnswerJudgement(db, ann2.id, label("ann2", second, 45_000));
    if (h.adjudication)
      await adjudicateAnswer(db, adjudicator.id, {
        answerId: a.id,
        claimVersion: a.claimVersion,
        claimLabels: h.adjudication.claims,
        relevance: h.adjudication.relevance,
        rationale: h.adjudication.rationale,
        idempotencyKey: `demo-answer-adjudication-${h.system}-${h.query}`,
      });
  }
  await db.answerJudgeLabel.createMany({
    data: judge.map((j) => {
      const a = find(j.system, j.query, "demo/answers/judge.jsonl", j.claims);
      return {
        projectId: project.id,
        judge: DEMO_ANSWER_JUDGE,
        answerId: a.id,
        claimVersion: a.claimVersion,
        claimLabels: JSON.stringify(j.claims),
        relevance: j.relevance,
        provenance: JSON.stringify({
          source: "demo/answers/judge.jsonl",
          note: "demo labels written by hand in the manner of an LLM judge",
        }),
      };
    }),
  });
  return {
    answers: answers.length,
    claims: answers.reduce((s, a) => s + a._count.claims, 0),
    labelled: human.length,
    adjudicated: human.filter((h) => h.adjudication).length,
    judged: judge.length,
    skipped: false,
  };
}
