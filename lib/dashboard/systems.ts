import { bootstrapMeanIntervals, type MeanIntervalMemo } from "../stats/bootstrap-means.ts";
import type { Interval } from "../stats/bootstrap.ts";
import { kendallTau } from "../stats/kendall-tau.ts";
import { retrievalColumns } from "../stats/measures/columns.ts";
import type { Gain } from "../stats/measures/ndcg.ts";
import { UNJUDGED, type RankedQuery } from "../stats/measures/types.ts";
import { pairedRandomizationTests, type PairedMemo } from "../stats/paired.ts";
import type { TDashboardData } from "./data.ts";
import {
  judgeLabelQrels,
  NO_HUMAN_HINT,
  NO_JUDGE_HINT,
  NO_RUNS_HINT,
  pickJudge,
  referenceQrels,
  runBySystem,
  type TQrels,
} from "./labels.ts";
import { BOOTSTRAP, RESAMPLING, type TDashboardQuery } from "./options.ts";
import type { TRunRankings } from "./rankings.ts";
import { placesSignature } from "./time.ts";
import {
  runCtx,
  startInputs,
  systemColumns,
  type ColumnDef,
  type Ctx,
  type RunCtx,
  type TColumn,
} from "./systems-columns.ts";
import { cacheOf, type TCacheHolder } from "./load/cache.ts";

/**
 * The systems table: one row per run, one column per measure, each cell the mean over queries with
 * a bootstrap 95% CI over queries and a paired randomization test against the baseline run.
 *
 * Which queries count: every query the label source judges (in the slice); a run that does not
 * answer one scores 0 on it (trec_eval -c), so every run is averaged over the same queries and the
 * paired tests pair them all. Start-time error is over the queries with a reference start.
 * nDCG uses the grades themselves (trec_eval's convention), so it has no "≥ 2" variant.
 */
export type { TColumn };
export type TCell = {
  mean: number | null;
  n: number;
  ci: Interval | null;
  test: { meanDiff: number; p: number } | null;
};
export type TSystemsTable = {
  source: "human" | "judge";
  judge: string | null;
  queries: number;
  baseline: string | null;
  columns: TColumn[];
  rows: { runId: number; system: string; cells: TCell[] }[];
  empty: string | null;
};
export type TSystemsPanel = {
  tables: TSystemsTable[];
  /** With both sources: Kendall's tau-b between the system orderings per column. */
  tau: { column: string; label: string; tau: number | null; reason: string | null }[] | null;
  resampling: typeof RESAMPLING;
};

function judgedAtGrade(judged: Map<number, number>): number[] {
  const counts = [0, 0, 0, 0];
  for (const g of judged.values()) if (g >= 0 && g <= 3) counts[g]++;
  return counts;
}

/**
 * Per-query values of every column for every run: values[run][column][query]. A query's values
 * depend only on its labels (and the immutable runs, queries and chunks), so they are kept per
 * query with the labels they were computed from: after a label change only the queries whose
 * labels changed are evaluated again. `ns` keeps label sources apart (human, judge), so that
 * computing one does not evict the other's values.
 */
const perQueryCache = (data: TCacheHolder) =>
  cacheOf(data).carried(
    "systems.perQueryCache",
    () =>
      new WeakMap<
        object,
        Map<string, { judged: Map<number, number>; places: string; labels: string; values: (number | null)[] }>
      >(),
  );

