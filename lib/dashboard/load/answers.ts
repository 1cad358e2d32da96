/**
 * The Generation section's loading (lib/dashboard/generation.ts computes from it): answers and
 * their contexts are read once per "structure" version (answer count, newest answer, context
 * rows, claim versions, newest import record); labels (human judgements, adjudications, judge
 * labels) once per "labels" version (their counts, newest update, adjudication revisions, judge
 * tasks finished): after a label change only the labels are read again. The state is kept in the
 * project's lineage of cache objects (lib/dashboard/load/cache.ts).
 */
import type { Db } from "../../db/client.ts";
import { finalAnswerLabel, parseClaimLabels, type TAnswerLabelInput, type TClaimLabel } from "../../answers/labels.ts";
import { ruleSettings } from "../../labels/load.ts";
import type { TRuleSettings } from "../../labels/rule.ts";
import type { TLineage } from "./cache.ts";

export type TAnswer = { id: string; system: string; queryId: number; qid: string; context: number[] };
export type TJudgeLabel = { claimVersion: number; claimLabels: TClaimLabel[] | null; relevance: number | null };
export type TLabels = {
  /** The final human label per answer id (lib/answers/labels.ts finalAnswerLabel). */
  human: Map<string, TAnswerLabelInput>;
  /** Judge name → answer id → its label; names sorted. */
  judges: Map<string, Map<string, TJudgeLabel>>;
};
/** The section as last loaded, with the versions it was read at and the panels computed from it. */
export type TGenerationState = {
  structure: string;
  answers: Promise<TAnswer[]>;
  humanKey: string;
  human: Promise<TLabels["human"]>;
  judgeKey: string;
  judges: Promise<TLabels["judges"]>;
  results: Map<string, unknown>;
};

const stamp = (d: Date | null | undefined) => (d ? d.getTime() : 0);

async function versions(db: Db, projectId: number): Promise<{ structure: string; human: string; judge: string }> {
  const [answers, contexts, imports, judgements, adjudications, judgeLabels, tasks, settings, disputed] =
    await Promise.all([
      db.answer.aggregate({
        where: { projectId },
        _count: { _all: true },
        _max: { createdAt: true },
        _sum: { claimVersion: true },
      }),
      db.answerContext.count({ where: { answer: { projectId } } }),
      db.importRecord.aggregate({ where: { projectId }, _max: { id: true } }),
      db.answerJudgement.aggregate({
        where: { answer: { projectId } },
        _count: { _all: true },
        _max: { updatedAt: true, id: true },
      }),
      db.answerAdjudication.aggregate({
        where: { answer: { projectId } },
        _count: { _all: true },
        _sum: { revision: true },
        _max: { createdAt: true, id: true },
      }),
      db.answerJudgeLabel.aggregate({
        where: { projectId },
        _count: { _all: true },
        _max: { id: true, createdAt: true },
      }),
      db.answerJudgeTask.aggregate({
        where: { answer: { projectId } },
        _count: { _all: true },
        _max: { finishedAt: true },
      }),
      ruleSettings(db, projectId),
      db.answer.count({ where: { projectId, disputedAt: { not: null } } }),
    ]);
  const structure = [
    answers._count._all,
    stamp(answers._max.createdAt),
    answers._sum.claimVersion ?? 0,
    contexts,
    imports._max.id ?? 0,
  ].join(",");
  const human = [
    judgements._count._all,
    stamp(judgements._max.updatedAt),
    judgements._max.id ?? 0,
    adjudications._count._all,
    adjudications._sum.revision ?? 0,
    stamp(adjudications._max.createdAt),
    disputed,
    settings.annotatorsPerItem,
    settings.disagreementRule,
  ].join(",");
  const judge = [
    judgeLabels._count._all,
    judgeLabels._max.id ?? 0,
    stamp(judgeLabels._max.createdAt),
    tasks._count._all,
    stamp(tasks._max.finishedAt),
  ].join(",");
  return { structure, human, judge };
}

async function loadAnswers(db: Db, projectId: number): Promise<TAnswer[]> {
  const [answers, contexts] = await Promise.all([
    db.answer.findMany({
      where: { projectId },
      select: { id: true, system: true, queryId: true, query: { select: { externalId: true } } },
    }),
    db.answerContext.findMany({
      where: { answer: { projectId } },
      select: { answerId: true, position: true, chunkId: true },
    }),
  ]);
  const byAnswer = new Map<string, { position: number; chunkId: number }[]>();
  for (const c of contexts) {
    let list = byAnswer.get(c.answerId);
    if (!list) byAnswer.set(c.answerId, (list = []));
    list.push(c);
  }
  return answers.map((a) => ({
    id: a.id,
    system: a.system,
    queryId: a.queryId,
    qid: a.query.externalId,
    context: (byAnswer.get(a.id) ?? []).sort((x, y) => x.position - y.position).map((c) => c.chunkId),
  }));
}

