import { AppError } from "../errors.ts";
import { bootstrapMeanIntervals, type Interval, type MeanIntervalMemo } from "../stats/bootstrap.ts";
import { judgedAt } from "../stats/measures/judged.ts";
import { ndcg, type Gain } from "../stats/measures/ndcg.ts";
import { UNJUDGED, type RankedQuery } from "../stats/measures/types.ts";
import { pairedRandomizationTests, type PairedMemo } from "../stats/paired.ts";
import { ppiMean } from "../stats/ppi.ts";
import { MEASURE_RANGE } from "../stats/ppi-table.ts";
import type { TDashboardData, TLabel } from "./data.ts";
import { qrelsOf } from "./labels.ts";
import { RESAMPLING } from "./options.ts";
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
 * - Interval: 95% bootstrap percentile interval of the mean over questions (lib/stats/bootstrap.ts,
 *   1000 resamples, seed 1, one set of resamples for every cell, as the systems table).
 * - Test: two-sided paired randomization test (lib/stats/paired.ts, 1000 trials, seed 1) of the
 *   row against the row of the same system on the baseline chunking, paired over the questions
 *   where both are defined (for nDCG@10: on the merged labels, not on the PPI estimate).
 * - System: a run's system name without a trailing `@<chunking>` (or `-`, `_`, `.`, `:`, `/` and
 *   the chunking's name), since system names are unique in a project: `bm25@c40o0` on chunking
 *   c40o0 is system `bm25`, compared with `bm25` on the baseline.
 */
export type TReportColumn = { id: string; label: string; lowerIsBetter: boolean; seconds: boolean };
export type TReportCell = {
  mean: number | null;
  n: number;
  ci: Interval | null;
  test: { meanDiff: number; p: number; n: number } | null;
  ppi: { estimate: number; low: number; high: number; labelled: number } | null;
};
/** `derived`: the transfer judge's labels nDCG@10 used (ranked in a top 10 where no human label exists), summed over questions. */
export type TReportRow = {
  chunking: string;
  chunkingId: number;
  system: string;
  run: string;
  transferJudge: string | null;
  audited: number;
  derived: number;
  cells: TReportCell[];
};
export type TChunkingReport = {
  baseline: string | null;
  questions: number;
  columns: TReportColumn[];
  rows: TReportRow[];
  /** The trade-off chart: span recall@10 against seconds read@10, one point per row. */
  points: { chunking: string; system: string; secondsRead10: number | null; spanRecall10: number | null }[];
  empty: string | null;
};

export const REPORT_COLUMNS: TReportColumn[] = [
  { id: "span_recall_5", label: "Span recall@5", lowerIsBetter: false, seconds: false },
  { id: "span_recall_10", label: "Span recall@10", lowerIsBetter: false, seconds: false },
  { id: "time_iou_10", label: "Time-IoU@10", lowerIsBetter: false, seconds: false },
  { id: "seconds_read_10", label: "Seconds read@10", lowerIsBetter: true, seconds: true },
  { id: "start_error", label: "Start error (s)", lowerIsBetter: true, seconds: true },
  { id: "ndcg_cut_10", label: "nDCG@10 (derived + human)", lowerIsBetter: false, seconds: false },
  { id: "judged_10", label: "Judged@10", lowerIsBetter: false, seconds: false },
];
const NDCG = 5;
const JUDGED = 6;

export type TChunkingName = { id: number; name: string };
export type TReportOptions = { baseline?: string; gain?: Gain };

const SEPARATORS = ["@", "-", "_", ".", ":", "/"];

/** The system a run stands for across chunkings (see the file comment). */
export function systemOf(runSystem: string, chunking: string): string {
  for (const sep of SEPARATORS) {
    const suffix = `${sep}${chunking}`;
    if (runSystem.length > suffix.length && runSystem.endsWith(suffix)) return runSystem.slice(0, -suffix.length);
  }
  return runSystem;
}

/** The transfer judge into a chunking: `transfer:<A>-><name>`, the first in byte order, or null. */
export function transferJudgeInto(judges: Iterable<string>, chunking: string): string | null {
  const names = [...judges].filter((j) => j.startsWith("transfer:") && j.endsWith(`->${chunking}`)).sort();
  return names[0] ?? null;
}

type Labels = Map<number, Map<number, number>>;

function ranked(qid: string, chunkIds: ArrayLike<number>, judged: Map<number, number> | undefined): RankedQuery {
  const grades = new Int8Array(chunkIds.length);
  const atGrade = [0, 0, 0, 0];
  if (judged) for (const g of judged.values()) if (g >= 0 && g <= 3) atGrade[g]++;
  for (let i = 0; i < grades.length; i++) grades[i] = judged?.get(chunkIds[i]) ?? UNJUDGED;
  return { qid, grades, judgedAtGrade: atGrade };
}

/** Questions completely human-labelled on one chunking: ≥ 1 pool item on its chunks, each with a final human label. */
const poolCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "chunking-report.poolCache",
    () => new WeakMap<object, Map<number, Map<number, Set<number>>>>(),
  );
