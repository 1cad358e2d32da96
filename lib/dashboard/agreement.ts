import type { Aligned, LabelPair } from "../stats/agreement/align.ts";
import { krippendorffAlpha } from "../stats/agreement/krippendorff.ts";
import { agreementReport, type AgreementMemo, type AgreementReport } from "../stats/agreement/report.ts";
import type { TDashboardData, TLabel } from "./data.ts";
import { contributedBy, NO_HUMAN_HINT, NO_JUDGE_HINT, pickJudge, runBySystem, tagFilter } from "./labels.ts";
import { RESAMPLING, type TDashboardQuery } from "./options.ts";

/**
 * Agreement panels. Every figure is lib/stats' agreement report (the same function behind
 * `assessor agreement --format json`), computed on label sets aligned on (query, chunk):
 * - judge vs human: the final human labels (agreed, adjudicated, imported) as the reference, each
 *   judge as the other rater, side by side;
 * - human vs human: items graded by two annotators, per annotator pair (the pair's first name in
 *   alphabetical order as the reference) and overall (each item's first grade as the reference,
 *   second as the other; kappa and alpha do not depend on which is which);
 * - breakdowns: the same by query tag and by system (the pool items each run contributed).
 * The report's bootstrap numbers queries in qid order whatever the order of the labels, so its
 * intervals equal the CLI's on the same files however they are sorted.
 */
export type TAgreementBlock = { name: string; report: AgreementReport | null; empty: string | null };
export type TAgreementPanel = { judges: TAgreementBlock[]; empty: string | null; slice: { tag: string | null; system: string | null } };
export type THumanPanel = { overall: TAgreementBlock; pairs: TAgreementBlock[]; alphaAllRaters: number | null; items: number; empty: string | null };
export type TBreakdownRow = { slice: string; kind: "tag" | "system"; judge: TAgreementBlock | null; human: TAgreementBlock };
export type TBreakdownsPanel = { judge: string | null; rows: TBreakdownRow[]; resamples: number };
export const BREAKDOWN_RESAMPLES = 200;

/**
 * Which pairs a slice keeps: queries (a tag) and, per query, chunks (the pool items a run
 * contributed); null keeps all.
 */
type Slice = { name: string; queries: ((queryId: number) => boolean) | null; chunks: Map<number, Set<number>> | null };
type Keyed = { queryId: number; chunkId: number };
type TQueryAlignment = { pairs: (LabelPair & Keyed)[]; referenceOnly: number[]; otherOnly: number[] };
/**
 * Two label sets aligned once over the whole project, per query (queryId → its pairs and unmatched
 * chunk ids), ready to be cut into slices. A query's alignment that did not change since the last
 * label-set version is the same object, with the same serial number (see `intern`).
 */
type TInterned = TQueryAlignment & { serial: number; base: object; lineage: string };
type TFullAlignment = Map<number, TInterned>;

/**
 * lib/stats/agreement/align.ts alignLabels on internal ids: pairs on (query, chunk), a later
 * reference label for the same pair replacing an earlier one, every other label without a
 * reference label counted as other-only.
 */
function alignAll(data: TDashboardData, reference: Iterable<TLabel>, other: Iterable<TLabel>): Map<number, TQueryAlignment> {
  const ref = new Map<number, Map<number, number>>();
  for (const r of reference) {
    let m = ref.get(r.queryId);
    if (!m) ref.set(r.queryId, (m = new Map()));
    m.set(r.chunkId, r.grade);
  }
  const out = new Map<number, TQueryAlignment>();
  const of = (queryId: number) => {
    let q = out.get(queryId);
    if (!q) out.set(queryId, (q = { pairs: [], referenceOnly: [], otherOnly: [] }));
    return q;
  };
  const matched = new Map<number, Set<number>>();
  for (const l of other) {
    const g = ref.get(l.queryId)?.get(l.chunkId);
    if (g === undefined) {
      of(l.queryId).otherOnly.push(l.chunkId);
      continue;
    }
    let m = matched.get(l.queryId);
    if (!m) matched.set(l.queryId, (m = new Set()));
    m.add(l.chunkId);
    const qid = data.queries.get(l.queryId)?.qid ?? String(l.queryId);
    const docid = data.chunks.get(l.chunkId)?.docid ?? String(l.chunkId);
    of(l.queryId).pairs.push({ qid, docid, reference: g, other: l.grade, queryId: l.queryId, chunkId: l.chunkId });
  }
  for (const [queryId, m] of ref) {
    const done = matched.get(queryId);
    for (const chunkId of m.keys()) if (!done?.has(chunkId)) of(queryId).referenceOnly.push(chunkId);
  }
  return out;
}