function parseOrNull(json: string | null): TClaimLabel[] | null {
  if (json === null) return null;
  try {
    return parseClaimLabels(json);
  } catch {
    return null;
  }
}

async function loadHuman(db: Db, projectId: number, settings: TRuleSettings): Promise<TLabels["human"]> {
  const [disputedRows, judgements, adjudications] = await Promise.all([
    db.answer.findMany({ where: { projectId, disputedAt: { not: null } }, select: { id: true } }),
    db.answerJudgement.findMany({
      where: { answer: { projectId } },
      select: { answerId: true, claimVersion: true, claimLabels: true, relevance: true },
      orderBy: { id: "asc" },
    }),
    db.answerAdjudication.findMany({
      where: { answer: { projectId } },
      select: { answerId: true, claimVersion: true, claimLabels: true, relevance: true },
    }),
  ]);
  const byAnswer = new Map<string, TAnswerLabelInput[]>();
  for (const j of judgements) {
    const labels = parseOrNull(j.claimLabels);
    if (!labels) continue;
    let list = byAnswer.get(j.answerId);
    if (!list) byAnswer.set(j.answerId, (list = []));
    list.push({ claimVersion: j.claimVersion, claimLabels: labels, relevance: j.relevance });
  }
  const adjudicationOf = new Map<string, TAnswerLabelInput>();
  for (const a of adjudications) {
    const labels = parseOrNull(a.claimLabels);
    if (labels)
      adjudicationOf.set(a.answerId, { claimVersion: a.claimVersion, claimLabels: labels, relevance: a.relevance });
  }
  // Answers with a judgement or an adjudication; the others have no final label.
  const disputed = new Set(disputedRows.map((a) => a.id));
  const human = new Map<string, TAnswerLabelInput>();
  for (const id of new Set([...byAnswer.keys(), ...adjudicationOf.keys()])) {
    const f = finalAnswerLabel(
      { labels: byAnswer.get(id) ?? [], adjudication: adjudicationOf.get(id) ?? null, disputed: disputed.has(id) },
      settings,
    );
    if (f) human.set(id, { claimVersion: f.claimVersion, claimLabels: f.claimLabels, relevance: f.relevance });
  }
  return human;
}

async function loadJudges(db: Db, projectId: number): Promise<TLabels["judges"]> {
  const judgeLabels = await db.answerJudgeLabel.findMany({
    where: { projectId },
    select: { judge: true, answerId: true, claimVersion: true, claimLabels: true, relevance: true },
  });
  const judges = new Map<string, Map<string, TJudgeLabel>>();
  for (const l of judgeLabels.sort((x, y) => (x.judge < y.judge ? -1 : x.judge > y.judge ? 1 : 0))) {
    let m = judges.get(l.judge);
    if (!m) judges.set(l.judge, (m = new Map()));
    m.set(l.answerId, {
      claimVersion: l.claimVersion,
      claimLabels: parseOrNull(l.claimLabels),
      relevance: l.relevance,
    });
  }
  return judges;
}

/** The project's answers and labels, re-read only where a version part changed. */
export async function generationData(
  db: Db,
  projectId: number,
  lineage: TLineage,
): Promise<{ entry: TGenerationState; answers: TAnswer[]; labels: TLabels }> {
  const v = await versions(db, projectId);
  let entry = lineage.generation;
  if (!entry || entry.structure !== v.structure) {
    entry = {
      structure: v.structure,
      answers: loadAnswers(db, projectId),
      humanKey: "",
      human: Promise.resolve(new Map()),
      judgeKey: "",
      judges: Promise.resolve(new Map()),
      results: new Map(),
    };
    lineage.generation = entry;
  }
  if (entry.humanKey !== v.human) {
    entry.humanKey = v.human;
    entry.human = ruleSettings(db, projectId).then((s) => loadHuman(db, projectId, s));
    entry.results.clear();
  }
  if (entry.judgeKey !== v.judge) {
    entry.judgeKey = v.judge;
    entry.judges = loadJudges(db, projectId);
    entry.results.clear();
  }
  const current = entry;
  const [answers, human, judges] = await Promise.all([current.answers, current.human, current.judges]).catch(
    (e: unknown) => {
      if (lineage.generation === current) lineage.generation = undefined;
      throw e;
    },
  );
  return { entry: current, answers, labels: { human, judges } };
}
