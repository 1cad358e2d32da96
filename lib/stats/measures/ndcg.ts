import type { RankedQuery } from "./types.ts";

export type Gain = "linear" | "exponential";

/** Gain of a grade: the grade itself (trec_eval) or 2^grade − 1 (the evaluation plan). */
export function gainOf(grade: number, gain: Gain): number {
  if (grade <= 0) return 0;
  return gain === "linear" ? grade : 2 ** grade - 1;
}

/** DCG of the top `cutoff` ranks (all when cutoff is Infinity), discount log2(rank + 1). */
export function dcg(grades: ArrayLike<number>, cutoff: number, gain: Gain): number {
  const n = Math.min(cutoff, grades.length);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const g = grades[i];
    if (g > 0) sum += gainOf(g, gain) / Math.log2(i + 2);
  }
  return sum;
}

/** Ideal DCG: every judged chunk of the query in the qrels, best grade first, cut at `cutoff`. */
export function idealDcg(judgedAtGrade: readonly number[], cutoff: number, gain: Gain): number {
  let sum = 0;
  let rank = 0;
  for (let g = judgedAtGrade.length - 1; g >= 1; g--) {
    for (let c = 0; c < judgedAtGrade[g]; c++) {
      if (rank >= cutoff) return sum;
      sum += gainOf(g, gain) / Math.log2(rank + 2);
      rank++;
    }
  }
  return sum;
}

/**
 * nDCG (Järvelin & Kekäläinen 2002) as trec_eval 9.0.8+/10 computes `ndcg` and `ndcg_cut.k`:
 * DCG = Σ gain(grade at rank r) / log2(r + 1) over the ranking (or its top k), divided by the DCG
 * of the ideal ranking built from every judged chunk of the query in the qrels (retrieved or not),
 * cut at the same k. Unjudged chunks and grade 0 gain nothing. The relevance level (-l) does not
 * apply: grades are used as they are.
 *
 * - `gain: "linear"` uses the grade as gain (trec_eval's `ndcg`, `ndcg_cut.k`);
 *   `gain: "exponential"` uses 2^grade − 1 (our `ndcg_exp`, `ndcg_exp_cut.k`, as the evaluation
 *   plan's worked example).
 * - A query without any chunk graded above 0 has ideal DCG 0 and scores 0; it still counts in the
 *   mean.
 */
export function ndcg(q: RankedQuery, opts: { cutoff?: number; gain: Gain }): number {
  const cutoff = opts.cutoff ?? Infinity;
  const ideal = idealDcg(q.judgedAtGrade, cutoff, opts.gain);
  if (ideal <= 0) return 0;
  return dcg(q.grades, cutoff, opts.gain) / ideal;
}