let serials = 0;
const interned = new Map<string, TFullAlignment>();
const MAX_INTERNED = 200;
const sameNumbers = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The alignment `key` of this project as last computed: each query whose alignment is unchanged
 * (same pairs, grades and unmatched chunks, same pool) keeps its object and serial number, so a
 * slice's pairs are named by the serials of its queries (the report cache's key).
 */
function intern(data: TDashboardData, key: string, all: Map<number, TQueryAlignment>): TFullAlignment {
  const k = `${process.env.DATABASE_URL ?? ""}\u0000${data.project.id}\u0000${key}`;
  const before = interned.get(k);
  const out: TFullAlignment = new Map();
  for (const [queryId, a] of all) {
    const p = before?.get(queryId);
    const same =
      p === a ||
      (p !== undefined &&
      p.base === data.base &&
      p.pairs.length === a.pairs.length &&
      p.pairs.every((x, i) => x.chunkId === a.pairs[i].chunkId && x.reference === a.pairs[i].reference && x.other === a.pairs[i].other) &&
      sameNumbers(p.referenceOnly, a.referenceOnly) &&
      sameNumbers(p.otherOnly, a.otherOnly));
    out.set(queryId, same && p ? p : { ...a, serial: ++serials, base: data.base, lineage: k });
  }
  interned.delete(k);
  interned.set(k, out);
  while (interned.size > MAX_INTERNED) interned.delete(interned.keys().next().value as string);
  return out;
}

function inSlice(slice: Slice, queryId: number, chunkId: number): boolean {
  return (!slice.queries || slice.queries(queryId)) && (!slice.chunks || (slice.chunks.get(queryId)?.has(chunkId) ?? false));
}

/**
 * A query's pairs in a slice by pool contributions (a run's items), kept with the query's
 * alignment; a part equal to the last one for this alignment, slice and query keeps its serial,
 * so a slice's key changes only when its own pairs do.
 */
type TPart = { pairs: (LabelPair & Keyed)[]; referenceOnly: number; otherOnly: number; serial: number; base: object };
const parts = new WeakMap<object, Map<string, TPart>>();
const lastParts = new Map<string, TPart>();
const MAX_PARTS = 400_000;

function part(q: TInterned, queryId: number, slice: Slice, chunks: Set<number>): TPart {
  let m = parts.get(q);
  if (!m) parts.set(q, (m = new Map()));
  let got = m.get(slice.name);
  if (got) return got;
  const pairs = q.pairs.filter((x) => chunks.has(x.chunkId));
  let referenceOnly = 0;
  let otherOnly = 0;
  for (const c of q.referenceOnly) if (chunks.has(c)) referenceOnly++;
  for (const c of q.otherOnly) if (chunks.has(c)) otherOnly++;
  const key = `${q.lineage}\u0000${slice.name}\u0000${queryId}`;
  const prev = lastParts.get(key);
  const same =
    prev !== undefined &&
    prev.base === q.base &&
    prev.referenceOnly === referenceOnly &&
    prev.otherOnly === otherOnly &&
    prev.pairs.length === pairs.length &&
    prev.pairs.every((x, i) => x.chunkId === pairs[i].chunkId && x.reference === pairs[i].reference && x.other === pairs[i].other);
  got = same && prev ? prev : { pairs, referenceOnly, otherOnly, serial: ++serials, base: q.base };
  m.set(slice.name, got);
  if (lastParts.size >= MAX_PARTS) lastParts.clear();
  lastParts.set(key, got);
  return got;
}

