import { AppError } from "../errors.ts";
import { bootstrapMeanIntervals, type MeanIntervalMemo } from "../stats/bootstrap-means.ts";
import { judgedAt } from "../stats/measures/judged.ts";
import { ndcg, type Gain } from "../stats/measures/ndcg.ts";
import { pairedRandomizationTests, type PairedMemo } from "../stats/paired.ts";
import { ppiMean } from "../stats/ppi.ts";
import { MEASURE_RANGE } from "../stats/ppi-table.ts";
import type { TDashboardData, TLabel } from "./data.ts";
import { BOOTSTRAP, RESAMPLING } from "./options.ts";
import type { TRunRankings } from "./rankings.ts";
import type { ReferenceSpan } from "../stats/time/index.ts";
import {
  answerPlacesByQuery,
  chunkTimesByChunking,
  placesSignature,
  timeValues,
  type TChunkTimes,
  type TTimeValues,
} from "./time.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";
import {
  REPORT_COLUMNS,
  NDCG,
  JUDGED,
  systemOf,
  transferJudgeInto,
  type TReportCell,
  type TReportRow,
  type TChunkingReport,
  type TChunkingName,
  type TReportOptions,
} from "./chunking-report-columns.ts";
import {
  ranked,
  auditedQuestions,
  humanByChunking,
  derivedLabels,
  type TPerChunking,
  NO_LABELS,
  labelText,
} from "./chunking-report-labels.ts";

/**
 * The chunking grid report: one row per chunking × system, the measures that
 * compare across chunkings, each a mean over questions with a 95% interval and a paired test
 * against the same system on the baseline chunking. Pure assembly over the dashboard's loaded
 * data (lib/dashboard/data.ts) and the runs' rankings; every statistic is lib/stats'.
 *
 * - Questions: every accepted question that is pooled or labelled (as the systems table; one
 *   accepted but not pooled yet is left out). Each measure is averaged over the questions where it
 *   is defined (lib/stats/time: span recall and start error need an answer place, time-IoU
 *   relevant seconds; nDCG@10 and judged share a label on the chunking; seconds read every
 *   question). A run that does not answer a question reads 0 s and covers nothing there.
 * - Answer places: lib/dashboard/time.ts (the question's reference spans: its answer places with
 *   their ends, and grade-3 labels' corrected starts; never the labelled chunks' bounds).
 * - Labels of a chunking B for nDCG@10 and judged@10: the final human label of a (question, chunk)
 *   where there is one, else the label of a transfer judge into B (JudgeLabel rows whose judge is
 *   named `transfer:<A>-><B>`, lib/chunkings/transfer.ts; with several, the first name in byte
 *   order). A question with no label on B's chunks is not scored for these two.
 * - PPI where an audit exists: when some questions are completely human-labelled on B (at least
 *   one pool item of B's chunks, every one with an annotator's final label, not an imported one:
 *   the audit sample) and B has
 *   transfer labels, the nDCG@10 cell also carries the PPI++ estimate (lib/stats/ppi.ts ppiMean):
 *   human nDCG@10 on those questions, the transfer judge's nDCG@10 on them and on every other
 *   labelled question.
 * - Interval: 95% bootstrap percentile interval of the mean over questions (lib/stats/bootstrap-means.ts,
 *   1000 resamples, seed 1, one set of resamples for every cell, as the systems table).
 * - Test: two-sided paired randomization test (lib/stats/paired.ts, 1000 trials, seed 1) of the
 *   row against the row of the same system on the baseline chunking, paired over the questions
 *   where both are defined (for nDCG@10: on the merged labels, not on the PPI estimate).
 * - System: a run's system name without a trailing `@<chunking>` (or `-`, `_`, `.`, `:`, `/` and
 *   the chunking's name), since system names are unique in a project: `bm25@c40o0` on chunking
 *   c40o0 is system `bm25`, compared with `bm25` on the baseline.
 */

type TQuestionValues = { values: (number | null)[]; judge: number | null; human: number | null; derivedUsed: number };

const valueCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "chunking-report.valueCache",
    () => new WeakMap<object, Map<string, TQuestionValues & { sig: string }>>(),
  );
const signatureCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "chunking-report.signatureCache",
    () =>
      new WeakMap<
        object,
        { version: string; judges: number; lists: readonly (readonly TLabel[])[]; sigs: Map<string, string> }
      >(),
  );
