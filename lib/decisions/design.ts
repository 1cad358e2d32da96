/**
 * A decision's design, pure (no database): where people's labels help (each question's uncertainty
 * about the compared systems' difference, from the judge's calibration) and which pairs of a question
 * they need to label at all (the minimal test collection). Frozen with the decision when it is created
 * (lib/decisions/store.ts); the estimator that uses them is lib/decisions/model.ts.
 */
import { differenceUncertainty } from "../stats/active.ts";

/**
 * How a measure weighs a ranked chunk's grade: "dcg" for nDCG@k (1/log₂(rank + 1) in the top k),
 * "set" for Recall@k (1 in the top k).
 */
export type TRankWeighting = { kind: "dcg" | "set"; cutoff: number };

/**
 * A question's expected error of the predicted difference between two systems' rankings, for the
 * design and the planner: u = √(Σ_j d_j² v_j) (lib/stats/active.ts `differenceUncertainty`) with
 * d_j pair j's weight in the measure (`weighting`) in A minus in B, divided by the measure's
 * normaliser computed from the question's expected gains (the pool's chunks and the ranked ones,
 * each at its expected gain under `gradeDistribution`): for nDCG@k the ideal DCG (those gains
 * sorted, the first k), for Recall@k the number relevant (their sum over the whole pool, as
 * trec_eval's recall divides by every relevant chunk), in the same units as the gains; and v_j the
 * variance of the pair's gain given what is known of it. `gradeDistribution`: the distribution of
 * the human grade 0–3 of a chunk (the calibration's for the judge's grade; one-hot for a grade
 * people gave, variance 0); null when nothing is known (the chunk adds nothing). Where to label is a heuristic (the estimate stays
 * unbiased whatever it says: it only sets the probabilities), but the planner takes u² as the
 * expected squared error, so its scale matters.
 */
export function questionUncertainty(
  rankings: readonly (readonly number[])[],
  weighting: TRankWeighting,
  gradeDistribution: (chunkId: number) => readonly number[] | null,
  gain: (grade: number) => number,
  pool: Iterable<number> = [],
): number {
  const { kind, cutoff } = weighting;
  const weightOf = rankings.map((r) => {
    const m = new Map<number, number>();
    r.slice(0, cutoff).forEach((chunkId, i) => m.set(chunkId, kind === "dcg" ? 1 / Math.log2(i + 2) : 1));
    return m;
  });
  const chunks = new Set<number>(pool);
  for (const w of weightOf) for (const c of w.keys()) chunks.add(c);
  const expected: number[] = [];
  const variance = new Map<number, number>();
  for (const c of chunks) {
    const dist = gradeDistribution(c);
    if (!dist) continue;
    let m = 0;
    let m2 = 0;
    dist.forEach((p, g) => {
      m += p * gain(g);
      m2 += p * gain(g) ** 2;
    });
    expected.push(m);
    variance.set(c, Math.max(0, m2 - m * m));
  }
  let normaliser = 0;
  if (kind === "set") for (const m of expected) normaliser += m;
  else {
    expected.sort((a, b) => b - a);
    for (let r = 0; r < Math.min(cutoff, expected.length); r++) normaliser += expected[r] / Math.log2(r + 2);
  }
  // Nothing expected to be relevant: both measures are 0 whatever the ranking.
  if (!(normaliser > 0)) return 0;
  let total = 0;
  for (let i = 0; i < weightOf.length; i++) {
    for (let j = i + 1; j < weightOf.length; j++) {
      const pairs = [...chunks].map((c) => ({
        weightDifference: ((weightOf[i].get(c) ?? 0) - (weightOf[j].get(c) ?? 0)) / normaliser,
        variance: variance.get(c) ?? 0,
      }));
      total += differenceUncertainty(pairs) ** 2;
    }
  }
  return Math.sqrt(total);
}

/** The distribution of a grade people gave: all its weight on that grade. */
export function knownGrade(grade: number): number[] {
  return [0, 1, 2, 3].map((g) => (g === grade ? 1 : 0));
}

/** How many pseudo-counts a cell split by the judge's stability borrows from the judge's grade overall. */
export const STABILITY_PRIOR = 4;