/** Names the slice's part of an alignment: slice, pool, and the serials of what it keeps of each query. */
function sliceKey(data: TDashboardData, all: TFullAlignment, slice: Slice): string {
  let key = `${baseSerial(data.base)}\u0000${slice.name}`;
  for (const [queryId, q] of all) {
    if (slice.queries && !slice.queries(queryId)) continue;
    if (!slice.chunks) {
      key += ` ${q.serial}`;
      continue;
    }
    const chunks = slice.chunks.get(queryId);
    if (chunks) key += ` ${part(q, queryId, slice, chunks).serial}`;
  }
  return key;
}

/**
 * Blocks by content: a slice whose queries' alignments are all unchanged (same serials) shows the
 * same block, found here without cutting its pairs again.
 */
const blocks = new Map<string, TAgreementBlock>();
const MAX_BLOCKS = 2000;

function cachedBlock(key: string, make: () => TAgreementBlock): TAgreementBlock {
  const k = `${process.env.DATABASE_URL ?? ""}\u0000${key}`;
  let b = blocks.get(k);
  if (b) {
    blocks.delete(k);
  } else b = make();
  blocks.set(k, b);
  while (blocks.size > MAX_BLOCKS) blocks.delete(blocks.keys().next().value as string);
  return b;
}

/** The slice's part of an alignment; `key` names its content (slice, pool, serials of its queries). */
function cut(data: TDashboardData, all: TFullAlignment, slice: Slice): Aligned & { key: string } {
  const out: Aligned & { key: string } = { pairs: [], referenceOnly: 0, otherOnly: 0, key: `${baseSerial(data.base)}\u0000${slice.name}` };
  for (const [queryId, q] of all) {
    if (slice.queries && !slice.queries(queryId)) continue;
    const chunks = slice.chunks ? slice.chunks.get(queryId) : null;
    if (chunks === undefined) continue;
    out.key += ` ${q.serial}`;
    if (chunks === null) {
      for (const p of q.pairs) out.pairs.push(p);
      out.referenceOnly += q.referenceOnly.length;
      out.otherOnly += q.otherOnly.length;
      continue;
    }
    const got = part(q, queryId, slice, chunks);
    for (const p of got.pairs) out.pairs.push(p);
    out.referenceOnly += got.referenceOnly;
    out.otherOnly += got.otherOnly;
  }
  return out;
}

const baseSerials = new WeakMap<object, number>();
function baseSerial(base: object): number {
  let n = baseSerials.get(base);
  if (n === undefined) baseSerials.set(base, (n = ++serials));
  return n;
}

// Alignments depend only on the loaded data, which is immutable per label-set version.
const alignments = new WeakMap<TDashboardData, Map<string, TFullAlignment>>();
function alignmentOf(data: TDashboardData, key: string, make: () => Map<number, TQueryAlignment>): TFullAlignment {
  let m = alignments.get(data);
  if (!m) alignments.set(data, (m = new Map()));
  let a = m.get(key);
  if (!a) m.set(key, (a = intern(data, key, make())));
  return a;
}

/**
 * Reports by content (a slice's pairs, named by `cut`'s key): after a label change only the slices
 * whose pairs changed are computed again; the others come from here.
 */
const reports = new Map<string, AgreementReport>();
const MAX_REPORTS = 1000;

/** Forget every report kept by content (tests comparing with a computation from scratch). */
export function clearReportCache(): void {
  reports.clear();
  bootstrapMemo.clear();
  interned.clear();
  blocks.clear();
  lastParts.clear();
}

/** Each report's bootstrap state by what it shows (project, panel, slice), updated after label changes (lib/stats/agreement/report.ts). */
const bootstrapMemo: AgreementMemo = new Map();
const MAX_BOOTSTRAP_MEMO = 200;

