/**
 * Statistics of generated answers, pure (no database): faithfulness of an answer from its
 * claim labels, judge vs human agreement on claim support and on per-answer faithfulness, and the
 * failure attribution table (retrieval failed / generator failed / good without evidence / fine).
 * Intervals, paired tests and kappa are lib/stats' own (bootstrap.ts, bootstrap-means.ts, paired.ts, agreement/).
 *
 * Claim labels: `s` supported by the context, `p` partly supported, `n` not supported, `x` true per
 * the video but absent from the context (lib/answers/labels.ts).
 */
import { cohenKappa, type KappaResult } from "./agreement/kappa.ts";
import type { Interval } from "./bootstrap.ts";
import { bootstrapMeanIntervals, type MeanIntervalMemo } from "./bootstrap-means.ts";
import { pairedRandomizationTests, type PairedMemo } from "./paired.ts";
import { confusionOf, perGrade, rawAgreement, toRows } from "./agreement/confusion.ts";
import { ndcg, type Gain } from "./measures/ndcg.ts";
import { UNJUDGED } from "./measures/types.ts";

export type TSupportLabel = "s" | "p" | "n" | "x";

/** TREC RAG 2024 scores partial support as half of full support; the variant counts it 0. */
export const PARTIAL_WEIGHT = 0.5;

/**
 * Faithfulness of one answer: (#s + w·#p) / #claims. `n` and `x` count 0: a claim true per the
 * video but absent from the context is not supported *by the context* (RAGAS: claims inferable from
 * the context ÷ all claims). An answer without claims has no faithfulness (null: excluded from
 * means and counted apart).
 */
export function faithfulness(labels: readonly TSupportLabel[], partialWeight: number = PARTIAL_WEIGHT): number | null {
  if (labels.length === 0) return null;
  let s = 0;
  for (const l of labels) s += l === "s" ? 1 : l === "p" ? partialWeight : 0;
  return s / labels.length;
}

/**
 * A good answer, for the failure attribution: supported share (faithfulness with partial = 0.5)
 * ≥ 0.5 AND relevance ≥ 2 (answers the question at least partly). null when faithfulness is
 * undefined (no claims).
 */
export const GOOD_ANSWER = { minFaithfulness: 0.5, minRelevance: 2 } as const;
export const GOOD_ANSWER_TEXT = "good answer = supported share (partial counted 0.5) ≥ 0.5 and relevance ≥ 2";

export function isGoodAnswer(labels: readonly TSupportLabel[], relevance: number): boolean | null {
  const f = faithfulness(labels, PARTIAL_WEIGHT);
  if (f === null) return null;
  return f >= GOOD_ANSWER.minFaithfulness && relevance >= GOOD_ANSWER.minRelevance;
}

// ---------------------------------------------------------------------------------------------
// Judge vs human on claim support

export const SUPPORT_ORDER: readonly TSupportLabel[] = ["s", "p", "n", "x"];
/** Ordinal position for the weighted kappa: n < p < s, with x treated as n (not supported by the context). */
const ORDINAL: Record<TSupportLabel, number> = { n: 0, x: 0, p: 1, s: 2 };
/** Index in the 4-label confusion matrix (rows and columns in SUPPORT_ORDER). */
const INDEX: Record<TSupportLabel, number> = { s: 0, p: 1, n: 2, x: 3 };

export type TClaimAgreement = {
  /** Claims labelled by both (same claim version). */
  n: number;
  /**
   * Cohen's kappa over the ordered labels n < p < s with x counted as n, linear and quadratic
   * weights (lib/stats/agreement/kappa.ts; equals scikit-learn's cohen_kappa_score(human, judge,
   * weights=…) on the ordinal codes 0–2: kappa does not change when every distance is scaled, so
   * the fixed 0–3 scale's weights give the same value with grade 3 unused) and unweighted on the
   * same three levels.
   */
  kappa: { linear: KappaResult; quadratic: KappaResult; unweighted: KappaResult };
  /** Share of claims with the same label, on the four labels. */
  rawAgreement: number | null;
  /** 4×4 counts, rows the human label, columns the judge's, both in SUPPORT_ORDER (s, p, n, x). */
  confusion: number[][];
  /** Per label, the human as truth: precision = judge's label l that the human also gave ÷ all the judge's l; recall ÷ all the human's l; null where the divisor is 0. */
  perLabel: Record<TSupportLabel, { precision: number | null; recall: number | null; support: number }>;
};

