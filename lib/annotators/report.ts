/**
 * The Annotators report of a project (`assessor annotators report`, the dashboard's Annotators
 * card): each annotator's quality (lib/stats/annotators.ts) from the project's pool items, their
 * judgements and adjudications, optionally against one judge's labels; and their accuracy on hidden
 * check items (lib/annotators/checks.ts).
 *
 * Annotators are named by a pseudonymous id by default (`annotator-` and the first 8 hex digits of
 * SHA-256 over the project id and the user id: stable across reports and exports of one project,
 * not linkable across projects, and it does not reveal the e-mail); with `names`, by e-mail.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { loadItemLabels, ruleSettings } from "../labels/load.ts";
import { finalLabel } from "../labels/reference.ts";
import { findJudge, labelSetRows } from "../judge/label-sets.ts";
import { annotatorQuality, DEFAULT_FAST_MS, type TAnnotatedItem, type TAnnotatorQuality } from "../stats/annotators.ts";
import { abilityModel, type TAbilityModel } from "../stats/annotators-model.ts";
import { answerQuality, type TAnnotatedAnswer, type TAnswerQuality } from "../stats/annotators-answers.ts";
import { finalAnswerLabel, parseClaimLabels } from "../answers/labels.ts";
import { checkAccuracy, type TCheckAccuracy } from "../stats/annotators-checks.ts";
import { checkGrades } from "./checks.ts";

export type TAnnotatorsReport = {
  /** The judge compared with, when one was named. */
  judge: string | null;
  fastMs: number;
  annotators: TAnnotatorQuality[];
  /** The annotator-ability model (Dawid–Skene), null without grades. */
  model: TAbilityModel | null;
  /** The same for answer labels (claims and relevance), one row per annotator who labelled answers. */
  answers: TAnswerQuality[];
  /** Accuracy on hidden check items (lib/stats/annotators-checks.ts), one row per annotator with check grades. */
  checks: TCheckAccuracy[];
};

export function pseudonym(projectId: number, userId: string): string {
  return `annotator-${createHash("sha256").update(`${projectId}:${userId}`).digest("hex").slice(0, 8)}`;
}

/** A judge's labels by run id, run judge name or label-set name; not found is a 404-style error naming it. */
async function judgeLabels(db: Db, projectId: number, ref: string) {
  const found = await findJudge(db, projectId, ref);
  return labelSetRows(db, projectId, found.run ? found.run.judge : found.labelSet.judge);
}

export async function annotatorsReport(
  db: Db,
  projectId: number,
  opts: { judge?: string; fastMs?: number; names?: boolean; resamples?: number } = {},
): Promise<TAnnotatorsReport> {
  const [settings, items, users, judge, answers] = await Promise.all([
    ruleSettings(db, projectId),
    loadItemLabels(db, projectId),
    db.user.findMany({ select: { id: true, email: true } }),
    opts.judge ? judgeLabels(db, projectId, opts.judge) : Promise.resolve(undefined),
    db.answer.findMany({
      where: { projectId, judgements: { some: {} } },
      select: {
        id: true,
        disputedAt: true,
        query: { select: { externalId: true } },
        judgements: {
          select: { userId: true, claimVersion: true, claimLabels: true, relevance: true, timeSpentMs: true },
          orderBy: { id: "asc" },
        },
        adjudication: { select: { claimVersion: true, claimLabels: true, relevance: true } },
      },
    }),
  ]);
  const email = new Map(users.map((u) => [u.id, u.email]));
  const name = (userId: string) => (opts.names ? (email.get(userId) ?? userId) : pseudonym(projectId, userId));
  const annotated: TAnnotatedItem[] = items
    .filter((it) => it.judgements.length > 0)
    .map((it) => ({
      qid: it.qid,
      docid: it.docid,
      judgements: it.judgements.map((j) => ({
        annotator: name(j.userId),
        grade: j.grade,
        startSeconds: j.startSeconds,
        timeSpentMs: j.timeSpentMs,
      })),
      adjudication: it.adjudication
        ? { grade: it.adjudication.grade, startSeconds: it.adjudication.startSeconds }
        : null,
      final: finalLabel(it, settings),
    }));
  const annotatedAnswers: TAnnotatedAnswer[] = answers.map((a) => {
    const labels = a.judgements.map((j) => ({
      annotator: name(j.userId),
      claimVersion: j.claimVersion,
      claimLabels: parseClaimLabels(j.claimLabels),
      relevance: j.relevance,
      timeSpentMs: j.timeSpentMs,
    }));
    const adjudication = a.adjudication
      ? {
          claimVersion: a.adjudication.claimVersion,
          claimLabels: parseClaimLabels(a.adjudication.claimLabels),
          relevance: a.adjudication.relevance,
        }
      : null;
    return {
      qid: a.query.externalId,
      answerId: a.id,
      labels,
      adjudication,
      final: finalAnswerLabel({ labels, adjudication, disputed: a.disputedAt !== null }, settings),
    };
  });
  const quality = annotatorQuality(annotated, { judge, fastMs: opts.fastMs, resamples: opts.resamples });
  return {
    judge: opts.judge ?? null,
    fastMs: opts.fastMs ?? DEFAULT_FAST_MS,
    annotators: quality,
    model: abilityModel(annotated),
    answers: answerQuality(annotatedAnswers, { fastMs: opts.fastMs, resamples: opts.resamples }),
    checks: checkAccuracy(await checkGrades(db, projectId, items, settings, name)),
  };
}