/**
 * The distribution of the human grade given the judge's grade, from the pairs both labelled, with
 * add-one smoothing; for a pair the judge did not label, the human grades' distribution overall.
 *
 * Given also whether the judge was unsure of the pair (`unstable`: its samples, or its jury's
 * members, gave different grades; lib/judge/grade-sets.ts), the distribution is that of the pairs
 * with the same grade and the same stability, each such cell smoothed by STABILITY_PRIOR
 * pseudo-counts spread as the grade's distribution overall (a Dirichlet prior centred on it): a cell
 * with no pair is the grade's distribution, and pairs where the judge's samples disagree get the
 * wider spread of human grades seen where it disagreed. Pairs without `unstable` (a judge with one
 * grade per pair) count only overall, and `given(grade)` without it is the grade's distribution.
 */
export function calibration(pairs: readonly { human: number; judge: number | null; unstable?: boolean }[]): {
  given: (judge: number | null, unstable?: boolean) => number[];
} {
  const counts = [0, 1, 2, 3].map(() => [1, 1, 1, 1]);
  const overall = [1, 1, 1, 1];
  const byStability = [false, true].map(() => [0, 1, 2, 3].map(() => [0, 0, 0, 0]));
  for (const p of pairs) {
    if (p.human < 0 || p.human > 3) continue;
    overall[p.human]++;
    if (p.judge === null || p.judge < 0 || p.judge > 3) continue;
    counts[p.judge][p.human]++;
    if (p.unstable !== undefined) byStability[Number(p.unstable)][p.judge][p.human]++;
  }
  const normalise = (xs: number[]) => {
    const s = xs.reduce((a, b) => a + b, 0);
    return xs.map((x) => x / s);
  };
  const byJudge = counts.map(normalise);
  const marginal = normalise(overall);
  const split = byStability.map((cells) =>
    cells.map((c, g) => normalise(c.map((x, h) => x + STABILITY_PRIOR * byJudge[g][h]))),
  );
  return {
    given: (judge, unstable) =>
      judge === null || judge < 0 || judge > 3
        ? marginal
        : unstable === undefined
          ? byJudge[judge]
          : split[Number(unstable)][judge],
  };
}

/**
 * How a measure weighs a ranked chunk's grade, when the measure is a weighted sum of grades divided
 * by a normaliser that depends on the grades of the whole pool (the ideal DCG, the relevant count):
 * "dcg" for nDCG@k (1/log₂(rank + 1) in the top k), "set" for Recall@k (1 in the top k). Null for a
 * measure whose value is not such a sum (MRR: whether an earlier chunk is relevant decides whether a
 * later one counts), which needs every pooled pair labelled.
 */
export function rankWeighting(measure: string): TRankWeighting | null {
  const ndcg = /^ndcg_cut_(\d+)$/.exec(measure);
  if (ndcg) return { kind: "dcg", cutoff: Number(ndcg[1]) };
  const recall = /^recall_(\d+)@\d+$/.exec(measure);
  if (recall) return { kind: "set", cutoff: Number(recall[1]) };
  return null;
}

/**
 * The minimal test collection of a question (Carterette, Allan & Sitaraman, SIGIR 2006): the pooled
 * chunks whose weight differs between two of the compared rankings. Every other chunk has the same
 * weight in every system, so it cancels out of each difference of the weighted sums and enters the
 * measures only through the normaliser, where the judge's grade stands in for it. Sorted ids.
 */
export function discriminatingChunks(
  rankings: readonly (readonly number[])[],
  weighting: TRankWeighting,
  pooled: ReadonlySet<number>,
): number[] {
  const weights = rankings.map((r) => {
    const m = new Map<number, number>();
    r.slice(0, weighting.cutoff).forEach((c, i) => m.set(c, weighting.kind === "dcg" ? 1 / Math.log2(i + 2) : 1));
    return m;
  });
  const out = new Set<number>();
  for (const w of weights)
    for (const c of w.keys())
      if (pooled.has(c) && weights.some((other) => (other.get(c) ?? 0) !== w.get(c))) out.add(c);
  return [...out].sort((a, b) => a - b);
}
