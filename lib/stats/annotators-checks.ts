/**
 * Accuracy on hidden check items (lib/assignment/checks.ts): items whose reference was settled
 * (agreed or adjudicated) before they were served again to an annotator who had not seen them.
 * Pure: the caller loads the grades (lib/annotators/checks.ts).
 *
 * Definitions (per annotator, over their check grades; the reference is the item's settled final
 * label, which their grade did not decide, so no leave-one-out is needed)
 * - Exact agreement: the share of check grades equal to the reference grade, with the Wilson score
 *   interval (Wilson 1927; Newcombe 1998 method 3: the interval of `statsmodels` `proportion_confint(method="wilson")`).
 * - Mean signed difference: mean of (annotator's grade − reference grade); positive = more generous
 *   (the card's leniency, on check items).
 * Fewer than `minChecks` check grades (default 10, the card's minimum of pairs): no number, a
 * reason instead.
 */
import type { TInterval } from "./annotators.ts";

export type TCheckGrade = { annotator: string; qid: string; grade: number; reference: number };

export type TCheckAccuracy =
  | {
      annotator: string;
      n: number;
      questions: number;
      exact: number;
      exactInterval: TInterval;
      meanSignedDifference: number;
    }
  | { annotator: string; n: number; questions: number; reason: string };

export const DEFAULT_MIN_CHECKS = 10;
/** The standard normal's 97.5% quantile: a 95% two-sided interval. */
const Z95 = 1.959963984540054;

/** Wilson's score interval for `successes` of `n` (n ≥ 1), at the normal quantile `z`. */
export function wilsonInterval(successes: number, n: number, z = Z95): TInterval {
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** One row per annotator with check grades, sorted by annotator. */
export function checkAccuracy(grades: readonly TCheckGrade[], opts: { minChecks?: number } = {}): TCheckAccuracy[] {
  const minChecks = opts.minChecks ?? DEFAULT_MIN_CHECKS;
  const by = new Map<string, TCheckGrade[]>();
  for (const g of grades) {
    const list = by.get(g.annotator);
    if (list) list.push(g);
    else by.set(g.annotator, [g]);
  }
  return [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([annotator, list]) => {
      const n = list.length;
      const questions = new Set(list.map((g) => g.qid)).size;
      if (n < minChecks) return { annotator, n, questions, reason: `${n} check grades: fewer than ${minChecks}` };
      const equal = list.filter((g) => g.grade === g.reference).length;
      return {
        annotator,
        n,
        questions,
        exact: equal / n,
        exactInterval: wilsonInterval(equal, n),
        meanSignedDifference: list.reduce((s, g) => s + (g.grade - g.reference), 0) / n,
      };
    });
}
