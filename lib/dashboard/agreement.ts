import { alignLabels, type Label } from "../stats/agreement/align.ts";
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
export type TBreakdownsPanel = { judge: string | null; rows: TBreakdownRow[] };

const byKey = (a: Label, b: Label) => (a.qid !== b.qid ? (a.qid < b.qid ? -1 : 1) : a.docid < b.docid ? -1 : a.docid > b.docid ? 1 : 0);

type Keep = (queryId: number, chunkId: number) => boolean;

function labelsOf(data: TDashboardData, rows: Iterable<TLabel>, keep: Keep): Label[] {
  const out: Label[] = [];
  for (const r of rows) {
    if (!keep(r.queryId, r.chunkId)) continue;
    out.push({ qid: data.queries.get(r.queryId)?.qid ?? String(r.queryId), docid: data.chunks.get(r.chunkId)?.docid ?? String(r.chunkId), grade: r.grade });
  }
  return out.sort(byKey);
}

function report(reference: Label[], other: Label[], resamples: number): AgreementReport {
  return agreementReport(alignLabels(reference, other), { bootstrap: resamples, seed: RESAMPLING.seed, level: RESAMPLING.level });
}

function sliceFilter(data: TDashboardData, tag: string | undefined, system: string | undefined): Keep {
  const tagOk = tagFilter(data, tag);
  if (!system) return (q) => tagOk(q);
  const keys = contributedBy(data, runBySystem(data, system).id);
  return (q, c) => tagOk(q) && keys.has(`${q}:${c}`);
}

function judgeBlock(data: TDashboardData, judge: string, keep: Keep, resamples: number): TAgreementBlock {
  const reference = labelsOf(data, data.reference, keep);
  const other = labelsOf(data, data.judges.get(judge) ?? [], keep);
  const r = report(reference, other, resamples);
  const empty = r.n > 0 ? null : reference.length === 0 ? (data.reference.length === 0 ? NO_HUMAN_HINT : "no final human labels in this slice") : other.length === 0 ? `judge ${judge} has no labels in this slice` : `no item has both a final human label and a label from judge ${judge}`;
  return { name: judge, report: r.n > 0 ? r : null, empty };
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
    return { name: label, report: report(labelsOf(data, ref, all), labelsOf(data, other, all), resamples), empty: null };
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

/** Judge vs human (for the chosen judge) and human vs human, per query tag and per system. */
export function breakdownsPanel(data: TDashboardData, q: Pick<TDashboardQuery, "judge">): TBreakdownsPanel {
  const judge = pickJudge(data, q.judge);
  const rows: TBreakdownRow[] = [];
  const add = (kind: "tag" | "system", slice: string, keep: Keep) =>
    rows.push({ kind, slice, judge: judge ? judgeBlock(data, judge, keep, RESAMPLING.resamples) : null, human: humanBlocks(data, keep, RESAMPLING.resamples, false).overall });
  for (const tag of data.tags) add("tag", tag, sliceFilter(data, tag, undefined));
  for (const run of data.runs) add("system", run.system, sliceFilter(data, undefined, run.system));
  return { judge, rows };
}
