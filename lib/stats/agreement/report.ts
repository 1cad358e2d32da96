/**
 * The agreement report between a reference label set and another (a second annotator, an LLM
 * judge), in the shape `assessor agreement --format json` prints. Every statistic is a function of
 * the 4×4 confusion matrix, so the bootstrap that resamples whole queries adds up per-query
 * matrices weighted by how often each query was drawn.
 */
import { DEFAULT_LEVEL, DEFAULT_SEED, percentileIntervalUnsorted } from "../bootstrap.ts";
import { drawCounts } from "../bootstrap-means.ts";
import { seededRng } from "../random.ts";
import { normalQuantile } from "../normal.ts";
import type { Aligned } from "./align.ts";
import { binaryAgreement, type BinaryAgreement } from "./binary.ts";
import {
  confusionOf,
  emptyConfusion,
  GRADES,
  K,
  leniency,
  perGrade,
  rawAgreement,
  toRows,
  withinOne,
  type Confusion,
  type GradeScores,
} from "./confusion.ts";
import { cohenKappa, kappaValue, linearQuadraticKappa, type Weighting } from "./kappa.ts";
import { alphaFromConfusion } from "./krippendorff.ts";

export type Interval = { low: number; high: number };
export type AgreementReport = {
  n: number;
  unmatched: { reference_only: number; other_only: number };
  kappa: { unweighted: number | null; linear: number | null; quadratic: number | null; reason?: string };
  raw_agreement: number | null;
  within_one: number | null;
  confusion: number[][];
  per_grade: Record<string, GradeScores>;
  leniency: number | null;
  alpha_ordinal: number | null;
  binary: { ge1: BinaryAgreement; ge2: BinaryAgreement; ge3: BinaryAgreement };
  ci: {
    level: number;
    analytic: { method: string } & Record<Weighting, { se: number; low: number; high: number } | null>;
    bootstrap: {
      method: string;
      resamples: number;
      seed: number;
      queries: number;
      kappa_unweighted: Interval | null;
      kappa_linear: Interval | null;
      kappa_quadratic: Interval | null;
      alpha_ordinal: Interval | null;
      raw_agreement: Interval | null;
      within_one: Interval | null;
    } | null;
  };
};

const WEIGHTINGS: Weighting[] = ["unweighted", "linear", "quadratic"];
const GRADE_VALUES = [...GRADES];

export const alphaOrdinal = (m: Confusion) => alphaFromConfusion(m, GRADE_VALUES, "ordinal");

/**
 * What a report's bootstrap keeps between calls with the same memo key: the queries (qid order),
 * each query's confusion counts and each resample's confusion matrix (how often each resample
 * draws each query is shared, lib/stats/bootstrap-means.ts drawCounts). Counts are integers, so adding
 * the change of the queries whose pairs changed gives exactly the matrices a new computation
 * would: the intervals are the same.
 */
export type AgreementMemo = Map<
  string,
  { resamples: number; seed: number; qids: string[]; perQuery: Float64Array; matrices: Float64Array }
>;

/** The statistics the query bootstrap can give an interval for. */
export type BootstrapStat =
  "kappa_unweighted" | "kappa_linear" | "kappa_quadratic" | "alpha_ordinal" | "raw_agreement" | "within_one";

export function agreementReport(
  aligned: Aligned,
  opts: {
    bootstrap?: number;
    seed?: number;
    level?: number;
    memo?: AgreementMemo;
    memoKey?: string;
    /** Only these statistics' intervals (the others null): a caller that shows two saves the rest's work. */
    bootstrapStats?: readonly BootstrapStat[];
  } = {},
): AgreementReport {
  const level = opts.level ?? DEFAULT_LEVEL;
  const m = confusionOf(aligned.pairs);
  const n = aligned.pairs.length;
  const kappas = WEIGHTINGS.map((w) => cohenKappa(m, w));
  const reason = kappas.map((k) => ("reason" in k ? k.reason : undefined)).find((r) => r !== undefined);
  const z = normalQuantile(1 - (1 - level) / 2);
  const analytic = Object.fromEntries(
    WEIGHTINGS.map((w, i) => {
      const k = kappas[i];
      return [
        w,
        k.value !== null && k.se !== null ? { se: k.se, low: k.value - z * k.se, high: k.value + z * k.se } : null,
      ];
    }),
  ) as Record<Weighting, { se: number; low: number; high: number } | null>;
  const resamples = opts.bootstrap ?? 1000;
  return {
    n,
    unmatched: { reference_only: aligned.referenceOnly, other_only: aligned.otherOnly },
    kappa: {
      unweighted: kappas[0].value,
      linear: kappas[1].value,
      quadratic: kappas[2].value,
      ...(reason ? { reason } : {}),
    },
    raw_agreement: rawAgreement(m),
    within_one: withinOne(m),
    confusion: toRows(m),
    per_grade: perGrade(m),
    leniency: leniency(m),
    alpha_ordinal: alphaOrdinal(m),
    binary: { ge1: binaryAgreement(m, 1), ge2: binaryAgreement(m, 2), ge3: binaryAgreement(m, 3) },
    ci: {
      level,
      analytic: { method: "Fleiss, Cohen & Everitt (1969) large-sample standard error, kappa ± z·SE", ...analytic },
      bootstrap:
        resamples > 0 && n > 0
          ? queryBootstrap(
              aligned,
              resamples,
              opts.seed ?? DEFAULT_SEED,
              level,
              opts.memo,
              opts.memoKey,
              opts.bootstrapStats,
            )
          : null,
    },
  };
}

