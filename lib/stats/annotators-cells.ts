/**
 * The figures of one comparison in the Annotators report (lib/stats/annotators.ts): an agreement
 * cell (kappa family with question-bootstrap intervals), a leniency with its interval, and time per
 * item; the first two remembered by their exact input. Definitions: lib/stats/annotators.ts.
 */
import { createHash } from "node:crypto";
import { bootstrapDistribution, DEFAULT_LEVEL, DEFAULT_SEED, percentileInterval, quantileSorted } from "./bootstrap.ts";
import { drawCounts } from "./bootstrap-means.ts";
import { agreementReport } from "./agreement/report.ts";
import type { LabelPair } from "./agreement/align.ts";
import type { TAgreementCell, TAnnotatorOptions, TInterval } from "./annotators.ts";

export const DEFAULT_MIN_PAIRS = 10;
const MIN_QUESTIONS = 3;
/** Draw tables kept for the leniency bootstrap up to this size (as the agreement report's). */
const MAX_KEPT_DRAWS = 16_000_000;

function questionsOf(pairs: readonly LabelPair[]): number {
  return new Set(pairs.map((p) => p.qid)).size;
}

/**
 * Cells computed before, by their exact input: a label change alters the cells of the item's own
 * annotators (about 3 of the 1,275 cells of 50 annotators), so the card after a change computes
 * those and takes the others from here. The key is a SHA-256 of every pair in order (question,
 * item, both grades) and the options, so an entry can serve any project or database that gives
 * the same input, and never a different one. Least recently used entries leave past CELL_MEMO_MAX.
 */
const CELL_MEMO_MAX = 20_000;
const cellMemo = new Map<string, TAgreementCell | { value: number; interval: TInterval | null } | null>();

function cellKey(kind: string, pairs: readonly LabelPair[], opts: TAnnotatorOptions): string {
  const parts = [
    `${kind}|${opts.resamples ?? 1000}|${opts.seed ?? DEFAULT_SEED}|${opts.level ?? DEFAULT_LEVEL}|${opts.minPairs ?? DEFAULT_MIN_PAIRS}`,
  ];
  for (const p of pairs) parts.push(`${p.qid}\u0000${p.docid}\u0000${p.reference}\u0000${p.other}`);
  return createHash("sha256").update(parts.join("\n")).digest("base64");
}

function memoised<T extends TAgreementCell | { value: number; interval: TInterval | null } | null>(
  kind: string,
  pairs: readonly LabelPair[],
  opts: TAnnotatorOptions,
  compute: () => T,
): T {
  const key = cellKey(kind, pairs, opts);
  if (cellMemo.has(key)) {
    const known = cellMemo.get(key) as T;
    cellMemo.delete(key); // most recently used last
    cellMemo.set(key, known);
    return known;
  }
  const value = compute();
  cellMemo.set(key, value);
  if (cellMemo.size > CELL_MEMO_MAX) cellMemo.delete(cellMemo.keys().next().value!);
  return value;
}

/** Kappa family with bootstrap intervals, or the reason there is no number (memoised: see cellMemo). */
export function agreementCell(pairs: LabelPair[], opts: TAnnotatorOptions): TAgreementCell {
  return memoised("kappa", pairs, opts, () => computeAgreementCell(pairs, opts));
}

function computeAgreementCell(pairs: LabelPair[], opts: TAnnotatorOptions): TAgreementCell {
  const n = pairs.length;
  const questions = questionsOf(pairs);
  const minPairs = opts.minPairs ?? DEFAULT_MIN_PAIRS;
  if (n < minPairs) return { n, questions, reason: `${n} pairs: fewer than ${minPairs}` };
  if (questions < MIN_QUESTIONS) return { n, questions, reason: `${questions} questions: fewer than ${MIN_QUESTIONS}` };
  const r = agreementReport(
    { pairs, referenceOnly: 0, otherOnly: 0 },
    {
      bootstrap: opts.resamples ?? 1000,
      seed: opts.seed ?? DEFAULT_SEED,
      level: opts.level ?? DEFAULT_LEVEL,
      bootstrapStats: ["kappa_linear", "kappa_quadratic"],
    },
  );
  const b = r.ci.bootstrap;
  const interval = (i: { low: number; high: number } | null | undefined) => (i ? { low: i.low, high: i.high } : null);
  return {
    n,
    questions,
    linear: r.kappa.linear,
    quadratic: r.kappa.quadratic,
    linearInterval: interval(b?.kappa_linear),
    quadraticInterval: interval(b?.kappa_quadratic),
    rawAgreement: r.raw_agreement,
  };
}