/** Per question, the chunks with an annotator's final label (agreed or adjudicated: not imported). */
const annotatedCache = (data: TCacheHolder) =>
  cacheOf(data).per("chunking-report.annotatedCache", () => new WeakMap<TDashboardData, Map<number, Set<number>>>());
function annotated(data: TDashboardData): Map<number, Set<number>> {
  let out = annotatedCache(data).get(data);
  if (out) return out;
  out = new Map();
  for (const l of data.reference) {
    if (l.status === "imported") continue;
    let chunks = out.get(l.queryId);
    if (!chunks) out.set(l.queryId, (chunks = new Set()));
    chunks.add(l.chunkId);
  }
  annotatedCache(data).set(data, out);
  return out;
}

/**
 * Questions audited on a chunking: it has pool items of the chunking's chunks and every one has an
 * annotator's final label (imported labels, such as an imported truth, are no audit).
 */
function auditedQuestions(data: TDashboardData, chunkingId: number): Set<number> {
  let byChunking = poolCache(data).get(data.base);
  if (!byChunking) {
    byChunking = new Map();
    for (const it of data.poolItems.values()) {
      const c = data.chunks.get(it.chunkId)?.chunkingId;
      if (c === undefined) continue;
      let byQuery = byChunking.get(c);
      if (!byQuery) byChunking.set(c, (byQuery = new Map()));
      let chunks = byQuery.get(it.queryId);
      if (!chunks) byQuery.set(it.queryId, (chunks = new Set()));
      chunks.add(it.chunkId);
    }
    poolCache(data).set(data.base, byChunking);
  }
  const pooled = byChunking.get(chunkingId) ?? new Map<number, Set<number>>();
  const out = new Set<number>();
  const people = annotated(data);
  for (const [queryId, chunks] of pooled) {
    const h = people.get(queryId);
    if (h && [...chunks].every((c) => h.has(c))) out.add(queryId);
  }
  return out;
}

type TPerChunking = {
  human: Labels;
  derived: Labels;
  derivedText: Map<number, string>;
  judge: string | null;
  audited: Set<number>;
};
const NO_LABELS: Labels = new Map();

/**
 * Final human labels grouped by their chunk's chunking, then by question, per label-set version.
 * The next version copies the previous one's and rebuilds only the questions whose labels changed
 * (data.referenceChanges), as lib/dashboard/labels.ts referenceQrels does.
 */
const humanCache = (data: TCacheHolder) =>
  cacheOf(data).per("chunking-report.humanCache", () => new WeakMap<TDashboardData, Map<number, Labels>>());
const lastHuman = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "chunking-report.lastHuman",
    () => new WeakMap<object, { version: string; byChunking: Map<number, Labels> }>(),
  );
function humanByChunking(data: TDashboardData): Map<number, Labels> {
  let out = humanCache(data).get(data);
  if (out) return out;
  const last = lastHuman(data).get(data.base);
  const changes = data.referenceChanges;
  if (last && changes && last.version === changes.from) {
    out = new Map([...last.byChunking].map(([c, byQuery]) => [c, new Map(byQuery)]));
    for (const byQuery of out.values()) for (const q of changes.queries) byQuery.delete(q);
  } else out = new Map();
  const only = last && changes && last.version === changes.from ? changes.queries : null;
  for (const l of data.reference) {
    if (only && !only.has(l.queryId)) continue;
    const chunkingId = data.chunks.get(l.chunkId)?.chunkingId;
    if (chunkingId === undefined) continue;
    let byQuery = out.get(chunkingId);
    if (!byQuery) out.set(chunkingId, (byQuery = new Map()));
    let m = byQuery.get(l.queryId);
    if (!m) byQuery.set(l.queryId, (m = new Map()));
    m.set(l.chunkId, l.grade);
  }
  humanCache(data).set(data, out);
  lastHuman(data).set(data.base, { version: data.version, byChunking: out });
  return out;
}

/** A judge's labels on one chunking by question, with their text (the cache signature); kept per label list (judge labels change only with an import). */
const derivedCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "chunking-report.derivedCache",
    () => new WeakMap<readonly TLabel[], Map<number, { labels: Labels; text: Map<number, string> }>>(),
  );
function derivedLabels(data: TDashboardData, list: readonly TLabel[], chunkingId: number) {
  let byChunking = derivedCache(data).get(list);
  if (!byChunking) derivedCache(data).set(list, (byChunking = new Map()));
  let v = byChunking.get(chunkingId);
  if (!v) {
    const labels = qrelsOf(list.filter((l) => data.chunks.get(l.chunkId)?.chunkingId === chunkingId));
    v = { labels, text: new Map([...labels].map(([q, m]) => [q, labelText(m)])) };
    byChunking.set(chunkingId, v);
  }
  return v;
}
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

function labelText(m: Map<number, number> | undefined): string {
  let t = "";
  if (m) for (const [c, g] of m) t += `${c}:${g},`;
  return t;
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
    resamples: RESAMPLING.resamples,
    seed: RESAMPLING.seed,
    level: RESAMPLING.level,
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