function perQuery(
  data: TDashboardData,
  ns: string,
  qrels: TQrels,
  rankings: Map<number, TRunRankings>,
  cols: ColumnDef[],
  ctx: Ctx,
): { queryIds: number[]; values: (number | null)[][][] } {
  const queryIds = [...qrels.keys()].sort((a, b) => a - b);
  const values = data.runs.map(() => cols.map(() => new Array<number | null>(queryIds.length)));
  let cache = perQueryCache(data).get(data.base);
  if (!cache) perQueryCache(data).set(data.base, (cache = new Map()));
  for (let qi = 0; qi < queryIds.length; qi++) {
    const queryId = queryIds[qi];
    const judged = qrels.get(queryId)!;
    const key = `${ns}#${ctx.gain}#${queryId}`;
    let hit = cache.get(key);
    // The time columns read the query's answer places, which follow its human grade-3 labels in any chunking.
    const places = placesSignature(ctx.places.get(data.queries.get(queryId)?.qid ?? String(queryId)));
    // The same qrels Map (lib/dashboard/labels.ts referenceQrels keeps unchanged queries' Maps) or the same labels.
    if (!hit || hit.judged !== judged || hit.places !== places) {
      let labels = "";
      for (const [chunkId, grade] of judged) labels += `${chunkId}:${grade},`;
      if (!hit || hit.labels !== labels || hit.places !== places)
        hit = { judged, places, labels, values: evaluateQuery(data, queryId, judged, rankings, cols, ctx) };
      else hit = { ...hit, judged };
      cache.set(key, hit);
    }
    for (let r = 0; r < data.runs.length; r++)
      for (let c = 0; c < cols.length; c++) values[r][c][qi] = hit.values[r * cols.length + c];
  }
  return { queryIds, values };
}

/** Whether the project's chunks span several chunkings (kept per data.base). */
const severalChunkingsCache = (data: TCacheHolder) =>
  cacheOf(data).carried("systems.severalChunkingsCache", () => new WeakMap<object, boolean>());
function severalChunkings(data: TDashboardData): boolean {
  let several = severalChunkingsCache(data).get(data.base);
  if (several === undefined) {
    const ids = new Set<number>();
    for (const c of data.chunks.values()) ids.add(c.chunkingId);
    for (const r of data.runs) ids.add(r.chunkingId);
    several = ids.size > 1;
    severalChunkingsCache(data).set(data.base, several);
  }
  return several;
}

/**
 * Every column for every run on one query (run-major). Each run is evaluated against the labels
 * of its own chunking only: another chunking's chunks cover the same speech, so counting
 * their relevant labels would lower a run's recall and nDCG for chunks it could never retrieve.
 */
function evaluateQuery(
  data: TDashboardData,
  queryId: number,
  allJudged: Map<number, number>,
  rankings: Map<number, TRunRankings>,
  cols: ColumnDef[],
  ctx: Ctx,
): (number | null)[] {
  const out = new Array<number | null>(data.runs.length * cols.length);
  const several = severalChunkings(data);
  const perChunking = new Map<number, { judged: Map<number, number>; atGrade: number[] }>();
  const labelsOf = (chunkingId: number) => {
    let v = perChunking.get(chunkingId);
    if (!v) {
      const judged = several
        ? new Map([...allJudged].filter(([chunkId]) => data.chunks.get(chunkId)?.chunkingId === chunkingId))
        : allJudged;
      v = { judged, atGrade: judgedAtGrade(judged) };
      perChunking.set(chunkingId, v);
    }
    return v;
  };
  const qid = data.queries.get(queryId)?.qid ?? String(queryId);
  const ctxOf = new Map<number, RunCtx>();
  for (let r = 0; r < data.runs.length; r++) {
    const chunkingId = data.runs[r].chunkingId;
    let runContext = ctxOf.get(chunkingId);
    if (!runContext) ctxOf.set(chunkingId, (runContext = runCtx(ctx, chunkingId)));
    const { judged, atGrade } = labelsOf(data.runs[r].chunkingId);
    const ranking = rankings.get(data.runs[r].id)?.get(queryId);
    const grades = new Int8Array(ranking ? ranking.chunkIds.length : 0);
    if (ranking) for (let i = 0; i < grades.length; i++) grades[i] = judged.get(ranking.chunkIds[i]) ?? UNJUDGED;
    const q: RankedQuery = { qid, grades, docids: ranking ? ranking.docids : [], judgedAtGrade: atGrade };
    for (let c = 0; c < cols.length; c++) out[r * cols.length + c] = cols[c].compute(q, runContext);
  }
  return out;
}

