/**
 * The quality of each annotator's grades: agreement with the reference, with each other annotator
 * and with a judge; leniency; corrected-start error; how often adjudication overturned them; time
 * per item. Pure: the caller loads the items (lib/annotators/report.ts).
 *
 * Definitions
 * - Reference without the annotator's own grade ("leave-one-out"): an annotator's grade must not
 *   be compared with a reference it decided. For an adjudicated item the reference is the
 *   adjudicator's grade and start; for an agreed item it is what the OTHER annotators' grades
 *   decide (their median grade rounded down, lib/labels/rule.ts agreedGrade; the mean of their
 *   starts given with a grade ≥ 1); an item only this annotator graded, or with no final label
 *   (incomplete, waiting for adjudication), is left out.
 * - Kappa, raw agreement, confusion: lib/stats/agreement/report.ts (scikit-learn's
 *   cohen_kappa_score, linear and quadratic weights), reference as rows; 95% intervals are the
 *   percentile bootstrap over questions (the pairs of a question are not independent).
 * - Leniency: mean of (annotator's grade − reference grade), positive = more generous; its interval
 *   is the same question bootstrap of the pooled mean.
 * - Start error: |annotator's corrected start − reference start| in seconds, where both exist.
 * - Overturned: of the annotator's grades on adjudicated items, those the adjudicator's grade
 *   differs from; the share is over every item they graded.
 * - Time per item: the submission's time spent (ms); median and 10th percentile (type-7 quantiles,
 *   as R's default and numpy's "linear"); the share at or under the lead's threshold.
 * Fewer than `minPairs` pairs (default 10) or fewer than 3 questions: no number, a reason instead.
 */
import { bootstrapDistribution, DEFAULT_LEVEL, DEFAULT_SEED, percentileInterval, quantileSorted } from "./bootstrap.ts";
import { agreementReport } from "./agreement/report.ts";
import type { LabelPair } from "./agreement/align.ts";
import { confusionOf, toRows } from "./agreement/confusion.ts";
import { agreedGrade } from "../labels/rule.ts";

export type TAnnotatorJudgement = {
  annotator: string;
  grade: number;
  startSeconds: number | null;
  timeSpentMs: number | null;
};
export type TAnnotatedItem = {
  qid: string;
  docid: string;
  judgements: readonly TAnnotatorJudgement[];
  adjudication: { grade: number; startSeconds: number | null } | null;
  /** The item's final human label (agreed or adjudicated), null while incomplete or disputed. */
  final: { grade: number; startSeconds: number | null } | null;
};
export type TGradeLabel = { qid: string; docid: string; grade: number };

export type TInterval = { low: number; high: number };
export type TAgreementCell =
  | {
      n: number;
      questions: number;
      linear: number | null;
      quadratic: number | null;
      linearInterval: TInterval | null;
      quadraticInterval: TInterval | null;
      rawAgreement: number | null;
    }
  | { n: number; questions: number; reason: string };

export type TAnnotatorQuality = {
  annotator: string;
  graded: number;
  reference: TAgreementCell & {
    leniency?: { value: number; interval: TInterval | null };
    confusion?: number[][];
  };
  peers: ({ other: string } & TAgreementCell)[];
  judge: TAgreementCell | null;
  start: { n: number; meanAbsError: number | null; medianAbsError: number | null };
  adjudication: { adjudicated: number; overturned: number; share: number | null };
  time: TTimePerItem;
};

export type TAnnotatorOptions = {
  judge?: readonly TGradeLabel[];
  /** Time-per-item threshold the lead sets (ms); default 3,000. */
  fastMs?: number;
  minPairs?: number;
  resamples?: number;
  seed?: number;
  level?: number;
};

export const DEFAULT_FAST_MS = 3000;
export const DEFAULT_MIN_PAIRS = 10;
const MIN_QUESTIONS = 3;

const key = (qid: string, docid: string) => `${qid}\u0000${docid}`;

/** The reference for `annotator` on `item` without their own grade, or null (see the file's comment). */
export function leaveOneOutReference(
  item: TAnnotatedItem,
  annotator: string,
): { grade: number; startSeconds: number | null } | null {
  if (!item.final) return null;
  if (item.adjudication) return item.adjudication;
  const others = item.judgements.filter((j) => j.annotator !== annotator);
  if (others.length === 0 || others.length === item.judgements.length) return null;
  const grade = agreedGrade(others.map((j) => j.grade));
  const starts = others.filter((j) => j.grade >= 1 && j.startSeconds !== null).map((j) => j.startSeconds as number);
  return {
    grade,
    startSeconds: grade >= 1 && starts.length > 0 ? starts.reduce((s, x) => s + x, 0) / starts.length : null,
  };
}

function questionsOf(pairs: readonly LabelPair[]): number {
  return new Set(pairs.map((p) => p.qid)).size;
}