const MAX_KEPT_DRAWS = 16_000_000;

/**
 * Adds query q's confusion counts (or their change), weighted by how often each resample drew q,
 * to every resample's matrix; only the query's non-zero cells are visited (a slice's query often
 * has a few pairs in two or three cells). Counts and weights are integers, so the sums are exact
 * whatever the order of the additions.
 */
function addQuery(
  matrices: Float64Array,
  drawn: Uint8Array,
  units: number,
  resamples: number,
  q: number,
  counts: ArrayLike<number>,
): void {
  const cells = K * K;
  const at: number[] = [];
  const by: number[] = [];
  for (let c = 0; c < cells; c++)
    if (counts[c] !== 0) {
      at.push(c);
      by.push(counts[c]);
    }
  if (at.length === 0) return;
  for (let b = 0; b < resamples; b++) {
    const w = drawn[b * units + q];
    if (w === 0) continue;
    const base = b * cells;
    for (let j = 0; j < at.length; j++) matrices[base + at[j]] += w * by[j];
  }
}

/**
 * The queries' counts regrouped by cell, for building a resample's matrix from scratch: cell
 * `cell[g]` of a resample is the sum, over the queries listed for it (`query`, from `start[g]` to
 * `start[g + 1]`), of how often the resample drew the query times its count there (`count`).
 * Integers (a count of draws times a count of pairs), summed as such: exactly the matrix addQuery
 * adds up query by query, in whichever order.
 */
type TCellColumns = { cell: Int32Array; start: Int32Array; query: Int32Array; count: Int32Array };

function cellColumns(perQuery: Float64Array, units: number): TCellColumns {
  const cells = K * K;
  const used: number[] = [];
  const start = [0];
  const query: number[] = [];
  const count: number[] = [];
  for (let c = 0; c < cells; c++) {
    for (let q = 0; q < units; q++)
      if (perQuery[q * cells + c] !== 0) {
        query.push(q);
        count.push(perQuery[q * cells + c]);
      }
    if (query.length > start[start.length - 1]) {
      used.push(c);
      start.push(query.length);
    }
  }
  return {
    cell: Int32Array.from(used),
    start: Int32Array.from(start),
    query: Int32Array.from(query),
    count: Int32Array.from(count),
  };
}

/** Resample b's matrix into `m` (its unused cells left as they are: zero). */
function resampleMatrix(cols: TCellColumns, drawn: Uint8Array, units: number, b: number, m: Confusion): void {
  const row = b * units;
  const { cell, start, query, count } = cols;
  for (let g = 0; g < cell.length; g++) {
    let sum = 0;
    for (let t = start[g]; t < start[g + 1]; t++) sum = (sum + drawn[row + query[t]] * count[t]) | 0;
    m[cell[g]] = sum;
  }
}

/**
 * Percentile intervals from resampling whole queries with replacement (queries numbered in qid
 * order, so a shuffled input gives the same intervals). A resample's confusion matrix is the sum
 * of the drawn queries' matrices weighted by how often each was drawn, so it costs O(queries), not
 * O(pairs); with a memo, only the queries whose pairs changed are added again.
 * Resamples where a statistic is undefined (e.g. every drawn pair has the same grade) are dropped
 * for that statistic.
 */