/**
 * Flipped sums of the paired tests last computed per (project, view, run, column): after a label
 * change a test only adds the change on the queries whose values changed (lib/stats/paired.ts).
 */
const pairedMemo = (data: TCacheHolder) => cacheOf(data).carried("systems.pairedMemo", (): PairedMemo => new Map());
/** Likewise each cell's per-resample sums (about 20 kB a cell). */
const intervalMemo = (data: TCacheHolder) =>
  cacheOf(data).carried("systems.intervalMemo", (): MeanIntervalMemo => new Map());
const MAX_INTERVAL_MEMO = 1000;
const MAX_PAIRED_MEMO = 2000;

function table(
  data: TDashboardData,
  memoKey: string,
  source: "human" | "judge",
  judge: string | null,
  qrels: TQrels,
  rankings: Map<number, TRunRankings>,
  cols: ColumnDef[],
  ctx: Ctx,
  baseline: string | null,
  empty: string | null,
): TSystemsTable & { means: (number | null)[][] } {
  const base = {
    source,
    judge,
    baseline,
    columns: cols.map(({ id, label, level, lowerIsBetter }) => ({ id, label, level, lowerIsBetter })),
  };
  if (empty) return { ...base, queries: 0, rows: [], empty, means: [] };
  const { queryIds, values } = perQuery(data, source, qrels, rankings, cols, ctx);
  const baseIndex = baseline === null ? -1 : data.runs.findIndex((r) => r.system === baseline);
  // One set of resamples for every cell (lib/stats/bootstrap-means.ts bootstrapMeanIntervals): every run
  // and measure sees the same resampled query sets, as a paired design should. A cell's mean in a
  // resample is over the drawn queries where it is defined (start error: those with a reference start).
  // Kept per cell of this view: after a label change only the queries whose values changed are
  // added to each resample's sum (same intervals, lib/stats/bootstrap-means.ts).
  const cells = values.flat();
  const cellKeys = cells.map(
    (_, k) => `${memoKey}\u0000${data.runs[Math.floor(k / cols.length)].id}\u0000${cols[k % cols.length].id}`,
  );
  const intervals = bootstrapMeanIntervals(cells, queryIds.length, {
    ...BOOTSTRAP,
    memo: intervalMemo(data),
    keys: cellKeys,
  });
  for (const k of cellKeys) {
    const kept = intervalMemo(data).get(k);
    if (kept) {
      intervalMemo(data).delete(k);
      intervalMemo(data).set(k, kept);
    }
  }
  while (intervalMemo(data).size > MAX_INTERVAL_MEMO)
    intervalMemo(data).delete(intervalMemo(data).keys().next().value as string);
  // Paired randomization tests against the baseline, all at once (same flips as one by one).
  const pairs: { a: number[]; b: number[] }[] = [];
  const keys: string[] = [];
  const testOf = new Map<number, number>();
  const means: (number | null)[][] = [];
  const stats = values.map((perCol, r) =>
    perCol.map((vals, c) => {
      let sum = 0;
      let n = 0;
      const paired = { a: [] as number[], b: [] as number[] };
      for (let i = 0; i < queryIds.length; i++) {
        const v = vals[i];
        if (v === null) continue;
        sum += v;
        n++;
        const b = baseIndex >= 0 ? values[baseIndex][c][i] : null;
        if (b !== null) {
          paired.a.push(b);
          paired.b.push(v);
        }
      }
      if (baseIndex >= 0 && baseIndex !== r && paired.a.length > 0) {
        testOf.set(r * cols.length + c, pairs.length);
        pairs.push(paired);
        keys.push(`${memoKey}\u0000${data.runs[r].id}\u0000${cols[c].id}`);
      }
      return { mean: n ? sum / n : null, n };
    }),
  );
  const tests = pairedRandomizationTests(pairs, {
    trials: RESAMPLING.trials,
    seed: RESAMPLING.seed,
    memo: pairedMemo(data),
    keys,
  });
  while (pairedMemo(data).size > MAX_PAIRED_MEMO)
    pairedMemo(data).delete(pairedMemo(data).keys().next().value as string);
  const rows = data.runs.map((run, r) => {
    const cells = cols.map((_, c): TCell => {
      const t = testOf.get(r * cols.length + c);
      const test = t === undefined ? null : tests[t];
      return {
        ...stats[r][c],
        ci: intervals[r * cols.length + c],
        test: test ? { meanDiff: test.meanDiff, p: test.p } : null,
      };
    });
    means.push(cells.map((x) => x.mean));
    return { runId: run.id, system: run.system, cells };
  });
  return { ...base, queries: queryIds.length, rows, empty: null, means };
}