function report(aligned: Aligned & { key: string }, resamples: number, data: TDashboardData, lineage: string): AgreementReport {
  const key = `${process.env.DATABASE_URL ?? ""}\u0000${resamples} ${RESAMPLING.seed} ${RESAMPLING.level}\u0000${aligned.key}`;
  const hit = reports.get(key);
  if (hit) {
    reports.delete(key);
    reports.set(key, hit);
    return hit;
  }
  const memoKey = `${process.env.DATABASE_URL ?? ""}\u0000${data.project.id}\u0000${resamples}\u0000${lineage}`;
  const r = agreementReport(aligned, { bootstrap: resamples, seed: RESAMPLING.seed, level: RESAMPLING.level, memo: bootstrapMemo, memoKey });
  const state = bootstrapMemo.get(memoKey);
  if (state) {
    bootstrapMemo.delete(memoKey);
    bootstrapMemo.set(memoKey, state);
  }
  while (bootstrapMemo.size > MAX_BOOTSTRAP_MEMO) bootstrapMemo.delete(bootstrapMemo.keys().next().value as string);
  reports.set(key, r);
  while (reports.size > MAX_REPORTS) reports.delete(reports.keys().next().value as string);
  return r;
}

function sliceFilter(data: TDashboardData, tag: string | undefined, system: string | undefined): Slice {
  return { name: `${tag ?? ""}\u0000${system ?? ""}`, queries: tag ? tagFilter(data, tag) : null, chunks: system ? contributedBy(data, runBySystem(data, system).id) : null };
}

/** A judge's labels per query, once per import (judge labels change only with one). */
const judgeByQuery = new WeakMap<readonly TLabel[], Map<number, TLabel[]>>();

/** The last judge-vs-human alignment per project and judge, with the label-set version it was made for. */
const lastJudgeAlignment = new Map<string, { version: string; all: TFullAlignment }>();

/**
 * Final human labels against a judge's, aligned per query. After a label change (known queries,
 * data.referenceChanges) the previous version's alignment is copied and only those queries are
 * aligned again.
 */
function judgeAlignment(data: TDashboardData, judge: string): Map<number, TQueryAlignment> {
  const labels = data.judges.get(judge) ?? [];
  const key = `${process.env.DATABASE_URL ?? ""}\u0000${data.project.id}\u0000${judge}`;
  const last = lastJudgeAlignment.get(key);
  const changes = data.referenceChanges;
  if (!last || !changes || last.version !== changes.from) return alignAll(data, data.reference, labels);
  let byQuery = judgeByQuery.get(labels);
  if (!byQuery) {
    byQuery = new Map();
    for (const l of labels) {
      const list = byQuery.get(l.queryId);
      if (list) list.push(l);
      else byQuery.set(l.queryId, [l]);
    }
    judgeByQuery.set(labels, byQuery);
  }
  const out = new Map<number, TQueryAlignment>(last.all);
  const refs = new Map<number, TLabel[]>([...changes.queries].map((q) => [q, []]));
  for (const r of data.reference) refs.get(r.queryId)?.push(r);
  for (const [queryId, ref] of refs) {
    const again = alignAll(data, ref, byQuery.get(queryId) ?? []).get(queryId);
    if (again) out.set(queryId, again);
    else out.delete(queryId);
  }
  return out;
}

function judgeBlock(data: TDashboardData, judge: string, keep: Slice, resamples: number): TAgreementBlock {
  const all = alignmentOf(data, `judge\u0000${judge}`, () => judgeAlignment(data, judge));
  const lastKey = `${process.env.DATABASE_URL ?? ""}\u0000${data.project.id}\u0000${judge}`;
  if (lastJudgeAlignment.get(lastKey)?.version !== data.version) {
    lastJudgeAlignment.delete(lastKey);
    lastJudgeAlignment.set(lastKey, { version: data.version, all });
    while (lastJudgeAlignment.size > 16) lastJudgeAlignment.delete(lastJudgeAlignment.keys().next().value as string);
  }
  return cachedBlock(`judge\u0000${judge}\u0000${resamples}\u0000${data.reference.length === 0}\u0000${sliceKey(data, all, keep)}`, () => {
    const aligned = cut(data, all, keep);
    if (aligned.pairs.length > 0) return { name: judge, report: report(aligned, resamples, data, `judge\u0000${judge}\u0000${keep.name}`), empty: null };
    const empty =
      aligned.referenceOnly === 0
        ? data.reference.length === 0
          ? NO_HUMAN_HINT
          : "no final human labels in this slice"
        : aligned.otherOnly === 0
          ? `judge ${judge} has no labels in this slice`
          : `no item has both a final human label and a label from judge ${judge}`;
    return { name: judge, report: null, empty };
  });
}

