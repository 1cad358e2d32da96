import { alignLabels, type Aligned, type Label, type LabelPair } from "../stats/agreement/align.ts";
import { krippendorffAlpha } from "../stats/agreement/krippendorff.ts";
import { agreementReport, type AgreementReport } from "../stats/agreement/report.ts";
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
 * Labels are given to the report sorted by (qid, docid) in byte order, so that the query-level
 * bootstrap draws the same queries as the CLI on qrels files in that order.
 */
export type TAgreementBlock = { name: string; report: AgreementReport | null; empty: string | null };
export type TAgreementPanel = { judges: TAgreementBlock[]; empty: string | null; slice: { tag: string | null; system: string | null } };
export type THumanPanel = { overall: TAgreementBlock; pairs: TAgreementBlock[]; alphaAllRaters: number | null; items: number; empty: string | null };
export type TBreakdownRow = { slice: string; kind: "tag" | "system"; judge: TAgreementBlock | null; human: TAgreementBlock };
export type TBreakdownsPanel = { judge: string | null; rows: TBreakdownRow[]; resamples: number };
export const BREAKDOWN_RESAMPLES = 200;

const byKey = (a: Label, b: Label) => (a.qid !== b.qid ? (a.qid < b.qid ? -1 : 1) : a.docid < b.docid ? -1 : a.docid > b.docid ? 1 : 0);

type Keep = (queryId: number, chunkId: number) => boolean;
type Keyed = { queryId: number; chunkId: number };
/** Two label sets aligned once over the whole project, ready to be cut into slices. */
type TFullAlignment = { pairs: (LabelPair & Keyed)[]; referenceOnly: Keyed[]; otherOnly: Keyed[] };

function labelsOf(data: TDashboardData, rows: Iterable<TLabel>): (Label & Keyed)[] {
  const out: (Label & Keyed)[] = [];
  for (const r of rows) out.push({ qid: data.queries.get(r.queryId)?.qid ?? String(r.queryId), docid: data.chunks.get(r.chunkId)?.docid ?? String(r.chunkId), grade: r.grade, queryId: r.queryId, chunkId: r.chunkId });
  return out.sort(byKey);
}

function alignAll(data: TDashboardData, reference: Iterable<TLabel>, other: Iterable<TLabel>): TFullAlignment {
  const ref = labelsOf(data, reference);
  const oth = labelsOf(data, other);
  const aligned = alignLabels(ref, oth);
  const ids = new Map<string, Keyed>();
  for (const l of [...ref, ...oth]) ids.set(`${l.qid}\u0000${l.docid}`, { queryId: l.queryId, chunkId: l.chunkId });
  const inPairs = new Set<string>();
  const pairs = aligned.pairs.map((p) => {
    const k = `${p.qid}\u0000${p.docid}`;
    inPairs.add(k);
    return { ...p, ...(ids.get(k) as Keyed) };
  });
  return {
    pairs,
    referenceOnly: ref.filter((l) => !inPairs.has(`${l.qid}\u0000${l.docid}`)),
    otherOnly: oth.filter((l) => !inPairs.has(`${l.qid}\u0000${l.docid}`)),
  };
}

function cut(all: TFullAlignment, keep: Keep): Aligned {
  return {
    pairs: all.pairs.filter((p) => keep(p.queryId, p.chunkId)),
    referenceOnly: all.referenceOnly.reduce((n, l) => n + (keep(l.queryId, l.chunkId) ? 1 : 0), 0),
    otherOnly: all.otherOnly.reduce((n, l) => n + (keep(l.queryId, l.chunkId) ? 1 : 0), 0),
  };
}

// Alignments depend only on the loaded data, which is immutable per label-set version.
const alignments = new WeakMap<TDashboardData, Map<string, TFullAlignment>>();
function alignmentOf(data: TDashboardData, key: string, make: () => TFullAlignment): TFullAlignment {
  let m = alignments.get(data);
  if (!m) alignments.set(data, (m = new Map()));
  let a = m.get(key);
  if (!a) m.set(key, (a = make()));
  return a;
}

function report(aligned: Aligned, resamples: number): AgreementReport {
  return agreementReport(aligned, { bootstrap: resamples, seed: RESAMPLING.seed, level: RESAMPLING.level });
}

function sliceFilter(data: TDashboardData, tag: string | undefined, system: string | undefined): Keep {
  const tagOk = tagFilter(data, tag);
  if (!system) return (q) => tagOk(q);
  const byQuery = contributedBy(data, runBySystem(data, system).id);
  return (q, c) => tagOk(q) && (byQuery.get(q)?.has(c) ?? false);
}

function judgeBlock(data: TDashboardData, judge: string, keep: Keep, resamples: number): TAgreementBlock {
  const aligned = cut(alignmentOf(data, `judge\u0000${judge}`, () => alignAll(data, data.reference, data.judges.get(judge) ?? [])), keep);
  if (aligned.pairs.length > 0) return { name: judge, report: report(aligned, resamples), empty: null };
  const empty =
    aligned.referenceOnly === 0
      ? data.reference.length === 0
        ? NO_HUMAN_HINT
        : "no final human labels in this slice"
      : aligned.otherOnly === 0
        ? `judge ${judge} has no labels in this slice`
        : `no item has both a final human label and a label from judge ${judge}`;
  return { name: judge, report: null, empty };
}

