/**
 * The demo's generated answers (issue 24 item 8): two generator configurations of the twelve demo
 * questions, so the dashboard's Generation section has numbers on first start.
 *
 * - demo/answers/gen-a.jsonl: answers written from hybrid-rrf's top 3 chunks; gen-b.jsonl: from
 *   vector's top chunk only (one line per question: query, answer, context chunk ids in order);
 * - demo/answers/labels.jsonl: people's labels of q01–q08 for both systems (claims s/p/n/x and
 *   relevance 0–3), given by ann1 and ann2 alike unless the line has `ann2` (their one
 *   disagreement, gen-a q08, settled by the line's `adjudication`); q09–q12 are left to label;
 * - demo/answers/judge.jsonl: the answer judge `gpt-judge` on all 24 answers (somewhat lenient:
 *   it calls partly supported claims supported, and claims true per the video but absent from the
 *   context not supported).
 *
 * Answers are split into claims on sentence ends (a full stop, question or exclamation mark
 * followed by a space and a capital letter). Rows are written with Prisma in one transaction per
 * table group; a project that already has answers is left as it is (running twice changes nothing).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Db } from "../db/client.ts";
import { ZClaimLabel } from "./labels.ts";

export const DEMO_ANSWER_SYSTEMS = [
  { system: "gen-a", file: "demo/answers/gen-a.jsonl" },
  { system: "gen-b", file: "demo/answers/gen-b.jsonl" },
] as const;
export const DEMO_ANSWER_JUDGE = "gpt-judge";

const ZDemoAnswer = z.object({ query: z.string(), answer: z.string(), context: z.array(z.string()) });
const ZDemoLabel = z.object({ claims: z.array(ZClaimLabel), relevance: z.number().int().min(0).max(3) });
const ZDemoHuman = ZDemoLabel.extend({
  system: z.string(),
  query: z.string(),
  ann2: ZDemoLabel.optional(),
  adjudication: ZDemoLabel.extend({ rationale: z.string() }).optional(),
});
const ZDemoJudge = ZDemoLabel.extend({ system: z.string(), query: z.string() });

/** Sentences as the demo's claims: split after . ! ? followed by whitespace and a capital letter. */
export function demoSentences(text: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  const re = /[.!?](?=\s+[A-Z])/g;
  let from = 0;
  const push = (end: number) => {
    const raw = text.slice(from, end);
    const lead = raw.length - raw.trimStart().length;
    const t = raw.trim();
    if (t) out.push({ text: t, start: from + lead, end: from + lead + t.length });
  };
  for (let m = re.exec(text); m; m = re.exec(text)) {
    push(m.index + 1);
    from = m.index + 1;
  }
  push(text.length);
  return out;
}