export function agreementPanel(data: TDashboardData, q: Pick<TDashboardQuery, "tag" | "system">): TAgreementPanel {
  const keep = sliceFilter(data, q.tag, q.system);
  const judges = [...data.judges.keys()].map((j) => judgeBlock(data, j, keep, RESAMPLING.resamples));
  return { judges, empty: data.judges.size === 0 ? NO_JUDGE_HINT : null, slice: { tag: q.tag ?? null, system: q.system ?? null } };
}

type TGraded = { queryId: number; chunkId: number; labels: { userId: string; grade: number }[] };
const graded = new WeakMap<TDashboardData, TGraded[]>();

/** Per pool item, its judgements in submission order (only items with at least two). */
function gradedTwice(data: TDashboardData, keep: Slice): TGraded[] {
  let all = graded.get(data);
  if (!all) {
    all = [];
    for (const [itemId, labels] of data.judgementsByItem) {
      const it = data.poolItems.get(itemId);
      if (it && labels.length >= 2) all.push({ queryId: it.queryId, chunkId: it.chunkId, labels });
    }
    graded.set(data, all);
  }
  return keep.queries || keep.chunks ? all.filter((it) => inSlice(keep, it.queryId, it.chunkId)) : all;
}

/**
 * alignAll of two label sets on the same items (one label each per pool item, so every label is
 * paired: the two grades of each item).
 */
function alignItems(data: TDashboardData, items: readonly { queryId: number; chunkId: number; reference: number; other: number }[]): Map<number, TQueryAlignment> {
  const out = new Map<number, TQueryAlignment>();
  for (const it of items) {
    let q = out.get(it.queryId);
    if (!q) out.set(it.queryId, (q = { pairs: [], referenceOnly: [], otherOnly: [] }));
    const qid = data.queries.get(it.queryId)?.qid ?? String(it.queryId);
    const docid = data.chunks.get(it.chunkId)?.docid ?? String(it.chunkId);
    q.pairs.push({ qid, docid, reference: it.reference, other: it.other, queryId: it.queryId, chunkId: it.chunkId });
  }
  return out;
}

function humanBlocks(data: TDashboardData, keep: Slice, resamples: number, withPairs: boolean): THumanPanel {
  const items = gradedTwice(data, keep);
  type TItemPair = { queryId: number; chunkId: number; reference: number; other: number };
  const overall: TItemPair[] = [];
  const pairs = new Map<string, { a: string; b: string; items: TItemPair[] }>();
  const name = (id: string) => data.users.get(id)?.name ?? id;
  // A pair's reference is the annotator whose name comes first (ties: user id); decided once per pair of users.
  const order = new Map<string, boolean>();
  const swapped = (a: string, b: string) => {
    const k = `${a}\u0000${b}`;
    let v = order.get(k);
    if (v === undefined) order.set(k, (v = name(b).localeCompare(name(a)) < 0 || (name(b) === name(a) && b < a)));
    return v;
  };
  for (const it of items) {
    overall.push({ queryId: it.queryId, chunkId: it.chunkId, reference: it.labels[0].grade, other: it.labels[1].grade });
    if (!withPairs) continue;
    for (let i = 0; i < it.labels.length; i++)
      for (let k = i + 1; k < it.labels.length; k++) {
        let [x, y] = [it.labels[i], it.labels[k]];
        if (swapped(x.userId, y.userId)) [x, y] = [y, x];
        const key = `${x.userId}\u0000${y.userId}`;
        let p = pairs.get(key);
        if (!p) pairs.set(key, (p = { a: x.userId, b: y.userId, items: [] }));
        p.items.push({ queryId: it.queryId, chunkId: it.chunkId, reference: x.grade, other: y.grade });
      }
  }
  const all: Slice = { name: "", queries: null, chunks: null };
  const block = (label: string, both: TItemPair[]): TAgreementBlock => {
    if (both.length === 0) return { name: label, report: null, empty: "no item has been graded by two annotators yet: assign items with npx assessor assign --per-item 2" };
    return { name: label, report: report(cut(data, intern(data, `pair\u0000${label}`, alignItems(data, both)), all), resamples, data, `human\u0000${keep.name}\u0000${label}`), empty: null };
  };
  const alpha = items.length ? krippendorffAlpha(raterMatrix(items), "ordinal") : null;
  return {
    overall: block("all annotators", overall),
    pairs: [...pairs.values()].sort((p, r) => name(p.a).localeCompare(name(r.a)) || name(p.b).localeCompare(name(r.b))).map((p) => block(`${name(p.a)} – ${name(p.b)}`, p.items)),
    alphaAllRaters: alpha,
    items: items.length,
    empty: items.length === 0 ? "no item has been graded by two annotators yet: assign items with npx assessor assign --per-item 2" : null,
  };
}

