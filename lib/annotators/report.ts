/**
 * The Annotators report of a project (`assessor annotators report`, the dashboard's Annotators
 * card): each annotator's quality (lib/stats/annotators.ts) from the project's pool items, their
 * judgements and adjudications, optionally against one judge's labels; and their accuracy on hidden
 * check items (lib/annotators/checks.ts).
 *
 * Annotators are named by a pseudonymous id by default (lib/annotators/items.ts pseudonym); with
 * `names`, by e-mail.
 *
 * The report is the main part (`annotatorsMain`: everything but the ability model, from the items
 * of lib/annotators/items.ts) and the ability model (lib/stats/annotators-model.ts abilityModel);
 * the CLI asks for both, the dashboard's card for each apart (lib/annotators/routes.ts).
 */
import type { Db } from "../db/client.ts";
import { loadItemLabels, ruleSettings } from "../labels/load.ts";
import { findJudge, labelSetRows } from "../judge/label-sets.ts";
import { refuseProbeJudge } from "../judge/probe/spec.ts";
import {
  annotatorQuality,
  DEFAULT_FAST_MS,
  type TAnnotatorQuality,
  type TGradeLabel,
  type TQualityMemo,
} from "../stats/annotators.ts";
import { abilityModel, type TAbilityModel } from "../stats/annotators-model.ts";
import { answerQuality, type TAnnotatedAnswer, type TAnswerQuality } from "../stats/annotators-answers.ts";
import { finalAnswerLabel, storedAnswerLabel } from "../answers/labels.ts";
import { checkAccuracy, type TCheckAccuracy } from "../stats/annotators-checks.ts";
import { checkGrades } from "./checks.ts";
import { itemsFromLabels, pseudonym, type TReportItems } from "./items.ts";

export { pseudonym } from "./items.ts";

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

/**
 * A judge's labels by run id, run judge name or label-set name; not found is a 404-style error
 * naming it, and a robustness probe is refused (its chunks were changed on purpose).
 */
export async function judgeLabels(db: Db, projectId: number, ref: string): Promise<TGradeLabel[]> {
  const found = await findJudge(db, projectId, ref);
  const judge = found.run ? found.run.judge : found.labelSet.judge;
  refuseProbeJudge(judge);
  return labelSetRows(db, projectId, judge);
}

export type TAnnotatorsOptions = { judge?: string; fastMs?: number; resamples?: number };
/** The report without the ability model: what the card's main request answers. */
export type TAnnotatorsMain = Omit<TAnnotatorsReport, "model">;

async function annotatedAnswers(
  db: Db,
  projectId: number,
  name: (userId: string) => string,
): Promise<TAnnotatedAnswer[]> {
  const [settings, answers] = await Promise.all([
    ruleSettings(db, projectId),
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
  return answers.map((a) => {
    const labels = a.judgements.map((j) => ({
      annotator: name(j.userId),
      ...storedAnswerLabel(j),
      timeSpentMs: j.timeSpentMs,
    }));
    const adjudication = a.adjudication ? storedAnswerLabel(a.adjudication) : null;
    return {
      qid: a.query.externalId,
      answerId: a.id,
      labels,
      adjudication,
      final: finalAnswerLabel({ labels, adjudication, disputed: a.disputedAt !== null }, settings),
    };
  });
}

/**
 * Everything but the ability model, from the report's items: each annotator's quality, their
 * answer labels' and their check grades' (read here: neither is in the items). With `memo`, the
 * rows of the annotators whose items did not change since the last call with it are taken from
 * it (lib/stats/annotators.ts TQualityMemo); `readJudge` reads the judge's labels (default
 * `judgeLabels`; the card keeps them from one label-set version to the next).
 */
export async function annotatorsMain(
  db: Db,
  projectId: number,
  source: TReportItems,
  name: (userId: string) => string,
  opts: TAnnotatorsOptions = {},
  kept: { memo?: TQualityMemo; readJudge?: (ref: string) => Promise<readonly TGradeLabel[]> } = {},
): Promise<TAnnotatorsMain> {
  const readJudge = kept.readJudge ?? ((ref: string) => judgeLabels(db, projectId, ref));
  const memo = kept.memo;
  const [judge, answers, checks] = await Promise.all([
    opts.judge ? readJudge(opts.judge) : Promise.resolve(undefined),
    annotatedAnswers(db, projectId, name),
    checkGrades(db, projectId, source.reference, name),
  ]);
  return {
    judge: opts.judge ?? null,
    fastMs: opts.fastMs ?? DEFAULT_FAST_MS,
    annotators: annotatorQuality(source.items, { judge, fastMs: opts.fastMs, resamples: opts.resamples }, memo),
    answers: answerQuality(answers, { fastMs: opts.fastMs, resamples: opts.resamples }),
    checks: checkAccuracy(checks),
  };
}

/** The whole report from loadItemLabels (`assessor annotators report`): the main part and the ability model. */
export async function annotatorsReport(
  db: Db,
  projectId: number,
  opts: TAnnotatorsOptions & { names?: boolean } = {},
): Promise<TAnnotatorsReport> {
  const [settings, items, users] = await Promise.all([
    ruleSettings(db, projectId),
    loadItemLabels(db, projectId),
    opts.names ? db.user.findMany({ select: { id: true, email: true } }) : Promise.resolve([]),
  ]);
  const email = new Map(users.map((u) => [u.id, u.email]));
  // Once per user, not per judgement (a hash each: 100,000s of judgements, a few dozen users).
  const names = new Map<string, string>();
  const name = (userId: string) => {
    let n = names.get(userId);
    if (n === undefined)
      names.set(userId, (n = opts.names ? (email.get(userId) ?? userId) : pseudonym(projectId, userId)));
    return n;
  };
  const source = itemsFromLabels(items, settings, name);
  const main = await annotatorsMain(db, projectId, source, name, opts);
  return { ...main, model: abilityModel(source.items) };
}