function queryBootstrap(
  aligned: Aligned,
  resamples: number,
  seed: number,
  level: number,
  memo?: AgreementMemo,
  memoKey?: string,
  only?: readonly BootstrapStat[],
): NonNullable<AgreementReport["ci"]["bootstrap"]> {
  // Each pair's query, numbered as first seen.
  const qidIndex = new Map<string, number>();
  const pairQuery = new Int32Array(aligned.pairs.length);
  aligned.pairs.forEach((p, i) => {
    let qi = qidIndex.get(p.qid);
    if (qi === undefined) qidIndex.set(p.qid, (qi = qidIndex.size));
    pairQuery[i] = qi;
  });
  // Queries are numbered in qid order (plain string order), not in the order the labels came in,
  // so the resamples (hence the intervals) do not depend on how the input was sorted.
  const qids = [...qidIndex.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rankOf = new Int32Array(qids.length);
  qids.forEach((qid, rank) => (rankOf[qidIndex.get(qid)!] = rank));
  const units = qids.length;
  const cells = K * K;
  const perQuery = new Float64Array(units * cells);
  aligned.pairs.forEach((p, i) => perQuery[rankOf[pairQuery[i]] * cells + p.reference * K + p.other]++);
  const kept = memoKey === undefined ? undefined : memo?.get(memoKey);
  // How often each resample draws each query: the draws of bootstrapDistribution (same seed),
  // shared by every report over the same number of queries (kept in memory: for a one-off report
  // only while they fit in 16 MB, e.g. 10,000 resamples of 1,600 queries; larger ones draw as
  // they go, with the same draws).
  const drawn =
    (memo && memoKey !== undefined) || resamples * units <= MAX_KEPT_DRAWS ? drawCounts(units, resamples, seed) : null;
  let matrices: Float64Array | null;
  let columns: TCellColumns | null = null;
  if (
    drawn &&
    kept &&
    kept.resamples === resamples &&
    kept.seed === seed &&
    kept.qids.length === units &&
    kept.qids.every((q, i) => q === qids[i])
  ) {
    matrices = kept.matrices;
    const delta = new Float64Array(cells);
    for (let q = 0; q < units; q++) {
      for (let c = 0; c < cells; c++) delta[c] = perQuery[q * cells + c] - kept.perQuery[q * cells + c];
      addQuery(matrices, drawn, units, resamples, q, delta);
    }
    kept.perQuery = perQuery;
  } else {
    if (drawn && !(memo && memoKey !== undefined)) {
      // Nothing to keep: each resample's matrix is built when its statistics are computed.
      matrices = null;
      columns = cellColumns(perQuery, units);
    } else if (drawn) {
      matrices = new Float64Array(resamples * cells);
      for (let q = 0; q < units; q++)
        addQuery(matrices, drawn, units, resamples, q, perQuery.subarray(q * cells, (q + 1) * cells));
      if (memo && memoKey !== undefined) memo.set(memoKey, { resamples, seed, qids, perQuery, matrices });
    } else {
      matrices = new Float64Array(resamples * cells);
      // Too many draws to keep, or a query drawn more than 255 times in one resample (drawCounts
      // keeps bytes): draw again, resample by resample.
      const rng = seededRng(seed);
      const mult = new Uint32Array(units);
      for (let b = 0; b < resamples; b++) {
        mult.fill(0);
        for (let i = 0; i < units; i++) mult[rng.int(units)]++;
        for (let q = 0; q < units; q++) {
          const w = mult[q];
          if (w) for (let c = 0; c < cells; c++) matrices[b * cells + c] += w * perQuery[q * cells + c];
        }
      }
    }
  }
  const stats = {
    kappa_unweighted: (m: Confusion) => kappaValue(m, "unweighted"),
    kappa_linear: (m: Confusion) => kappaValue(m, "linear"),
    kappa_quadratic: (m: Confusion) => kappaValue(m, "quadratic"),
    alpha_ordinal: alphaOrdinal,
    raw_agreement: rawAgreement,
    within_one: withinOne,
  };
  const names = (Object.keys(stats) as BootstrapStat[]).filter((s) => !only || only.includes(s));
  const draws = names.map(() => new Float64Array(resamples));
  const keptDraws = names.map(() => 0);
  // Linear and quadratic kappa together when both are asked for (the Annotators card's two):
  // one pass over the matrix gives both, as kappaValue would.
  const linear = names.indexOf("kappa_linear");
  const quadratic = names.indexOf("kappa_quadratic");
  const both = linear >= 0 && quadratic >= 0;
  const pair = new Float64Array(2);
  const fns = names.map((name, s) => (both && (s === linear || s === quadratic) ? null : stats[name]));
  const m = emptyConfusion();
  for (let b = 0; b < resamples; b++) {
    if (matrices) for (let c = 0; c < cells; c++) m[c] = matrices[b * cells + c];
    else if (columns && drawn) resampleMatrix(columns, drawn, units, b, m);
    if (both) {
      linearQuadraticKappa(m, pair);
      if (Number.isFinite(pair[0])) draws[linear][keptDraws[linear]++] = pair[0];
      if (Number.isFinite(pair[1])) draws[quadratic][keptDraws[quadratic]++] = pair[1];
    }
    for (let s = 0; s < fns.length; s++) {
      const fn = fns[s];
      if (!fn) continue;
      const v = fn(m);
      if (v !== null && Number.isFinite(v)) draws[s][keptDraws[s]++] = v;
    }
  }
  const interval = (name: BootstrapStat): Interval | null => {
    const s = names.indexOf(name);
    if (s < 0) return null;
    const iv = percentileIntervalUnsorted(draws[s], keptDraws[s], level, resamples);
    return iv ? { low: iv.low, high: iv.high } : null;
  };
  return {
    method: "percentile bootstrap resampling whole queries with replacement",
    resamples,
    seed,
    queries: units,
    kappa_unweighted: interval("kappa_unweighted"),
    kappa_linear: interval("kappa_linear"),
    kappa_quadratic: interval("kappa_quadratic"),
    alpha_ordinal: interval("alpha_ordinal"),
    raw_agreement: interval("raw_agreement"),
    within_one: interval("within_one"),
  };
}