/** Units × raters for Krippendorff's alpha over every annotator (missing where one did not grade). */
function raterMatrix(items: { labels: { userId: string; grade: number }[] }[]): (number | null)[][] {
  const raters = [...new Set(items.flatMap((it) => it.labels.map((l) => l.userId)))];
  const index = new Map(raters.map((r, i) => [r, i]));
  return items.map((it) => {
    const row = new Array<number | null>(raters.length).fill(null);
    for (const l of it.labels) row[index.get(l.userId) as number] = l.grade;
    return row;
  });
}

export function humanPanel(data: TDashboardData, q: Pick<TDashboardQuery, "tag" | "system">): THumanPanel {
  return humanBlocks(data, sliceFilter(data, q.tag, q.system), RESAMPLING.resamples, true);
}

const NO_DOUBLE = "no item has been graded by two annotators yet: assign items with npx assessor assign --per-item 2";

/** Human vs human over all annotators (first grade vs second), aligned once and cut to the slice. */
function humanOverall(data: TDashboardData, keep: Slice, resamples: number): TAgreementBlock {
  const all = alignmentOf(data, "human", () => {
    const items = gradedTwice(data, { name: "", queries: null, chunks: null });
    return alignItems(data, items.map((it) => ({ queryId: it.queryId, chunkId: it.chunkId, reference: it.labels[0].grade, other: it.labels[1].grade })));
  });
  return cachedBlock(`human\u0000${resamples}\u0000${sliceKey(data, all, keep)}`, () => {
    const aligned = cut(data, all, keep);
    return aligned.pairs.length ? { name: "all annotators", report: report(aligned, resamples, data, `human\u0000${keep.name}\u0000all annotators`), empty: null } : { name: "all annotators", report: null, empty: NO_DOUBLE };
  });
}

/** Judge vs human (for the chosen judge) and human vs human, per query tag and per system. */
export function breakdownsPanel(data: TDashboardData, q: Pick<TDashboardQuery, "judge">): TBreakdownsPanel {
  const judge = pickJudge(data, q.judge);
  const rows: TBreakdownRow[] = [];
  const add = (kind: "tag" | "system", slice: string, keep: Slice) =>
    rows.push({ kind, slice, judge: judge ? judgeBlock(data, judge, keep, BREAKDOWN_RESAMPLES) : null, human: humanOverall(data, keep, BREAKDOWN_RESAMPLES) });
  for (const tag of data.tags) add("tag", tag, sliceFilter(data, tag, undefined));
  // Breakdowns show the intervals of many slices at once: 200 resamples each keep them affordable.
  for (const run of data.runs) add("system", run.system, sliceFilter(data, undefined, run.system));
  return { judge, rows, resamples: BREAKDOWN_RESAMPLES };
}