function readLines<T>(root: string, file: string, schema: z.ZodType<T>): T[] {
  return readFileSync(join(root, file), "utf8")
    .split("\n")
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => line.trim() !== "")
    .map(({ line, n }) => {
      const r = schema.safeParse(JSON.parse(line));
      if (!r.success) throw new Error(`${file}:${n}: ${r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
      return r.data;
    });
}

export type TDemoAnswersResult = { answers: number; claims: number; labelled: number; adjudicated: number; judged: number; skipped: boolean };

/** Writes the demo's answers, claims, human and judge labels into the project (see the file comment). */
export async function seedDemoAnswers(db: Db, projectName = "demo", root = process.cwd()): Promise<TDemoAnswersResult> {
  const project = await db.project.findUniqueOrThrow({ where: { name: projectName }, select: { id: true } });
  if ((await db.answer.count({ where: { projectId: project.id } })) > 0) return { answers: 0, claims: 0, labelled: 0, adjudicated: 0, judged: 0, skipped: true };
  const [ann1, ann2, adjudicator] = await Promise.all(["ann1@example.com", "ann2@example.com", "adjudicator@example.com"].map((email) => db.user.findUniqueOrThrow({ where: { email }, select: { id: true } })));
  const queries = new Map((await db.query.findMany({ where: { projectId: project.id }, select: { id: true, externalId: true } })).map((q) => [q.externalId, q.id]));
  const chunks = new Map((await db.chunk.findMany({ where: { projectId: project.id, chunking: { name: "default" } }, select: { id: true, externalId: true } })).map((c) => [c.externalId, c.id]));
  const human = readLines(root, "demo/answers/labels.jsonl", ZDemoHuman);
  const judge = readLines(root, "demo/answers/judge.jsonl", ZDemoJudge);

  type TPlanned = { system: string; qid: string; queryId: number; text: string; context: number[]; claims: ReturnType<typeof demoSentences> };
  const planned: TPlanned[] = [];
  for (const { system, file } of DEMO_ANSWER_SYSTEMS)
    for (const [i, a] of readLines(root, file, ZDemoAnswer).entries()) {
      const queryId = queries.get(a.query);
      if (queryId === undefined) throw new Error(`${file}:${i + 1}: query: no question "${a.query}" in project ${projectName}`);
      const context = a.context.map((c) => {
        const id = chunks.get(c);
        if (id === undefined) throw new Error(`${file}:${i + 1}: context: no chunk "${c}" in the default chunking`);
        return id;
      });
      planned.push({ system, qid: a.query, queryId, text: a.answer, context, claims: demoSentences(a.answer) });
    }
  const find = (system: string, qid: string, what: string) => {
    const p = planned.find((x) => x.system === system && x.qid === qid);
    if (!p) throw new Error(`${what}: no demo answer of ${system} for ${qid}`);
    return p;
  };
  const check = (system: string, qid: string, claims: readonly string[], what: string) => {
    const p = find(system, qid, what);
    if (claims.length !== p.claims.length) throw new Error(`${what}: ${system} ${qid}: ${claims.length} claim labels for ${p.claims.length} claims`);
  };
  for (const h of human) {
    check(h.system, h.query, h.claims, "demo/answers/labels.jsonl");
    if (h.ann2) check(h.system, h.query, h.ann2.claims, "demo/answers/labels.jsonl ann2");
  }
  for (const j of judge) check(j.system, j.query, j.claims, "demo/answers/judge.jsonl");

  const { createHash, randomUUID } = await import("node:crypto");
  const ids = new Map(planned.map((p) => [`${p.system}/${p.qid}`, randomUUID()]));
  const idOf = (system: string, qid: string) => ids.get(`${system}/${qid}`)!;
  // The disagreement the adjudication settles was sticky (Answer.disputedAt), as the labelling rule makes it.
  const disputed = new Set(human.filter((h) => h.adjudication).map((h) => idOf(h.system, h.query)));
  const now = new Date();
  await db.$transaction(async (tx) => {
    await tx.answer.createMany({
      data: planned.map((p) => ({
        id: idOf(p.system, p.qid),
        projectId: project.id,
        system: p.system,
        queryId: p.queryId,
        text: p.text,
        contentHash: createHash("sha256").update(JSON.stringify({ answer: p.text, context: p.context })).digest("hex"),
        disputedAt: disputed.has(idOf(p.system, p.qid)) ? now : null,
      })),
    });
    await tx.answerContext.createMany({ data: planned.flatMap((p) => p.context.map((chunkId, position) => ({ answerId: idOf(p.system, p.qid), position, chunkId }))) });
    await tx.answerClaim.createMany({ data: planned.flatMap((p) => p.claims.map((c, position) => ({ answerId: idOf(p.system, p.qid), version: 1, position, text: c.text, startChar: c.start, endChar: c.end, source: "sentence" }))) });
    // Every answer goes to both annotators (q09–q12 are theirs to label).
    await tx.answerAssignment.createMany({ data: planned.flatMap((p, i) => [ann1, ann2].map((u, k) => ({ answerId: idOf(p.system, p.qid), userId: u.id, orderKey: ((i * 7 + k * 3) % 24) / 24 }))) });
    await tx.answerJudgement.createMany({
      data: human.flatMap((h) => {
        const answerId = idOf(h.system, h.query);
        const second = h.ann2 ?? { claims: h.claims, relevance: h.relevance };
        return [
          { answerId, userId: ann1.id, claimVersion: 1, claimLabels: JSON.stringify(h.claims), relevance: h.relevance, timeSpentMs: 40_000, idempotencyKey: `demo-answer-ann1-${h.system}-${h.query}` },
          { answerId, userId: ann2.id, claimVersion: 1, claimLabels: JSON.stringify(second.claims), relevance: second.relevance, timeSpentMs: 45_000, idempotencyKey: `demo-answer-ann2-${h.system}-${h.query}` },
        ];
      }),
    });
    await tx.answerAdjudication.createMany({
      data: human.flatMap((h) => (h.adjudication ? [{ answerId: idOf(h.system, h.query), adjudicatorId: adjudicator.id, claimVersion: 1, claimLabels: JSON.stringify(h.adjudication.claims), relevance: h.adjudication.relevance, rationale: h.adjudication.rationale }] : [])),
    });
    await tx.answerJudgeLabel.createMany({
      data: judge.map((j) => ({
        projectId: project.id,
        judge: DEMO_ANSWER_JUDGE,
        answerId: idOf(j.system, j.query),
        claimVersion: 1,
        claimLabels: JSON.stringify(j.claims),
        relevance: j.relevance,
        provenance: JSON.stringify({ source: "demo/answers/judge.jsonl", note: "demo labels written by hand in the manner of an LLM judge" }),
      })),
    });
  });
  return {
    answers: planned.length,
    claims: planned.reduce((s, p) => s + p.claims.length, 0),
    labelled: human.length,
    adjudicated: human.filter((h) => h.adjudication).length,
    judged: judge.length,
    skipped: false,
  };
}