export function agreementPanel(data: TDashboardData, q: Pick<TDashboardQuery, "tag" | "system">): TAgreementPanel {
  const keep = sliceFilter(data, q.tag, q.system);
  const judges = [...data.judges.keys()].map((j) => judgeBlock(data, j, keep, RESAMPLING.resamples));
  return { judges, empty: data.judges.size === 0 ? NO_JUDGE_HINT : null, slice: { tag: q.tag ?? null, system: q.system ?? null } };
}

/** Per pool item, its judgements in submission order (only items with at least two). */
function gradedTwice(data: TDashboardData, keep: Keep): { queryId: number; chunkId: number; labels: { userId: string; grade: number }[] }[] {
  const byItem = new Map<string, { userId: string; grade: number }[]>();
  for (const j of data.judgements) {
    const list = byItem.get(j.poolItemId);
    if (list) list.push(j);
    else byItem.set(j.poolItemId, [j]);
  }
  const out: { queryId: number; chunkId: number; labels: { userId: string; grade: number }[] }[] = [];
  for (const [itemId, labels] of byItem) {
    const it = data.poolItems.get(itemId);
    if (!it || labels.length < 2 || !keep(it.queryId, it.chunkId)) continue;
    out.push({ ...it, labels });
  }
  return out;
}

function humanBlocks(data: TDashboardData, keep: Keep, resamples: number, withPairs: boolean): THumanPanel {
  const items = gradedTwice(data, keep);
  const first: TLabel[] = [];
  const second: TLabel[] = [];
  const pairs = new Map<string, { a: string; b: string; ref: TLabel[]; other: TLabel[] }>();
  const name = (id: string) => data.users.get(id)?.name ?? id;
  for (const it of items) {
    first.push({ queryId: it.queryId, chunkId: it.chunkId, grade: it.labels[0].grade });
    second.push({ queryId: it.queryId, chunkId: it.chunkId, grade: it.labels[1].grade });
    if (!withPairs) continue;
    for (let i = 0; i < it.labels.length; i++)
      for (let k = i + 1; k < it.labels.length; k++) {
        let [x, y] = [it.labels[i], it.labels[k]];
        if (name(y.userId).localeCompare(name(x.userId)) < 0 || (name(y.userId) === name(x.userId) && y.userId < x.userId)) [x, y] = [y, x];
        const key = `${x.userId}\u0000${y.userId}`;
        let p = pairs.get(key);
        if (!p) pairs.set(key, (p = { a: x.userId, b: y.userId, ref: [], other: [] }));
        p.ref.push({ queryId: it.queryId, chunkId: it.chunkId, grade: x.grade });
        p.other.push({ queryId: it.queryId, chunkId: it.chunkId, grade: y.grade });
      }
  }
  const all = () => true;
  const block = (label: string, ref: TLabel[], other: TLabel[]): TAgreementBlock => {
    if (ref.length === 0) return { name: label, report: null, empty: "no item has been graded by two annotators yet: assign items with npx assessor assign --per-item 2" };
    return { name: label, report: report(cut(alignAll(data, ref, other), all), resamples), empty: null };
  };
  const alpha = items.length ? krippendorffAlpha(raterMatrix(items), "ordinal") : null;
  return {
    overall: block("all annotators", first, second),
    pairs: [...pairs.values()].sort((p, r) => name(p.a).localeCompare(name(r.a)) || name(p.b).localeCompare(name(r.b))).map((p) => block(`${name(p.a)} – ${name(p.b)}`, p.ref, p.other)),
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
function humanOverall(data: TDashboardData, keep: Keep, resamples: number): TAgreementBlock {
  const all = alignmentOf(data, "human", () => {
    const items = gradedTwice(data, () => true);
    const first = items.map((it) => ({ queryId: it.queryId, chunkId: it.chunkId, grade: it.labels[0].grade }));
    const second = items.map((it) => ({ queryId: it.queryId, chunkId: it.chunkId, grade: it.labels[1].grade }));
    return alignAll(data, first, second);
  });
  const aligned = cut(all, keep);
  return aligned.pairs.length ? { name: "all annotators", report: report(aligned, resamples), empty: null } : { name: "all annotators", report: null, empty: NO_DOUBLE };
}

/** Judge vs human (for the chosen judge) and human vs human, per query tag and per system. */
export function breakdownsPanel(data: TDashboardData, q: Pick<TDashboardQuery, "judge">): TBreakdownsPanel {
  const judge = pickJudge(data, q.judge);
  const rows: TBreakdownRow[] = [];
  const add = (kind: "tag" | "system", slice: string, keep: Keep) =>
    rows.push({ kind, slice, judge: judge ? judgeBlock(data, judge, keep, BREAKDOWN_RESAMPLES) : null, human: humanOverall(data, keep, BREAKDOWN_RESAMPLES) });
  for (const tag of data.tags) add("tag", tag, sliceFilter(data, tag, undefined));
  // Breakdowns show the intervals of many slices at once: 200 resamples each keep them affordable.
  for (const run of data.runs) add("system", run.system, sliceFilter(data, undefined, run.system));
  return { judge, rows, resamples: BREAKDOWN_RESAMPLES };
}