export function claimAgreement(pairs: readonly { human: TSupportLabel; judge: TSupportLabel }[]): TClaimAgreement {
  const ordinal = confusionOf(pairs.map((p) => ({ reference: ORDINAL[p.human], other: ORDINAL[p.judge] })));
  const four = confusionOf(pairs.map((p) => ({ reference: INDEX[p.human], other: INDEX[p.judge] })));
  const pg = perGrade(four);
  const perLabel = {} as TClaimAgreement["perLabel"];
  for (const l of SUPPORT_ORDER) perLabel[l] = pg[String(INDEX[l])];
  return {
    n: pairs.length,
    kappa: {
      linear: cohenKappa(ordinal, "linear"),
      quadratic: cohenKappa(ordinal, "quadratic"),
      unweighted: cohenKappa(ordinal, "unweighted"),
    },
    rawAgreement: rawAgreement(four),
    confusion: toRows(four),
    perLabel,
  };
}

// ---------------------------------------------------------------------------------------------
// Judge vs human on per-answer faithfulness

/** Ranks 1…n with ties given the average of the ranks they span (scipy.stats.rankdata "average"). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v);
  const ranks = new Array<number>(values.length);
  for (let k = 0; k < order.length;) {
    let j = k;
    while (j + 1 < order.length && order[j + 1].v === order[k].v) j++;
    const rank = (k + j) / 2 + 1;
    for (let t = k; t <= j; t++) ranks[order[t].i] = rank;
    k = j + 1;
  }
  return ranks;
}

export type TSpearman = { rho: number; n: number } | { rho: null; n: number; reason: string };

/**
 * Spearman's rank correlation: Pearson's correlation of the average ranks (ties averaged), as
 * scipy.stats.spearmanr. Undefined (null with the reason) for fewer than two pairs or when one side
 * is constant.
 */
export function spearman(x: readonly number[], y: readonly number[]): TSpearman {
  if (x.length !== y.length) throw new RangeError(`spearman: ${x.length} vs ${y.length} values`);
  const n = x.length;
  if (n < 2) return { rho: null, n, reason: "fewer than two answers" };
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const a = rx[i] - mean;
    const b = ry[i] - mean;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  if (sxx === 0 || syy === 0) return { rho: null, n, reason: "one side gives every answer the same faithfulness" };
  return { rho: sxy / Math.sqrt(sxx * syy), n };
}

export type TFaithfulnessAgreement = { n: number; meanAbsDiff: number | null; spearman: TSpearman };

/** Per-answer faithfulness, judge vs human: mean absolute difference and Spearman's rho. */
export function faithfulnessAgreement(pairs: readonly { human: number; judge: number }[]): TFaithfulnessAgreement {
  let s = 0;
  for (const p of pairs) s += Math.abs(p.judge - p.human);
  return {
    n: pairs.length,
    meanAbsDiff: pairs.length ? s / pairs.length : null,
    spearman: spearman(
      pairs.map((p) => p.human),
      pairs.map((p) => p.judge),
    ),
  };
}

// ---------------------------------------------------------------------------------------------
// Failure attribution

/**
 * What the reference chunk labels say about an answer's context (the chunks given to the model, in
 * order): the highest grade among them (-1 when none is labelled) and the context's nDCG@k as a
 * ranking (lib/stats/measures/ndcg.ts, the dashboard's gain). `judged` holds the query's reference
 * labels (chunk id → grade), `judgedAtGrade` their counts per grade (the ideal ranking). nDCG is
 * null when the query has no reference label above 0 (nothing to rank against).
 */
export function contextRelevance(
  context: readonly number[],
  judged: ReadonlyMap<number, number>,
  gain: Gain,
  cutoff = 10,
): { maxGrade: number; ndcg: number | null } {
  const grades = new Int8Array(context.length);
  let maxGrade = -1;
  for (let i = 0; i < context.length; i++) {
    const g = judged.get(context[i]);
    grades[i] = g ?? UNJUDGED;
    if (g !== undefined && g > maxGrade) maxGrade = g;
  }
  const judgedAtGrade = [0, 0, 0, 0];
  for (const g of judged.values()) if (g >= 0 && g <= 3) judgedAtGrade[g]++;
  const anyRelevant = judgedAtGrade[1] + judgedAtGrade[2] + judgedAtGrade[3] > 0;
  return { maxGrade, ndcg: anyRelevant ? ndcg({ qid: "", grades, judgedAtGrade }, { cutoff, gain }) : null };
}