/** Whether the judges' label lists are the very lists of the previous version (judge labels change only with an import, which reloads them). */
function sameJudgeLists(lists: readonly (readonly TLabel[])[], data: TDashboardData): boolean {
  let i = 0;
  for (const l of data.judges.values()) if (lists[i++] !== l) return false;
  return i === lists.length;
}

const NO_DOCIDS: readonly string[] = [];
const NO_CHUNKS = new Int32Array(0);

/** One question's values of every column for one run, and its PPI inputs (nDCG@10 on the transfer judge's and on human labels). */
function questionValues(
  data: TDashboardData,
  rankings: Map<number, TRunRankings>,
  run: TDashboardData["runs"][number],
  queryId: number,
  places: Map<number, ReferenceSpan[]>,
  times: Map<number, TChunkTimes>,
  labels: TPerChunking,
  audited: boolean,
  gain: Gain,
): TQuestionValues {
  const qid = data.queries.get(queryId)!.qid;
  const ranking = rankings.get(run.id)?.get(queryId);
  const t: TTimeValues = timeValues(
    qid,
    ranking?.docids ?? NO_DOCIDS,
    times.get(run.chunkingId) ?? new Map(),
    places.get(queryId) ?? [],
  );
  const values: (number | null)[] = [
    t.spanRecall5,
    t.spanRecall10,
    t.timeIou10,
    t.secondsRead10,
    t.startError,
    null,
    null,
  ];
  const own = labels.human.get(queryId);
  const transferred = labels.derived.get(queryId);
  if (!own && !transferred) return { values, judge: null, human: null, derivedUsed: 0 };
  // Human where present, else the transfer judge's.
  const merged = new Map(transferred);
  if (own) for (const [c, g] of own) merged.set(c, g);
  const chunkIds = ranking?.chunkIds ?? NO_CHUNKS;
  let derivedUsed = 0;
  if (transferred)
    for (let i = 0; i < Math.min(10, chunkIds.length); i++)
      if (transferred.has(chunkIds[i]) && !own?.has(chunkIds[i])) derivedUsed++;
  const q = ranked(qid, chunkIds, merged);
  values[NDCG] = ndcg(q, { cutoff: 10, gain });
  values[JUDGED] = judgedAt(q, 10);
  if (labels.audited.size === 0) return { values, judge: null, human: null, derivedUsed };
  const judge = ndcg(ranked(qid, chunkIds, labels.derived.get(queryId)), { cutoff: 10, gain });
  const human = audited ? ndcg(ranked(qid, chunkIds, labels.human.get(queryId)), { cutoff: 10, gain }) : null;
  return { values, judge, human, derivedUsed };
}

const intervalMemo = (data: TCacheHolder) =>
  cacheOf(data).carried("chunking-report.intervalMemo", (): MeanIntervalMemo => new Map());
const pairedMemo = (data: TCacheHolder) =>
  cacheOf(data).carried("chunking-report.pairedMemo", (): PairedMemo => new Map());
const MAX_MEMO = 2000;

function trim(memo: Map<string, unknown>): void {
  while (memo.size > MAX_MEMO) memo.delete(memo.keys().next().value as string);
}

