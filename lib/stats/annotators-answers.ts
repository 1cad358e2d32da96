/**
 * The quality of each annotator's answer labels (claim labels s/p/n/x and the answer's relevance
 * grade), the counterpart of lib/stats/annotators.ts for the answer task:
 * - reference without their own labels: an adjudicated answer's adjudication; an agreed answer's
 *   other annotators' labels (they agree: the rule, lib/answers/labels.ts, needs every claim label
 *   equal; relevance: their median rounded down); an answer only they labelled, or without a final
 *   label, is left out;
 * - claims: compared claim by claim where both are on the same claim version; Cohen's kappa on the
 *   ordered labels n < p < s with x as n (lib/stats/generation.ts claimAgreement, scikit-learn's
 *   definition), linear and quadratic, with the large-sample 95% interval (Fleiss, Cohen & Everitt
 *   1969: kappa ± 1.96·SE, clipped to [−1, 1], kappa's range); raw agreement on the four labels;
 * - relevance: the kappa family with the question bootstrap, as for chunk grades;
 * - overturned: adjudicated answers where the adjudication differs from their labels in a claim
 *   or the relevance; time per answer as for chunk grades.
 */
import { agreedGrade } from "../labels/rule.ts";
import { claimAgreement, type TSupportLabel } from "./generation.ts";
import {
  agreementCell,
  DEFAULT_FAST_MS,
  DEFAULT_MIN_PAIRS,
  timePerItem,
  type TAgreementCell,
  type TInterval,
  type TTimePerItem,
} from "./annotators.ts";
import type { LabelPair } from "./agreement/align.ts";

export type TAnswerLabel = { claimVersion: number; claimLabels: readonly TSupportLabel[]; relevance: number };
export type TAnnotatedAnswer = {
  qid: string;
  answerId: string;
  labels: readonly (TAnswerLabel & { annotator: string; timeSpentMs: number | null })[];
  adjudication: TAnswerLabel | null;
  final: TAnswerLabel | null;
};
export type TClaimCell =
  | {
      n: number;
      linear: number | null;
      quadratic: number | null;
      linearInterval: TInterval | null;
      quadraticInterval: TInterval | null;
      rawAgreement: number | null;
    }
  | { n: number; reason: string };
export type TAnswerQuality = {
  annotator: string;
  labelled: number;
  claims: TClaimCell;
  relevance: TAgreementCell;
  adjudication: { adjudicated: number; overturned: number; share: number | null };
  time: TTimePerItem;
};

const Z95 = 1.959963984540054;

/** The reference for `annotator`'s label of `answer` without their own, or null. */
export function answerLeaveOneOut(answer: TAnnotatedAnswer, annotator: string): TAnswerLabel | null {
  if (!answer.final) return null;
  if (answer.adjudication) return answer.adjudication;
  const others = answer.labels.filter((l) => l.annotator !== annotator);
  if (others.length === 0 || others.length === answer.labels.length) return null;
  return {
    claimVersion: others[0].claimVersion,
    claimLabels: others[0].claimLabels,
    relevance: agreedGrade(others.map((o) => o.relevance)),
  };
}

function claimCell(pairs: { human: TSupportLabel; judge: TSupportLabel }[], minPairs: number): TClaimCell {
  if (pairs.length < minPairs) return { n: pairs.length, reason: `${pairs.length} claims: fewer than ${minPairs}` };
  const a = claimAgreement(pairs);
  const interval = (k: (typeof a.kappa)["linear"]) =>
    k.value !== null && k.se !== null
      ? { low: Math.max(-1, k.value - Z95 * k.se), high: Math.min(1, k.value + Z95 * k.se) }
      : null;
  return {
    n: a.n,
    linear: a.kappa.linear.value,
    quadratic: a.kappa.quadratic.value,
    linearInterval: interval(a.kappa.linear),
    quadraticInterval: interval(a.kappa.quadratic),
    rawAgreement: a.rawAgreement,
  };
}

const sameLabels = (x: TAnswerLabel, y: TAnswerLabel) =>
  x.claimVersion === y.claimVersion &&
  x.relevance === y.relevance &&
  x.claimLabels.length === y.claimLabels.length &&
  x.claimLabels.every((l, i) => l === y.claimLabels[i]);

export function answerQuality(
  answers: readonly TAnnotatedAnswer[],
  opts: { fastMs?: number; minPairs?: number; resamples?: number; seed?: number } = {},
): TAnswerQuality[] {
  const fastMs = opts.fastMs ?? DEFAULT_FAST_MS;
  const minPairs = opts.minPairs ?? DEFAULT_MIN_PAIRS;
  const annotators = [...new Set(answers.flatMap((a) => a.labels.map((l) => l.annotator)))].sort();
  return annotators.map((who) => {
    const claims: { human: TSupportLabel; judge: TSupportLabel }[] = [];
    const relevance: LabelPair[] = [];
    const times: number[] = [];
    let labelled = 0;
    let adjudicated = 0;
    let overturned = 0;
    for (const answer of answers) {
      const own = answer.labels.find((l) => l.annotator === who);
      if (!own) continue;
      labelled++;
      if (own.timeSpentMs !== null) times.push(own.timeSpentMs);
      if (answer.adjudication) {
        adjudicated++;
        if (!sameLabels(own, answer.adjudication)) overturned++;
      }
      const ref = answerLeaveOneOut(answer, who);
      if (!ref) continue;
      relevance.push({ qid: answer.qid, docid: answer.answerId, reference: ref.relevance, other: own.relevance });
      if (ref.claimVersion === own.claimVersion && ref.claimLabels.length === own.claimLabels.length)
        own.claimLabels.forEach((l, i) => claims.push({ human: ref.claimLabels[i], judge: l }));
    }
    return {
      annotator: who,
      labelled,
      claims: claimCell(claims, minPairs),
      relevance: agreementCell(relevance, { minPairs, resamples: opts.resamples, seed: opts.seed }),
      adjudication: { adjudicated, overturned, share: labelled ? overturned / labelled : null },
      time: timePerItem(times, fastMs),
    };
  });
}