/** Kappa family with bootstrap intervals, or the reason there is no number. */
export function agreementCell(pairs: LabelPair[], opts: TAnnotatorOptions): TAgreementCell {
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

/** Mean of (other − reference) with the percentile bootstrap over questions. */
export function leniencyWithInterval(
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
  const { values } = bootstrapDistribution(
    qids.length,
    (mult) => {
      let s = 0;
      let c = 0;
      for (let i = 0; i < mult.length; i++) {
        s += mult[i] * sums[i];
        c += mult[i] * counts[i];
      }
      return c > 0 ? s / c : null;
    },
    { resamples, seed: opts.seed ?? DEFAULT_SEED },
  );
  const ci = qids.length >= MIN_QUESTIONS ? percentileInterval(values, level, resamples) : null;
  return { value, interval: ci ? { low: ci.low, high: ci.high } : null };
}

function sortedNumbers(xs: Iterable<number>): Float64Array {
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

/** One row per annotator (sorted by annotator), as the Annotators card and `annotators report` show. */
export function annotatorQuality(items: readonly TAnnotatedItem[], opts: TAnnotatorOptions = {}): TAnnotatorQuality[] {
  const fastMs = opts.fastMs ?? DEFAULT_FAST_MS;
  const annotators = [...new Set(items.flatMap((it) => it.judgements.map((j) => j.annotator)))].sort();
  const judge = opts.judge ? new Map(opts.judge.map((l) => [key(l.qid, l.docid), l.grade])) : null;
  // Each annotator's items, in item order (one pass instead of a pass over every item per annotator).
  const itemsOf = new Map<string, TAnnotatedItem[]>(annotators.map((a) => [a, []]));
  for (const it of items) for (const a of new Set(it.judgements.map((j) => j.annotator))) itemsOf.get(a)!.push(it);
  // Two annotators' agreement is one cell seen from either side: weighted kappa with symmetric
  // weights and raw agreement do not change when the two swap places, nor do the question
  // resamples, so each pair of annotators is computed once.
  const peerCells = new Map<string, TAgreementCell>();
  const peerCell = (a: string, other: string, pairs: LabelPair[]) => {
    const k = a < other ? `${a}\u0000${other}` : `${other}\u0000${a}`;
    let cell = peerCells.get(k);
    if (!cell) peerCells.set(k, (cell = agreementCell(pairs, opts)));
    return cell;
  };
  return annotators.map((a) => {
    const toReference: LabelPair[] = [];
    const toJudge: LabelPair[] = [];
    const peerPairs = new Map<string, LabelPair[]>();
    const startErrors: number[] = [];
    const times: number[] = [];
    let graded = 0;
    let adjudicated = 0;
    let overturned = 0;
    for (const it of itemsOf.get(a)!) {
      const own = it.judgements.find((j) => j.annotator === a);
      if (!own) continue;
      graded++;
      if (own.timeSpentMs !== null) times.push(own.timeSpentMs);
      if (it.adjudication) {
        adjudicated++;
        if (it.adjudication.grade !== own.grade) overturned++;
      }
      const ref = leaveOneOutReference(it, a);
      if (ref) {
        toReference.push({ qid: it.qid, docid: it.docid, reference: ref.grade, other: own.grade });
        if (ref.startSeconds !== null && own.startSeconds !== null)
          startErrors.push(Math.abs(own.startSeconds - ref.startSeconds));
      }
      for (const o of it.judgements) {
        if (o.annotator === a) continue;
        const list = peerPairs.get(o.annotator) ?? [];
        list.push({ qid: it.qid, docid: it.docid, reference: o.grade, other: own.grade });
        peerPairs.set(o.annotator, list);
      }
      const jg = judge?.get(key(it.qid, it.docid));
      if (jg !== undefined) toJudge.push({ qid: it.qid, docid: it.docid, reference: own.grade, other: jg });
    }
    const refCell = agreementCell(toReference, opts);
    const len = "reason" in refCell ? null : leniencyWithInterval(toReference, opts);
    const errs = sortedNumbers(startErrors);
    return {
      annotator: a,
      graded,
      reference: {
        ...refCell,
        ...(len ? { leniency: len } : {}),
        ...("reason" in refCell ? {} : { confusion: toRows(confusionOf(toReference)) }),
      },
      peers: [...peerPairs.entries()]
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([other, pairs]) => ({ other, ...peerCell(a, other, pairs) })),
      judge: judge ? agreementCell(toJudge, opts) : null,
      start: {
        n: errs.length,
        meanAbsError: errs.length ? errs.reduce((s, x) => s + x, 0) / errs.length : null,
        medianAbsError: errs.length ? quantileSorted(errs, 0.5) : null,
      },
      adjudication: { adjudicated, overturned, share: graded ? overturned / graded : null },
      time: timePerItem(times, fastMs),
    };
  });
}
