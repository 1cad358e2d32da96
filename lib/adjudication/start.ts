import { EPSILON } from "../labels/rule.ts";

/**
 * The final start an adjudicator's form begins with: the annotators' starts, as the
 * agreement rule reads them (lib/labels/rule.ts `decide`: labels graded ≥ 1 with a start), averaged
 * when they lie within the project's start tolerance; otherwise none (null), so the adjudicator
 * chooses one (a / b / s) instead of saving a start nobody gave. Never the chunk's start.
 * Rounded to 0.1 s, the page's step.
 */
export function annotatorsStart(
  labels: readonly { grade: number; startSeconds: number | null }[],
  toleranceSeconds: number,
): number | null {
  const starts = labels.filter((l) => l.grade >= 1 && l.startSeconds !== null).map((l) => l.startSeconds as number);
  if (starts.length === 0) return null;
  if (Math.max(...starts) - Math.min(...starts) > toleranceSeconds + EPSILON) return null;
  return Math.round((starts.reduce((s, x) => s + x, 0) / starts.length) * 10) / 10;
}

/** Taking one annotator's label (a / b): their grade, start and end; a grade-0 label has neither. */
export function takeLabel(label: { grade: number; startSeconds: number | null; endSeconds?: number | null }): {
  grade: number;
  start: number | null;
  end: number | null;
} {
  const none = label.grade === 0;
  return { grade: label.grade, start: none ? null : label.startSeconds, end: none ? null : (label.endSeconds ?? null) };
}
