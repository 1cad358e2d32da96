/**
 * A decision's looks and their boundaries (lib/stats/sequential.ts): the error of the decision is
 * spent over its looks by a spending function of the information fraction, so that the intervals
 * it reports (repeated confidence intervals, Jennison & Turnbull ch. 9) stay valid however often
 * the lead looks and whenever the lead stops.
 *
 * - A look is a stored batch: after it is drawn (and its questions are labelled) the decision is
 *   looked at. A batch that draws no question not drawn before adds no information: it is the same
 *   look as the one before (same boundary, nothing more spent).
 * - Information fraction of a look: t = (questions completely labelled when the decision was
 *   created + distinct questions drawn so far) / questions in the decision's population, as frozen
 *   at creation. The pool is finite, so the maximum information is known: every question labelled
 *   (t = 1), where the last of α is spent. Counting questions rather than estimating the variance
 *   keeps t a fact of the stored batches, so an earlier look's boundary never moves when labels
 *   change, and a later look never spends again what an earlier one spent. (The estimator's
 *   variance does not fall exactly in proportion to the questions drawn — the draws favour the
 *   uncertain questions — so t is the share of the sampling, not of the Fisher information; the
 *   simulation's coverage, tests/unit/decisions/simulation.test.ts, checks the result.)
 * - Several systems: every pair gets its own sequence at α / pairs (Bonferroni over the pairs).
 */
import { SpendingBoundaries, spendingName, type TLookBoundary, type TSpending } from "../stats/sequential.ts";

/**
 * The app's spending family when a decision names none: Hwang–Shih–DeCani with γ = −4. Chosen on the
 * decision benchmark's evidence (`npm run bench -- decide`, every family on the same simulated
 * decisions, labelling the discriminating pairs as the app does; README "Deciding with fewer
 * labels"): the smallest median label share among the families that keep the same decision as the
 * full pool (≥ 95%) and coverage (≥ 94%), a tie at the median broken by the mean. O'Brien–Fleming
 * type ties it at the median (it was the default while whole pools were labelled); the others
 * settle narrow decisions differently from the full pool too often.
 */
export const DEFAULT_SPENDING: TSpending = { family: "hsd", gamma: -4 };

/**
 * The family of a decision stored before its family was kept with it: the default of that time,
 * so that its earlier looks keep the boundaries they were shown with.
 */
export const LEGACY_SPENDING: TSpending = { family: "obf" };

export type TLooks = {
  spending: string;
  /** Per distinct look, in order: its information fraction, what it spent, its boundary. */
  looks: TLookBoundary[];
};

/** The information fraction after each batch (file comment), batches in order. */
export function informationFractions(
  questions: number,
  certain: number,
  batches: readonly { drawn: readonly number[] }[],
): number[] {
  const drawn = new Set<number>();
  return batches.map((b) => {
    for (const q of b.drawn) drawn.add(q);
    return questions > 0 ? Math.min(1, (certain + drawn.size) / questions) : 1;
  });
}

/**
 * The boundaries of a decision's looks at overall error `alpha` (already split over the pairs).
 * `cache`: a SpendingBoundaries of the same family and α whose looks are the first of these (the
 * simulation passes one per decision so that each look extends the last); otherwise computed anew.
 */
export function decisionLooks(
  fractions: readonly number[],
  spending: TSpending,
  alpha: number,
  cache?: SpendingBoundaries,
): TLooks {
  const distinct: number[] = [];
  for (const t of fractions)
    if (t > 0 && (distinct.length === 0 || t > distinct[distinct.length - 1])) distinct.push(t);
  let b = cache;
  const reusable =
    b !== undefined &&
    b.alpha === alpha &&
    spendingName(b.spending) === spendingName(spending) &&
    b.looks.length <= distinct.length &&
    b.looks.every((l, i) => l.t === Math.min(1, distinct[i]));
  if (!reusable) b = new SpendingBoundaries(spending, alpha);
  for (let i = b!.looks.length; i < distinct.length; i++) b!.next(distinct[i]);
  return { spending: spendingName(spending), looks: b!.looks.slice(0, distinct.length) };
}
