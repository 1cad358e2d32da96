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
 * labels"): among the families that keep the same decision as the full pool (≥ 95%, also pooled
 * with 2,000 decisions of another seed) and coverage (≥ 94%), no other needs clearly fewer labels
 * (a median share lower by one percentage point on both sets of decisions: a difference within the
 * noise does not move the default). O'Brien–Fleming type (the default while whole pools were
 * labelled) also qualifies, with about the same share; the others settle narrow decisions
 * differently from the full pool too often.
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
 * Information fractions planned from the design's expected variance: a variant the decision
 * benchmark runs beside the app's counted fractions (lib/decisions/simulation.ts `information`;
 * README "Deciding with fewer labels"), not what a stored decision uses. Information time
 * (Jennison & Turnbull 2000 §7.2): t = V_N / V_k, the variance expected with every question labelled
 * over the variance the planner (lib/decisions/plan.ts) expects after the batches so far,
 * V_k = s²/N + (1/N²) · Σ_q u_q² (1/π_q − 1) and V_N = s²/N, with u_q the expected error of question
 * q's predicted difference, π_q its inclusion probability after the batches so far, and
 * s² = var(f) + mean(u²) (`plannedSpread`, lib/decisions/model.ts); 1 once every question is drawn;
 * a batch that draws nothing new is the look before. Like the counted fractions it depends only on
 * what is frozen at creation and on the batches, never on labels.
 *
 * Not the app's: on the benchmark's world it saves labels (most with a sharp judge) but settles
 * equal systems too often. The savings and the excess error have one source: s² from the judge's
 * values is about twice the spread of people's differences (the judge's noise adds to var(f)), so
 * t overstates the information of the early looks, spends early, and assumes the looks' statistics
 * more correlated than they are. Planned with the true spread (the simulation's knowledge) the
 * error is back at the counted design's and the labels are no fewer (README, measured).
 *
 * `entries`: the population as frozen at creation (certain questions count as labelled, π = 1).
 */
export function plannedFractions(
  entries: readonly { queryId: number; uncertainty: number; certain: boolean }[],
  spread: number,
  batches: readonly { drawn: readonly number[]; probabilities: Readonly<Record<string, number>> }[],
): number[] {
  const uncertain = entries.filter((e) => !e.certain);
  const miss = new Map(uncertain.map((e) => [e.queryId, 1]));
  const uncertainty = entries.map((e) => e.uncertainty);
  const drawn = new Set<number>();
  let t = 0;
  return batches.map((b) => {
    for (const e of uncertain)
      miss.set(e.queryId, miss.get(e.queryId)! * (1 - (b.probabilities[String(e.queryId)] ?? 0)));
    const before = drawn.size;
    for (const q of b.drawn) if (miss.has(q)) drawn.add(q);
    // A batch that draws nothing new is the look before.
    if (drawn.size === before) return t;
    if (drawn.size === uncertain.length) return (t = 1);
    const next = plannedFraction(
      uncertainty,
      spread,
      entries.map((e) => (e.certain ? 1 : 1 - miss.get(e.queryId)!)),
    );
    return (t = Math.max(t, next));
  });
}

/**
 * The planned information fraction (`plannedFractions`) of a design whose questions (the whole
 * population, N = uncertainty.length) are labelled with probabilities `inclusion`:
 * (s²/N) / (s²/N + Σ u²(1/π − 1)/N²), in [0, 1].
 */
function plannedFraction(uncertainty: readonly number[], spread: number, inclusion: readonly number[]): number {
  const n = uncertainty.length;
  if (n === 0) return 1;
  let extra = 0;
  uncertainty.forEach((u, q) => {
    if (u === 0) return;
    const pi = inclusion[q];
    extra += pi > 0 ? (u * u * (1 - pi)) / pi : Infinity;
  });
  const full = Math.max(0, spread) / n;
  if (extra === 0) return 1;
  return full > 0 ? Math.min(1, full / (full + extra / (n * n))) : 0;
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
