/**
 * Labels of generated answers, as plain functions (no database).
 *
 * An answer is labelled per claim of one claim set version (AnswerClaim.version) and as a whole:
 * - claim labels: `s` supported by the context (the chunks given to the model), `p` partly
 *   supported, `n` not supported, `x` true per the video but absent from the context (TREC RAG
 *   2024's full / partial / none support, plus the case that tells an incomplete context from a
 *   hallucination);
 * - relevance 0–3: 0 does not address the question, 1 touches it, 2 answers it partly, 3 answers it
 *   fully.
 *
 * The rule mirrors the chunk rule (lib/labels/rule.ts): an answer is decided once it has
 * `annotatorsPerItem` labels. They agree when all are on the same claim version, every claim got
 * the same label from everyone (labels are categories: no distance), and the relevance grades
 * agree under the project's disagreement rule (`gradesAgree`). The agreed relevance is the median
 * rounded down (`agreedGrade`). Otherwise the answer needs adjudication; as for pool items a
 * disagreement is sticky (Answer.disputedAt) and an adjudication wins whatever later edits say.
 */
import { z } from "zod";
import { agreedGrade, gradesAgree, type TRuleSettings } from "../labels/rule.ts";
import { AppError } from "../errors.ts";

export const CLAIM_LABELS = ["s", "p", "n", "x"] as const;
export type TClaimLabel = (typeof CLAIM_LABELS)[number];
export const ZClaimLabel = z.enum(CLAIM_LABELS);
export const ZClaimLabels = z.array(ZClaimLabel);

export const CLAIM_LABEL_NAMES: Record<TClaimLabel, string> = {
  s: "supported",
  p: "partly supported",
  n: "not supported",
  x: "true, absent from the context",
};

export type TAnswerLabelInput = { claimVersion: number; claimLabels: readonly TClaimLabel[]; relevance: number };
export type TAnswerDecision =
  | { state: "incomplete" }
  | { state: "agreed"; claimVersion: number; claimLabels: TClaimLabel[]; relevance: number }
  | { state: "disagreed" };

/** Parse a stored JSON array of claim labels (AnswerJudgement.claimLabels and the like). */
export function parseClaimLabels(json: string): TClaimLabel[] {
  return ZClaimLabels.parse(JSON.parse(json));
}

/**
 * A label's claim set must exist (`claims`: how many claims it has; 0, none the labeller may
 * use) and the label must hold one claim label per claim; `current`: the answer's shared claim set.
 */
export function checkClaimSet(
  claims: number,
  data: { claimVersion: number; claimLabels: readonly unknown[] },
  current: number,
): void {
  if (claims === 0)
    throw new AppError(
      "bad_input",
      `claimVersion: the answer has no claim set ${data.claimVersion} (the current one is ${current})`,
      [{ path: ["claimVersion"] }],
    );
  if (data.claimLabels.length !== claims)
    throw new AppError(
      "bad_input",
      `claimLabels: expected ${claims} label(s), one per claim of claim set ${data.claimVersion}, got ${data.claimLabels.length}`,
      [{ path: ["claimLabels"] }],
    );
}

/** A stored answer label (a person's, or an adjudication) as the rule reads it: its claim labels parsed. */
export function storedAnswerLabel(r: { claimVersion: number; claimLabels: string; relevance: number }): {
  claimVersion: number;
  claimLabels: TClaimLabel[];
  relevance: number;
} {
  return { claimVersion: r.claimVersion, claimLabels: parseClaimLabels(r.claimLabels), relevance: r.relevance };
}

export function decideAnswer(labels: readonly TAnswerLabelInput[], settings: TRuleSettings): TAnswerDecision {
  if (labels.length === 0 || labels.length < settings.annotatorsPerItem) return { state: "incomplete" };
  const version = labels[0].claimVersion;
  const first = labels[0].claimLabels;
  for (const l of labels) {
    if (l.claimVersion !== version || l.claimLabels.length !== first.length) return { state: "disagreed" };
    for (let i = 0; i < first.length; i++) if (l.claimLabels[i] !== first[i]) return { state: "disagreed" };
  }
  const grades = labels.map((l) => l.relevance);
  if (!gradesAgree(grades, settings.disagreementRule)) return { state: "disagreed" };
  return { state: "agreed", claimVersion: version, claimLabels: [...first], relevance: agreedGrade(grades) };
}

/** As `itemDecision`: a disputed answer stays disagreed until adjudicated. */
export function answerDecision(
  labels: readonly TAnswerLabelInput[],
  settings: TRuleSettings,
  disputed: boolean,
): TAnswerDecision {
  return disputed ? { state: "disagreed" } : decideAnswer(labels, settings);
}

/** The final human label of an answer: the adjudication, else the agreed labels, else none. */
export function finalAnswerLabel(
  answer: { labels: readonly TAnswerLabelInput[]; adjudication: TAnswerLabelInput | null; disputed: boolean },
  settings: TRuleSettings,
): (TAnswerLabelInput & { status: "agreed" | "adjudicated" }) | null {
  if (answer.adjudication)
    return { ...answer.adjudication, claimLabels: [...answer.adjudication.claimLabels], status: "adjudicated" };
  const d = answerDecision(answer.labels, settings, answer.disputed);
  return d.state === "agreed"
    ? { claimVersion: d.claimVersion, claimLabels: d.claimLabels, relevance: d.relevance, status: "agreed" }
    : null;
}
