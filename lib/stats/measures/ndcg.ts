import { discounts } from "./discount.ts";
import { gainOfLevel, IdealGains, type Gains } from "./gains.ts";
import type { RankedQuery, RelInfo } from "./types.ts";

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

/**
 * trec_eval's `ndcg` (m_ndcg.c), with its gain parameters (`-m ndcg.1=3,2=9`, gains.ts): DCG of the
 * whole ranking, gain(value) / log2(rank + 1), over the DCG of the ideal ranking of the judged
 * chunks by decreasing gain (levels with a gain ≤ 0 end it). 0 when the ideal DCG is 0. Without
 * parameters it equals ndcg(q, { gain: "linear" }).
 */
export function ndcgGains(r: RelInfo, gains: Gains): number {
  const ideal = new IdealGains(gains);
  const lg = discounts(r.numRet + r.relLevels.reduce((a, b) => a + b, 0) + 1);
  let results = 0;
  let idealDcgSum = 0;
  let i = 0;
  for (; i < r.numRet && ideal.gain > 0; i++) {
    const g = gainOfLevel(r.rels[i], gains);
    if (g !== 0) results += g / lg[i];
    const ig = ideal.next();
    if (ig > 0) idealDcgSum += ig / lg[i];
  }
  for (; i < r.numRet; i++) {
    const g = gainOfLevel(r.rels[i], gains);
    if (g !== 0) results += g / lg[i];
  }
  while (ideal.gain > 0) {
    const ig = ideal.next();
    if (ig > 0) idealDcgSum += ig / lg[i];
    i++;
  }
  return idealDcgSum > 0 ? results / idealDcgSum : 0;
}

/**
 * trec_eval's `ndcg_cut.k` (m_ndcg_cut.c) on its RelInfo: DCG of the top k with the relevance value
 * as gain (values ≤ 0 gain nothing; gain parameters do not apply) over the ideal DCG of the top k of
 * the judged chunks by decreasing value. The ideal DCG of 0 leaves the (then 0) DCG as it is.
 */
export function ndcgCut(r: RelInfo, cutoffs: readonly number[]): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  const lg = discounts(
    Math.max(
      r.numRet,
      r.relLevels.reduce((a, b) => a + b, 0),
    ) + 1,
  );
  let c = 0;
  let sum = 0;
  for (let i = 0; i < r.numRet; i++) {
    if (i === cutoffs[c]) {
      out[c] = sum;
      if (++c === cutoffs.length) break;
    }
    const g = r.rels[i];
    if (g > 0) sum += g / lg[i];
  }
  for (; c < cutoffs.length; c++) out[c] = sum;
  c = 0;
  let lvl = r.relLevels.length - 1;
  let count = 0;
  let ideal = 0;
  for (let i = 0; ; i++) {
    count++;
    while (lvl > 0 && count > r.relLevels[lvl]) {
      lvl--;
      count = 1;
    }
    if (lvl <= 0) break;
    if (i === cutoffs[c]) {
      if (ideal > 0) out[c] /= ideal;
      if (++c === cutoffs.length) break;
    }
    ideal += lvl / lg[i];
  }
  for (; c < cutoffs.length; c++) if (ideal > 0) out[c] /= ideal;
  return out;
}
