/**
 * Evaluates a run against qrels the way trec_eval does: per query, the run's chunks are put in the
 * evaluated order (order.ts), each gets its grade from the qrels (or UNJUDGED), and every measure
 * column is computed; the summary is the mean over evaluated queries (sum for counts).
 *
 * Which queries count (trec_eval 10.0's rules, trec_eval.c):
 * - a query in the run but not in the qrels is ignored (reported in `ignoredQueries`);
 * - a query in the qrels but not in the run is left out unless `complete` (trec_eval -c). Then,
 *   as trec_eval 10.0 does, it is evaluated on a stand-in ranking of one retrieved chunk no qrels
 *   judge (trec_eval.c's `bogus_ranking`, docid "ceci_nest_pas_un_docno", score 1, cut by -M and
 *   -J like any ranking), so it scores 0 on the usual measures but is counted like any other:
 *   num_rel includes its relevant chunks, num_q and every mean cover every query of the qrels
 *   (`numQ` = `averagedOver`; `answered` is the number the run answered; num_rel's total counts
 *   every judgement above 0 in the qrels, m_num_rel.c). trec_eval then resets a
 *   few values by their printed name (trec_eval.c lines 416–431; see `missingQueryValue` in
 *   measures/index.ts): num_ret, utility and rbp_resid (default parameters only), unj_* to 0, and
 *   relstring (default parameters only) to ''. Our own measures (ndcg_exp, judged, start_error…)
 *   are computed on an empty ranking instead;
 * - a query judged in the qrels with no relevant chunk is evaluated and scores 0 where the
 *   measure divides by num_rel or the ideal DCG.
 *
 * Relevance values (`assessor eval` reads qrels on trec_eval's scale, lib/formats/trec.ts): a
 * chunk is relevant when its value is at least the relevance level (-l, default 1); nDCG's gain is
 * the value itself (any value above 3 too). A negative value means, as in trec_eval 9
 * (form_res_rels.c, RELVALUE_UNJUDGED), "in the pool but not judged": the chunk counts at no grade
 * (not in num_rel, not in the ideal DCG), gains nothing, and is unjudged for judged.k; the query is
 * still one of the qrels.
 */
import { compareEvaluated } from "./order.ts";
import { emptyRanking, UNJUDGED, UNJUDGED_IN_POOL, type RankedQuery } from "./measures/types.ts";
import {
  missingQueryText,
  missingQueryValue,
  summarise,
  type EvalContext,
  type MeasureColumn,
  type QueryCache,
} from "./measures/index.ts";

export { summarise };

/** Byte order of query ids, as trec_eval's strcmp: the order of per-query output. */
export const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** qid → docid → grade. */
export type Judgements = Map<string, Map<string, number>>;

export function judgementsFrom(rows: Iterable<{ qid: string; docid: string; grade: number }>): Judgements {
  const j: Judgements = new Map();
  for (const r of rows) {
    let m = j.get(r.qid);
    if (!m) j.set(r.qid, (m = new Map()));
    m.set(r.docid, r.grade);
  }
  return j;
}

/** One query's retrieved chunks as read from the run (any order). */
export type RunQuery = { docids: string[]; scores: number[] };
export type RunByQuery = Map<string, RunQuery>;

export function runFrom(rows: Iterable<{ qid: string; docid: string; score: number }>): RunByQuery {
  const run: RunByQuery = new Map();
  for (const r of rows) {
    let q = run.get(r.qid);
    if (!q) run.set(r.qid, (q = { docids: [], scores: [] }));
    q.docids.push(r.docid);
    q.scores.push(r.score);
  }
  return run;
}

export function judgedAtGrade(judged: ReadonlyMap<string, number>): number[] {
  const counts = [0, 0, 0, 0];
  for (const g of judged.values()) {
    if (g >= counts.length) for (let k = counts.length; k <= g; k++) counts.push(0);
    if (g >= 0) counts[g]++;
  }
  return counts;
}

/**
 * How the retrieved list is cut before any measure sees it (trec_eval form_res_rels.c):
 * `maxRetrieved` (-M) keeps the top N of the evaluated order; `judgedOnly` (-J) then drops every
 * chunk the qrels do not judge (absent, or a negative value), closing the gaps.
 */
export type RankOptions = { keepDocids?: boolean; maxRetrieved?: number; judgedOnly?: boolean };

/**
 * The evaluated order of a query's lines as indexes into `q` (order.ts: score descending, ties by
 * docid descending). Runs usually list a query's lines in that order already; that is checked in
 * one pass and the sort skipped.
 */
function evaluatedIndexes(q: RunQuery): number[] {
  const { docids, scores } = q;
  const n = docids.length;
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  for (let i = 1; i < n; i++) {
    const a = scores[i - 1];
    const b = scores[i];
    if (a < b || (a === b && docids[i - 1] < docids[i])) {
      return idx.sort((x, y) =>
        compareEvaluated({ docid: docids[x], score: scores[x] }, { docid: docids[y], score: scores[y] }),
      );
    }
  }
  return idx;
}