/** Mean of (other − reference) with the percentile bootstrap over questions (memoised as the cells are). */
export function leniencyWithInterval(
  pairs: readonly LabelPair[],
  opts: TAnnotatorOptions,
): { value: number; interval: TInterval | null } | null {
  return memoised("leniency", pairs, opts, () => computeLeniency(pairs, opts));
}

function computeLeniency(
  pairs: readonly LabelPair[],
  opts: TAnnotatorOptions,
): { value: number; interval: TInterval | null } | null {
  if (pairs.length === 0) return null;
  const qids = [...new Set(pairs.map((p) => p.qid))];
  const index = new Map(qids.map((q, i) => [q, i]));
  const sums = new Float64Array(qids.length);
  const counts = new Float64Array(qids.length);
  for (const p of pairs) {
    const i = index.get(p.qid)!;
    sums[i] += p.other - p.reference;
    counts[i] += 1;
  }
  const value = sums.reduce((s, x) => s + x, 0) / pairs.length;
  const resamples = opts.resamples ?? 1000;
  const level = opts.level ?? DEFAULT_LEVEL;
  const seed = opts.seed ?? DEFAULT_SEED;
  const units = qids.length;
  // The draws of bootstrapDistribution, kept by drawCounts and shared with the reference cell's
  // bootstrap over the same questions; each resample summed as bootstrapDistribution's statistic
  // below sums it (same operations in the same order: the same numbers).
  const drawn = resamples * units <= MAX_KEPT_DRAWS ? drawCounts(units, resamples, seed) : null;
  let values: Float64Array;
  if (drawn) {
    const out = new Float64Array(resamples);
    let kept = 0;
    for (let b = 0; b < resamples; b++) {
      const row = b * units;
      let s = 0;
      let c = 0;
      for (let i = 0; i < units; i++) {
        const m = drawn[row + i];
        s += m * sums[i];
        c += m * counts[i];
      }
      const v = c > 0 ? s / c : null;
      if (v !== null && Number.isFinite(v)) out[kept++] = v;
    }
    values = out.slice(0, kept).sort();
  } else
    values = bootstrapDistribution(
      units,
      (mult) => {
        let s = 0;
        let c = 0;
        for (let i = 0; i < mult.length; i++) {
          s += mult[i] * sums[i];
          c += mult[i] * counts[i];
        }
        return c > 0 ? s / c : null;
      },
      { resamples, seed },
    ).values;
  const ci = qids.length >= MIN_QUESTIONS ? percentileInterval(values, level, resamples) : null;
  return { value, interval: ci ? { low: ci.low, high: ci.high } : null };
}

export function sortedNumbers(xs: Iterable<number>): Float64Array {
  return Float64Array.from(xs).sort();
}

export type TTimePerItem = {
  n: number;
  medianMs: number | null;
  p10Ms: number | null;
  fastShare: number | null;
  fastMs: number;
};

/** Time per item (ms): median and 10th percentile (type-7 quantiles), the share at or under `fastMs`. */
export function timePerItem(times: readonly number[], fastMs: number): TTimePerItem {
  const t = sortedNumbers(times);
  return {
    n: t.length,
    medianMs: t.length ? quantileSorted(t, 0.5) : null,
    p10Ms: t.length ? quantileSorted(t, 0.1) : null,
    fastShare: t.length ? t.filter((x) => x <= fastMs).length / t.length : null,
    fastMs,
  };
}
