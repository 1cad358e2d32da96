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
import { DEFAULT_LEVEL, DEFAULT_SEED, quantileSorted } from "./bootstrap.ts";
import type { LabelPair } from "./agreement/align.ts";
import {
  agreementCell,
  DEFAULT_MIN_PAIRS,
  leniencyWithInterval,
  sortedNumbers,
  timePerItem,
  type TTimePerItem,
} from "./annotators-cells.ts";

// The single comparisons (lib/stats/annotators-cells.ts) are part of this module's interface.
export { agreementCell, DEFAULT_MIN_PAIRS, leniencyWithInterval, timePerItem, type TTimePerItem };
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

/**
 * Rows computed before, one per annotator, with what each was computed from: a caller that keeps
 * its items from one call to the next as the same objects while they do not change
 * (lib/annotators/items.ts) passes the same memo again, and an annotator whose items are the same
 * objects, with the same judge grades and options, gets the row computed before. An annotator's row
 * depends on nothing else: the reference left out of their own grade, their peers' grades and the
 * judge's are all on their own items (a peer's row changes only with an item both graded, which
 * then is not the same object in the peer's list either). Items must not be changed in place.
 */
export type TQualityMemo = Map<
  string,
  {
    options: string;
    items: readonly TAnnotatedItem[];
    /** The judge's grade of each of those items (null without a judge). */
    judge: readonly (number | undefined)[] | null;
    row: TAnnotatorQuality;
  }
>;

const sameObjects = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * One row per annotator (sorted by annotator), as the Annotators card and `annotators report` show.
 * With `memo`, only the rows whose inputs changed since the call that filled it are computed (see
 * TQualityMemo); the others are taken from it, and every row is what a computation without a memo
 * gives, to the bit (tests/unit/stats/annotators-memo.test.ts).
 */
export function annotatorQuality(
  items: readonly TAnnotatedItem[],
  opts: TAnnotatorOptions = {},
  memo?: TQualityMemo,
): TAnnotatorQuality[] {
  const fastMs = opts.fastMs ?? DEFAULT_FAST_MS;
  const annotators = [...new Set(items.flatMap((it) => it.judgements.map((j) => j.annotator)))].sort();
  const judge = opts.judge ? new Map(opts.judge.map((l) => [key(l.qid, l.docid), l.grade])) : null;
  // Each annotator's items, in item order (one pass instead of a pass over every item per annotator).
  const itemsOf = new Map<string, TAnnotatedItem[]>(annotators.map((a) => [a, []]));
  for (const it of items) for (const a of new Set(it.judgements.map((j) => j.annotator))) itemsOf.get(a)!.push(it);
  // Two annotators' agreement is one cell seen from either side: weighted kappa with symmetric
  // weights and raw agreement do not change when the two swap places, nor do the question
  // resamples, so each pair of annotators is computed once, always from the side of the first of
  // the two in name order (the other side's pairs with both grades swapped: the same pairs), so
  // that a row computed alone (the other's taken from the memo) has the very same cell.
  const peerCells = new Map<string, TAgreementCell>();
  const peerCell = (a: string, other: string, pairs: LabelPair[]) => {
    const k = a < other ? `${a}\u0000${other}` : `${other}\u0000${a}`;
    let cell = peerCells.get(k);
    if (!cell) {
      const first = a < other ? pairs : pairs.map((p) => ({ ...p, reference: p.other, other: p.reference }));
      peerCells.set(k, (cell = agreementCell(first, opts)));
    }
    return cell;
  };
  const options = JSON.stringify([
    fastMs,
    opts.minPairs ?? DEFAULT_MIN_PAIRS,
    opts.resamples ?? 1000,
    opts.seed ?? DEFAULT_SEED,
    opts.level ?? DEFAULT_LEVEL,
  ]);
  if (memo) for (const a of memo.keys()) if (!itemsOf.has(a)) memo.delete(a);
  return annotators.map((a) => {
    const mine = itemsOf.get(a)!;
    const judgeGrades = judge ? mine.map((it) => judge.get(key(it.qid, it.docid))) : null;
    const known = memo?.get(a);
    if (
      known &&
      known.options === options &&
      sameObjects(known.items, mine) &&
      (known.judge === null ? judgeGrades === null : judgeGrades !== null && sameObjects(known.judge, judgeGrades))
    )
      return known.row;
    const row = qualityOf(a, mine, judgeGrades, fastMs, opts, peerCell);
    memo?.set(a, { options, items: mine, judge: judgeGrades, row });
    return row;
  });
}

/** One annotator's row from their items (in item order) and the judge's grade of each (null: no judge). */
function qualityOf(
  a: string,
  mine: readonly TAnnotatedItem[],
  judgeGrades: readonly (number | undefined)[] | null,
  fastMs: number,
  opts: TAnnotatorOptions,
  peerCell: (a: string, other: string, pairs: LabelPair[]) => TAgreementCell,
): TAnnotatorQuality {
  const toReference: LabelPair[] = [];
  const toJudge: LabelPair[] = [];
  const peerPairs = new Map<string, LabelPair[]>();
  const startErrors: number[] = [];
  const times: number[] = [];
  let graded = 0;
  let adjudicated = 0;
  let overturned = 0;
  mine.forEach((it, i) => {
    const own = it.judgements.find((j) => j.annotator === a);
    if (!own) return;
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
    const jg = judgeGrades?.[i];
    if (jg !== undefined) toJudge.push({ qid: it.qid, docid: it.docid, reference: own.grade, other: jg });
  });
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
    judge: judgeGrades ? agreementCell(toJudge, opts) : null,
    start: {
      n: errs.length,
      meanAbsError: errs.length ? errs.reduce((s, x) => s + x, 0) / errs.length : null,
      medianAbsError: errs.length ? quantileSorted(errs, 0.5) : null,
    },
    adjudication: { adjudicated, overturned, share: graded ? overturned / graded : null },
    time: timePerItem(times, fastMs),
  };
}