export const ATTRIBUTION_CELLS = ["retrieval_failed", "generator_failed", "good_without_evidence", "fine"] as const;
export type TAttributionCell = (typeof ATTRIBUTION_CELLS)[number];
export type TAttributionTable = {
  /** A chunk of the context has a reference grade ≥ this. */
  minGrade: number;
  counts: Record<TAttributionCell, number>;
  /** Up to `examples` question ids per cell, in qid order. */
  examples: Record<TAttributionCell, string[]>;
  /** Answers counted (the four cells' sum). */
  n: number;
};

/**
 * The 2×2 table of question × system: relevant chunk in the context (max grade ≥ minGrade) ×
 * good answer. retrieval failed: no relevant chunk, answer not good; generator failed: relevant
 * chunk present, answer not good; good without evidence: no relevant chunk, good answer (an unjudged
 * chunk or knowledge from outside the context: worth an audit); fine: both.
 */
export function attributionTable(
  rows: readonly { qid: string; maxGrade: number; good: boolean }[],
  minGrade: number,
  examples = 5,
): TAttributionTable {
  const counts: Record<TAttributionCell, number> = {
    retrieval_failed: 0,
    generator_failed: 0,
    good_without_evidence: 0,
    fine: 0,
  };
  const qids: Record<TAttributionCell, string[]> = {
    retrieval_failed: [],
    generator_failed: [],
    good_without_evidence: [],
    fine: [],
  };
  for (const r of rows) {
    const relevant = r.maxGrade >= minGrade;
    const cell: TAttributionCell = relevant
      ? r.good
        ? "fine"
        : "generator_failed"
      : r.good
        ? "good_without_evidence"
        : "retrieval_failed";
    counts[cell]++;
    qids[cell].push(r.qid);
  }
  const ex = {} as Record<TAttributionCell, string[]>;
  for (const c of ATTRIBUTION_CELLS) ex[c] = [...new Set(qids[c])].sort().slice(0, examples);
  return { minGrade, counts, examples: ex, n: rows.length };
}

// ---------------------------------------------------------------------------------------------
// Per-system means

export type TMeanCell = {
  mean: number | null;
  n: number;
  ci: Interval | null;
  test: { meanDiff: number; p: number; n: number } | null;
};

/**
 * Per system, the mean of a per-question value over the questions where it is defined (null:
 * no label, or no claims), with a 95% bootstrap interval over questions (bootstrapMeanIntervals:
 * one set of resamples for every system, as the systems table) and a paired randomization test
 * against the baseline system on the questions where both are defined (pairedRandomizationTests;
 * meanDiff = system − baseline). `values[system][question]`. With `memo` and a key per system, a
 * column seen before is updated on the questions whose values changed (the same numbers, as the
 * systems table: lib/stats/bootstrap-means.ts, lib/stats/paired.ts).
 */
export function systemMeans(
  values: readonly (readonly (number | null)[])[],
  baseline: number,
  opts: {
    resamples: number;
    trials: number;
    seed: number;
    level: number;
    memo?: { intervals: MeanIntervalMemo; paired: PairedMemo };
    keys?: readonly string[];
  },
): TMeanCell[] {
  const units = values[0]?.length ?? 0;
  const memo = opts.memo && opts.keys ? { memo: opts.memo.intervals, keys: opts.keys } : {};
  const intervals = bootstrapMeanIntervals(values, units, {
    resamples: opts.resamples,
    seed: opts.seed,
    level: opts.level,
    ...memo,
  });
  const pairs: { a: number[]; b: number[] }[] = [];
  const pairKeys: string[] = [];
  const pairOf = new Map<number, number>();
  values.forEach((col, s) => {
    if (s === baseline || baseline < 0) return;
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < units; i++) {
      const x = values[baseline][i];
      const y = col[i];
      if (x === null || y === null) continue;
      a.push(x);
      b.push(y);
    }
    if (a.length === 0) return;
    pairOf.set(s, pairs.length);
    pairs.push({ a, b });
    if (opts.keys) pairKeys.push(`${opts.keys[s]}\u0000vs\u0000${opts.keys[baseline]}`);
  });
  const tests = pairedRandomizationTests(pairs, {
    trials: opts.trials,
    seed: opts.seed,
    ...(opts.memo && opts.keys ? { memo: opts.memo.paired, keys: pairKeys } : {}),
  });
  return values.map((col, s) => {
    let sum = 0;
    let n = 0;
    for (const v of col)
      if (v !== null) {
        sum += v;
        n++;
      }
    const t = pairOf.get(s);
    const test = t === undefined ? null : { meanDiff: tests[t].meanDiff, p: tests[t].p, n: tests[t].n };
    return { mean: n ? sum / n : null, n, ci: n ? intervals[s] : null, test };
  });
}