/** The evaluated ranking of one query with its grades (docids kept unless `keepDocids` is false). */
export function rankQuery(
  qid: string,
  q: RunQuery,
  judged: ReadonlyMap<string, number>,
  opts: RankOptions | boolean = {},
): RankedQuery {
  const o: RankOptions = typeof opts === "boolean" ? { keepDocids: opts } : opts;
  const gradeAt = new Int8Array(q.docids.length);
  for (let i = 0; i < gradeAt.length; i++) {
    const g = judged.get(q.docids[i]);
    gradeAt[i] = g === undefined ? UNJUDGED : g < 0 ? UNJUDGED_IN_POOL : g;
  }
  return rankWithGrades(qid, q, gradeAt, judged, o);
}

/**
 * The same for a run's lines that may name a docid twice: null when they do. One hash table from
 * docid to line serves both the check and the grades (a lookup per judged chunk instead of one per
 * retrieved chunk), which is what large runs spend their time on; it is an open-addressing table
 * of typed arrays reused from query to query, where a Map would be built and grown per query.
 */
export function rankQueryChecked(
  qid: string,
  q: RunQuery,
  judged: ReadonlyMap<string, number>,
  opts: RankOptions,
): RankedQuery | null {
  const n = q.docids.length;
  const table = lineTable(n);
  for (let i = 0; i < n; i++) if (!table.add(q.docids, i)) return null;
  const gradeAt = new Int8Array(n).fill(UNJUDGED);
  for (const [docid, g] of judged) {
    const i = table.find(q.docids, docid);
    if (i >= 0) gradeAt[i] = g < 0 ? UNJUDGED_IN_POOL : g;
  }
  return rankWithGrades(qid, q, gradeAt, judged, opts);
}

/** FNV-1a over the UTF-16 code units. */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 0x01000193);
  return h >>> 0;
}