export function chunkingReport(
  data: TDashboardData,
  rankings: Map<number, TRunRankings>,
  chunkings: readonly TChunkingName[],
  opts: TReportOptions = {},
): TChunkingReport {
  const gain = opts.gain ?? "exponential";
  const nameOf = new Map(chunkings.map((c) => [c.id, c.name]));
  const withRuns = chunkings.filter((c) => data.runs.some((r) => r.chunkingId === c.id));
  if (opts.baseline !== undefined && !chunkings.some((c) => c.name === opts.baseline))
    throw new AppError(
      "not_found",
      `no chunking named "${opts.baseline}" in this project; chunkings: ${chunkings.map((c) => c.name).join(", ") || "none yet"}`,
    );
  const baseline = opts.baseline ?? withRuns[0]?.name ?? null;
  const base = { baseline, columns: REPORT_COLUMNS, points: [] };
  if (data.runs.length === 0)
    return { ...base, questions: 0, rows: [], empty: "no runs yet: import them with npx assessor import run FILE" };

  // The questions of the systems table: pooled or labelled (an accepted question nobody pooled yet is left out).
  const inUse = new Set<number>(data.reference.map((l) => l.queryId));
  for (const it of data.poolItems.values()) inUse.add(it.queryId);
  const queryIds = [...data.queries.keys()].filter((q) => inUse.has(q)).sort((a, b) => a - b);
  const places = answerPlacesByQuery(data);
  const times = chunkTimesByChunking(data);
  const ncol = REPORT_COLUMNS.length;
  const runs = [...data.runs]
    .map((run) => ({ run, chunking: nameOf.get(run.chunkingId) ?? String(run.chunkingId) }))
    .map((r) => ({ ...r, system: systemOf(r.run.system, r.chunking) }))
    .sort((a, b) =>
      a.chunking === b.chunking
        ? a.system < b.system
          ? -1
          : a.system > b.system
            ? 1
            : 0
        : a.chunking === baseline
          ? -1
          : b.chunking === baseline
            ? 1
            : a.chunking < b.chunking
              ? -1
              : 1,
    );

  // Labels per chunking: human, and derived (the transfer judge's; merged per question, human where present).
  const humanAll = humanByChunking(data);
  const perChunking = new Map<number, TPerChunking>();
  const labelsOf = (chunkingId: number) => {
    let v = perChunking.get(chunkingId);
    if (v) return v;
    const human = humanAll.get(chunkingId) ?? NO_LABELS;
    const judge = transferJudgeInto(data.judges.keys(), nameOf.get(chunkingId) ?? "");
    const derived = judge
      ? derivedLabels(data, data.judges.get(judge) ?? [], chunkingId)
      : { labels: NO_LABELS, text: new Map<number, string>() };
    v = {
      human,
      derived: derived.labels,
      derivedText: derived.text,
      judge,
      audited: judge ? auditedQuestions(data, chunkingId) : new Set(),
    };
    perChunking.set(chunkingId, v);
    return v;
  };

  const values: (number | null)[][][] = runs.map(() =>
    REPORT_COLUMNS.map(() => new Array<number | null>(queryIds.length).fill(null)),
  );
  const ppiCells: TReportCell["ppi"][] = runs.map(() => null);
  const derivedUsed = runs.map(() => 0);
  // A question's values for a run depend only on its answer places and its labels on the run's
  // chunking (runs and chunks are fixed per data.base): they are kept per run and question with a
  // signature of those, so after a label change only the questions it touched are evaluated again.
  let kept = valueCache(data).get(data.base);
  if (!kept) valueCache(data).set(data.base, (kept = new Map()));
  // Signatures are kept per base too: the next label-set version recomputes only the questions whose human labels changed.
  const lastSig = signatureCache(data).get(data.base);
  const changes = data.referenceChanges;
  const signatures = new Map<string, string>();
  if (
    lastSig &&
    changes &&
    lastSig.version === changes.from &&
    lastSig.judges === data.judges.size &&
    sameJudgeLists(lastSig.lists, data)
  )
    for (const [k, v] of lastSig.sigs)
      if (!changes.queries.has(Number(k.slice(k.indexOf("#") + 1)))) signatures.set(k, v);
  signatureCache(data).set(data.base, {
    version: data.version,
    judges: data.judges.size,
    lists: [...data.judges.values()],
    sigs: signatures,
  });
  const signatureOf = (chunkingId: number, queryId: number, audited: boolean, labels: ReturnType<typeof labelsOf>) => {
    const key = `${chunkingId}#${queryId}`;
    let sig = signatures.get(key);
    if (sig === undefined) {
      sig = `${placesSignature(places.get(queryId))}|${audited ? "a" : ""}|${labelText(labels.human.get(queryId))}|${labels.derivedText.get(queryId) ?? ""}`;
      signatures.set(key, sig);
    }
    return sig;
  };
  runs.forEach(({ run }, r) => {
    const labels = labelsOf(run.chunkingId);
    const usePpi = labels.audited.size > 0;
    const ppi = { human: [] as number[], judgeLabelled: [] as number[], judgeUnlabelled: [] as number[] };
    queryIds.forEach((queryId, qi) => {
      const audited = labels.audited.has(queryId);
      const sig = signatureOf(run.chunkingId, queryId, audited, labels);
      const key = `${run.id}#${queryId}#${gain}`;
      let hit = kept.get(key);
      if (!hit || hit.sig !== sig)
        kept.set(
          key,
          (hit = { sig, ...questionValues(data, rankings, run, queryId, places, times, labels, audited, gain) }),
        );
      for (let c = 0; c < ncol; c++) values[r][c][qi] = hit.values[c];
      derivedUsed[r] += hit.derivedUsed;
      if (usePpi && hit.judge !== null) {
        if (audited) {
          ppi.human.push(hit.human ?? 0);
          ppi.judgeLabelled.push(hit.judge);
        } else ppi.judgeUnlabelled.push(hit.judge);
      }
    });
    if (usePpi) {
      const p = ppiMean(ppi, { level: RESAMPLING.level, range: MEASURE_RANGE }); // nDCG@10 lies in [0, 1]: the interval is clipped to it
      if (p.ppi) ppiCells[r] = { estimate: p.ppi.estimate, low: p.ppi.low, high: p.ppi.high, labelled: p.n };
    }
  });

  const memoKey = `chunking-report\u0000${gain}\u0000${baseline}`;
  const cells = values.flat();
  const cellKeys = cells.map(
    (_, k) => `${memoKey}\u0000${runs[Math.floor(k / ncol)].run.id}\u0000${REPORT_COLUMNS[k % ncol].id}`,
  );
  const intervals = bootstrapMeanIntervals(cells, queryIds.length, {
    ...BOOTSTRAP,
    memo: intervalMemo(data),
    keys: cellKeys,
  });
  trim(intervalMemo(data));

  const pairs: { a: number[]; b: number[] }[] = [];
  const keys: string[] = [];
  const testOf = new Map<number, number>();
  runs.forEach(({ run, chunking, system }, r) => {
    if (chunking === baseline) return;
    const b = runs.findIndex((x) => x.chunking === baseline && x.system === system);
    if (b < 0) return;
    for (let c = 0; c < ncol; c++) {
      const pair = { a: [] as number[], b: [] as number[] };
      for (let i = 0; i < queryIds.length; i++) {
        const x = values[b][c][i];
        const y = values[r][c][i];
        if (x === null || y === null) continue;
        pair.a.push(x);
        pair.b.push(y);
      }
      if (pair.a.length === 0) continue;
      testOf.set(r * ncol + c, pairs.length);
      pairs.push(pair);
      keys.push(`${memoKey}\u0000${run.id}\u0000${REPORT_COLUMNS[c].id}`);
    }
  });
  const tests = pairedRandomizationTests(pairs, {
    trials: RESAMPLING.trials,
    seed: RESAMPLING.seed,
    memo: pairedMemo(data),
    keys,
  });
  trim(pairedMemo(data));

  const rows: TReportRow[] = runs.map(({ run, chunking, system }, r) => {
    const labels = labelsOf(run.chunkingId);
    return {
      chunking,
      chunkingId: run.chunkingId,
      system,
      run: run.system,
      transferJudge: labels.judge,
      audited: labels.audited.size,
      derived: derivedUsed[r],
      cells: REPORT_COLUMNS.map((_, c): TReportCell => {
        let sum = 0;
        let n = 0;
        for (const v of values[r][c]) {
          if (v === null) continue;
          sum += v;
          n++;
        }
        const t = testOf.get(r * ncol + c);
        const test = t === undefined ? null : tests[t];
        return {
          mean: n ? sum / n : null,
          n,
          ci: intervals[r * ncol + c],
          test: test ? { meanDiff: test.meanDiff, p: test.p, n: test.n } : null,
          ppi: c === NDCG ? ppiCells[r] : null,
        };
      }),
    };
  });
  const points = rows.map((row) => ({
    chunking: row.chunking,
    system: row.system,
    secondsRead10: row.cells[3].mean,
    spanRecall10: row.cells[1].mean,
  }));
  return { ...base, questions: queryIds.length, rows, points, empty: null };
}

export { REPORT_COLUMNS, systemOf, transferJudgeInto } from "./chunking-report-columns.ts";
export type {
  TReportColumn,
  TReportCell,
  TReportRow,
  TChunkingReport,
  TChunkingName,
  TReportOptions,
} from "./chunking-report-columns.ts";