/**
 * Per-query values of the system measures (lib/stats/measures/columns.ts) for every run on the
 * queries of `qrels`, from the same per-query cache as the systems table (lib/dashboard/ppi.ts).
 */
export function retrievalValues(
  data: TDashboardData,
  ns: "human" | "judge",
  qrels: TQrels,
  rankings: Map<number, TRunRankings>,
  gain: Gain,
): { queryIds: number[]; columns: TColumn[]; values: number[][][] } {
  const cols = systemColumns(gain);
  const keep = new Set(retrievalColumns(gain).map((c) => c.id));
  const picked = cols.flatMap((c, i) => (keep.has(c.id) ? [i] : []));
  const { queryIds, values } = perQuery(data, ns, qrels, rankings, cols, { gain, ...startInputs(data) });
  return {
    queryIds,
    columns: picked.map((i) => ({
      id: cols[i].id,
      label: cols[i].label,
      level: cols[i].level,
      lowerIsBetter: cols[i].lowerIsBetter,
    })),
    values: values.map((perCol) => picked.map((i) => perCol[i].map((v) => v ?? 0))),
  };
}

export function systemsPanel(
  data: TDashboardData,
  rankings: Map<number, TRunRankings>,
  opts: TDashboardQuery,
): TSystemsPanel {
  const cols = systemColumns(opts.gain);
  const ctx: Ctx = { gain: opts.gain, ...startInputs(data) };
  const baseline = opts.baseline ? runBySystem(data, opts.baseline).system : (data.runs[0]?.system ?? null);
  const noRuns = data.runs.length === 0 ? NO_RUNS_HINT : null;
  const sources: ("human" | "judge")[] = opts.source === "both" ? ["human", "judge"] : [opts.source];
  const judge = pickJudge(data, opts.judge);
  const memoPrefix = `${opts.tag ?? ""}\u0000${opts.gain}\u0000${baseline}\u0000`;
  const tables = sources.map((source) => {
    if (source === "judge") {
      const qrels = judge ? judgeLabelQrels(data, judge, opts.tag) : new Map();
      return table(
        data,
        `${memoPrefix}judge\u0000${judge}`,
        source,
        judge,
        qrels,
        rankings,
        cols,
        ctx,
        baseline,
        noRuns ?? (judge ? (qrels.size ? null : "no judge labels in this slice") : NO_JUDGE_HINT),
      );
    }
    const qrels = referenceQrels(data, opts.tag);
    return table(
      data,
      `${memoPrefix}human`,
      source,
      null,
      qrels,
      rankings,
      cols,
      ctx,
      baseline,
      noRuns ??
        (data.reference.length === 0 ? NO_HUMAN_HINT : qrels.size ? null : "no final human labels in this slice"),
    );
  });
  let tau: TSystemsPanel["tau"] = null;
  if (tables.length === 2 && !tables[0].empty && !tables[1].empty) {
    tau = cols.map((col, c) => {
      const xs: number[] = [];
      const ys: number[] = [];
      for (let r = 0; r < data.runs.length; r++) {
        const x = tables[0].means[r][c];
        const y = tables[1].means[r][c];
        if (x === null || y === null) continue;
        xs.push(x);
        ys.push(y);
      }
      const k = kendallTau(xs, ys);
      return { column: col.id, label: col.label, tau: k.tau, reason: k.tau === null ? k.reason : null };
    });
  }
  return { tables: tables.map(({ means: _means, ...t }) => t), tau, resampling: RESAMPLING };
}