class LineTable {
  private slots: Int32Array;
  private stamps: Int32Array;
  private stamp = 0;
  private mask: number;
  constructor(size: number) {
    this.slots = new Int32Array(size);
    this.stamps = new Int32Array(size);
    this.mask = size - 1;
  }
  get size(): number {
    return this.slots.length;
  }
  reset(): void {
    this.stamp++;
    if (this.stamp === 0x7fffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }
  /** Adds line i's docid; false when an earlier line has it. */
  add(docids: readonly string[], i: number): boolean {
    const d = docids[i];
    let h = hashString(d) & this.mask;
    while (this.stamps[h] === this.stamp) {
      if (docids[this.slots[h]] === d) return false;
      h = (h + 1) & this.mask;
    }
    this.stamps[h] = this.stamp;
    this.slots[h] = i;
    return true;
  }
  find(docids: readonly string[], d: string): number {
    let h = hashString(d) & this.mask;
    while (this.stamps[h] === this.stamp) {
      if (docids[this.slots[h]] === d) return this.slots[h];
      h = (h + 1) & this.mask;
    }
    return -1;
  }
}

let sharedTable: LineTable | null = null;

/** The shared table, at least twice the lines, cleared. */
function lineTable(lines: number): LineTable {
  let size = 1024;
  while (size < lines * 2) size *= 2;
  if (!sharedTable || sharedTable.size < size) sharedTable = new LineTable(size);
  sharedTable.reset();
  return sharedTable;
}

function rankWithGrades(
  qid: string,
  q: RunQuery,
  gradeAt: Int8Array,
  judged: ReadonlyMap<string, number>,
  o: RankOptions,
): RankedQuery {
  let order = evaluatedIndexes(q);
  if (o.maxRetrieved !== undefined && order.length > o.maxRetrieved)
    order = order.slice(0, Math.max(0, o.maxRetrieved));
  if (o.judgedOnly) order = order.filter((i) => gradeAt[i] >= 0);
  const grades = new Int8Array(order.length);
  const docids = o.keepDocids === false ? undefined : new Array<string>(order.length);
  for (let i = 0; i < order.length; i++) {
    grades[i] = gradeAt[order[i]];
    if (docids) docids[i] = q.docids[order[i]];
  }
  return { qid, grades, docids, judgedAtGrade: judgedAtGrade(judged) };
}

export type EvalResult = {
  columns: MeasureColumn[];
  /** Evaluated queries in trec_eval's output order (byte order of qid). */
  queries: string[];
  /** values[c][i]: column c for queries[i]; null when the measure does not apply to that query. */
  values: (number | null)[][];
  /** texts[c][i] for text columns (relstring), null for the others; "" for a -c fill. */
  texts: (string[] | null)[];
  /** Queries that were in the run (false only for -c fills). */
  inRun: boolean[];
  summary: (number | null)[];
  /** trec_eval's num_q: queries with both results and judgements, or with -c every query of the qrels (m_num_q.c). */
  numQ: number;
  /** Queries the means divide by: numQ. */
  averagedOver: number;
  /** Queries of the qrels the run answered (numQ without -c). */
  answered: number;
  /** In the qrels but not the run: left out, or scored 0 when `complete`. */
  missingFromRun: string[];
  /** In the run but not the qrels: ignored. */
  ignoredQueries: string[];
  complete: boolean;
};

export function evaluate(
  judgements: Judgements,
  run: RunByQuery,
  columns: MeasureColumn[],
  ctx: EvalContext & { complete?: boolean; rank?: RankOptions },
): EvalResult {
  const ranked = new Map<string, RankedQuery>();
  for (const [qid, q] of run) {
    const judged = judgements.get(qid);
    if (judged) ranked.set(qid, rankQuery(qid, q, judged, ctx.rank ?? {}));
  }
  const result = evaluateRanked(judgements, ranked, columns, ctx);
  result.ignoredQueries = [...run.keys()].filter((qid) => !judgements.has(qid)).sort(byteOrder);
  return result;
}

/**
 * The same on rankings already built (a streaming reader ranks each query as soon as its lines
 * are read, so a large run never sits in memory whole). `ranked` holds only queries of the qrels;
 * `ignoredQueries` is left for the caller to fill.
 */
export function evaluateRanked(
  judgements: Judgements,
  ranked: ReadonlyMap<string, RankedQuery>,
  columns: MeasureColumn[],
  ctx: EvalContext & { complete?: boolean; rank?: RankOptions },
): EvalResult {
  const complete = ctx.complete ?? false;
  const missingFromRun = [...judgements.keys()].filter((qid) => !ranked.has(qid)).sort(byteOrder);
  const queries = [...judgements.keys()].filter((qid) => complete || ranked.has(qid)).sort(byteOrder);
  const values = columns.map(() => new Array<number | null>(queries.length));
  const texts = columns.map((col) => (col.text ? new Array<string>(queries.length) : null));
  const inRun = queries.map((qid) => ranked.has(qid));
  for (let i = 0; i < queries.length; i++) {
    const qid = queries[i];
    const q = ranked.get(qid);
    if (q) {
      const cache: QueryCache = {};
      for (let c = 0; c < columns.length; c++) {
        const col = columns[c];
        values[c][i] = col.compute(q, ctx, cache);
        const t = texts[c];
        if (t && col.text) t[i] = col.text(q, ctx, cache);
      }
      continue;
    }
    // -c: a query of the qrels the run does not answer
    const judged = judgements.get(qid) ?? new Map<string, number>();
    const stand = standInRanking(qid, judged, ctx.rank ?? {});
    const empty = emptyRanking(qid, judgedAtGrade(judged));
    const standCache: QueryCache = {};
    const emptyCache: QueryCache = {};
    for (let c = 0; c < columns.length; c++) {
      const col = columns[c];
      const t = texts[c];
      if (col.fill === "none") values[c][i] = null;
      else if (col.fill === "compute") values[c][i] = col.compute(empty, ctx, emptyCache);
      else values[c][i] = missingQueryValue(col) ?? col.compute(stand, ctx, standCache);
      if (t && col.text)
        t[i] =
          missingQueryText(col) ??
          col.text(col.fill === "compute" ? empty : stand, ctx, col.fill === "compute" ? emptyCache : standCache);
    }
  }
  const summary = columns.map((col, c) =>
    complete && col.name === "num_rel" && col.fill === "trec"
      ? qrelsPositive(judgements)
      : summarise(values[c], col.summary),
  );
  const answered = inRun.filter(Boolean).length;
  return {
    columns,
    queries,
    values,
    texts,
    inRun,
    summary,
    numQ: queries.length,
    averagedOver: queries.length,
    answered,
    missingFromRun,
    ignoredQueries: [],
    complete,
  };
}

/**
 * num_rel's summary under -c, as trec_eval 10.0's m_num_rel.c (te_calc_avg_num_rel) computes it:
 * the judgements of every query of the qrels with a relevance value above 0, whatever the
 * relevance level (-l 2 still counts the 1s) and -M or -J. Without -c it is the sum of the
 * per-query values.
 */
function qrelsPositive(judgements: Judgements): number {
  let n = 0;
  for (const docs of judgements.values()) for (const g of docs.values()) if (g > 0) n++;
  return n;
}

/** trec_eval.c's `bogus_ranking` for a query missing from the run under -c: one chunk, "ceci_nest_pas_un_docno", score 1. */
export const STAND_IN_DOCID = "ceci_nest_pas_un_docno";

function standInRanking(qid: string, judged: ReadonlyMap<string, number>, opts: RankOptions): RankedQuery {
  return rankQuery(qid, { docids: [STAND_IN_DOCID], scores: [1] }, judged, { ...opts, keepDocids: false });
}
