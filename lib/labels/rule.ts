/**
 * The reference-label rule, as plain functions (no database).
 *
 * An item is decided once it has `annotatorsPerItem` labels (more are used if present).
 *
 * Grades agree under the project's disagreement rule, for every pair of labels:
 * - any_difference: the grades are equal;
 * - distance_two: the grades differ by at most 1 (a difference of 2 or more needs adjudication);
 * - relevance_threshold: all grades are ≥ 1, or all are 0 (only crossing the grade-1 line counts).
 *
 * The agreed grade is the median of the grades, rounded down. For two labels that is
 * floor((a + b) / 2): equal grades give that grade; under distance_two (|a − b| ≤ 1) it is the
 * lower grade, the conservative choice; under relevance_threshold 1 and 3 give 2, 1 and 2 give 1.
 *
 * Starts: when the agreed grade is ≥ 1 (the item is relevant), the corrected starts given by the
 * labels that graded it relevant (grade ≥ 1, start not null) must lie within
 * `startToleranceSeconds` of each other (max − min ≤ tolerance); otherwise the item needs
 * adjudication. The agreed start is the mean of those starts, or null when none was given.
 * For an agreed grade 0 the start is null: an irrelevant chunk has no evidence to point at.
 *
 * Ends (the answer-end key) are optional and never make a disagreement: the agreed end is the mean
 * of the ends given by the labels that graded the item relevant, or null when none was given (and
 * for an agreed grade 0). An agreed end that does not lie after the agreed start is not an end for
 * the reference spans (lib/stats/time/reference.ts reads it as open).
 *
 * Editing rule (`itemDecision`): an annotator may change their own grade at any
 * time, and every edit is accepted the same way, whatever the other grades or an adjudication say
 * (so a submission's answer tells nothing about a peer's grade). The item's reference follows:
 * once all required grades are in and they disagree, the item is disputed (PoolItem.disputedAt,
 * set once, never cleared) and waits for adjudication whatever later edits say; an adjudicated item
 * keeps the adjudicator's label (later edits are kept in the history and shown as edited after
 * the decision); an agreed item whose grades later disagree becomes disputed.
 */
export type TDisagreementRule = "any_difference" | "distance_two" | "relevance_threshold";

export type TRuleSettings = {
  disagreementRule: TDisagreementRule;
  startToleranceSeconds: number;
  annotatorsPerItem: number;
};
export type TLabelInput = { grade: number; startSeconds: number | null; endSeconds?: number | null };
export type TDecision =
  | { state: "incomplete" }
  | { state: "agreed"; grade: number; startSeconds: number | null; endSeconds: number | null }
  | { state: "disagreed" };

const mean = (xs: readonly number[]): number | null =>
  xs.length === 0 ? null : xs.reduce((s, x) => s + x, 0) / xs.length;

// Starts are decimals typed or read from a player: allow for float noise at the boundary.
export const EPSILON = 1e-9;

export function gradesAgree(grades: readonly number[], rule: TDisagreementRule): boolean {
  if (grades.length === 0) return true;
  const min = Math.min(...grades);
  const max = Math.max(...grades);
  switch (rule) {
    case "any_difference":
      return min === max;
    case "distance_two":
      return max - min <= 1;
    case "relevance_threshold":
      return min >= 1 || max === 0;
  }
}

/** The median of the grades, rounded down. */
export function agreedGrade(grades: readonly number[]): number {
  const sorted = [...grades].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : Math.floor((sorted[mid - 1] + sorted[mid]) / 2);
}

export function decide(labels: readonly TLabelInput[], settings: TRuleSettings): TDecision {
  if (labels.length === 0 || labels.length < settings.annotatorsPerItem) return { state: "incomplete" };
  const grades = labels.map((l) => l.grade);
  if (!gradesAgree(grades, settings.disagreementRule)) return { state: "disagreed" };
  const grade = agreedGrade(grades);
  if (grade === 0) return { state: "agreed", grade, startSeconds: null, endSeconds: null };
  const relevant = labels.filter((l) => l.grade >= 1);
  const starts = relevant.filter((l) => l.startSeconds !== null).map((l) => l.startSeconds as number);
  const endSeconds = mean(
    relevant.flatMap((l) => (l.endSeconds === null || l.endSeconds === undefined ? [] : [l.endSeconds])),
  );
  if (starts.length > 0 && Math.max(...starts) - Math.min(...starts) > settings.startToleranceSeconds + EPSILON)
    return { state: "disagreed" };
  return { state: "agreed", grade, startSeconds: mean(starts), endSeconds };
}

/**
 * The item's decision under the editing rule: a disputed item (its required grades disagreed at
 * some point, PoolItem.disputedAt) stays disagreed whatever its current grades say; otherwise the
 * rule decides on the current grades.
 */
export function itemDecision(labels: readonly TLabelInput[], settings: TRuleSettings, disputed: boolean): TDecision {
  return disputed ? { state: "disagreed" } : decide(labels, settings);
}
