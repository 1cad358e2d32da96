/**
 * Human vs human blocks: items graded by two annotators, per annotator pair (the pair's first
 * name in alphabetical order as the reference) and overall (each item's first grade as the
 * reference, second as the other), and Krippendorff's alpha over every annotator.
 */
import { alphaFromUnits } from "../../stats/agreement/krippendorff.ts";
import type { TDashboardData } from "../model.ts";
import { alignItems, alignmentOf, intern, type TQueryAlignment } from "./align.ts";
import { cachedBlock, report } from "./reports.ts";
import { cut, inSlice, sliceKey, type Slice } from "./slices.ts";
import type { TAgreementBlock, THumanPanel } from "./types.ts";
import { cacheOf, type TCacheHolder } from "../load/cache.ts";

/**
 * What to do when no item has two grades: assign items to two annotators, or, when that is done,
 * wait for both to grade one (the hint is computed once per load).
 */
const noDoubleHints = (data: TCacheHolder) =>
  cacheOf(data).per("agreement/human.noDoubleHints", () => new WeakMap<TDashboardData, string>());
function noDouble(data: TDashboardData): string {
  let hint = noDoubleHints(data).get(data);
  if (hint === undefined) {
    let twice = 0;
    for (const n of data.assigned.values()) if (n >= 2) twice++;
    hint = twice
      ? `no item has been graded by two annotators yet: ${twice.toLocaleString("en")} item${twice === 1 ? " is" : "s are"} assigned to two or more annotators, and the figures appear once both have graded one`
      : "no item has been graded by two annotators yet: assign items with npx assessor assign --per-item 2";
    noDoubleHints(data).set(data, hint);
  }
  return hint;
}

type TGraded = { queryId: number; chunkId: number; labels: { userId: string; grade: number }[] };
const graded = (data: TCacheHolder) =>
  cacheOf(data).per("agreement/human.graded", () => new WeakMap<TDashboardData, TGraded[]>());

/** Per pool item, its judgements in submission order (only items with at least two). */
function gradedTwice(data: TDashboardData, keep: Slice): TGraded[] {
  let all = graded(data).get(data);
  if (!all) {
    all = [];
    for (const [itemId, labels] of data.judgementsByItem) {
      const it = data.poolItems.get(itemId);
      if (it && labels.length >= 2) all.push({ queryId: it.queryId, chunkId: it.chunkId, labels });
    }
    graded(data).set(data, all);
  }
  return keep.queries || keep.chunks ? all.filter((it) => inSlice(keep, it.queryId, it.chunkId)) : all;
}

type TItemPair = { queryId: number; chunkId: number; reference: number; other: number };
/**
 * One query's part of the human blocks: its overall alignment (first grade vs second) and one
 * alignment per annotator pair, kept while the query's items have the same judgement rows (the
 * load keeps an unchanged row's object), the same pool and chunks, and the same names for its
 * annotators (they order each pair): after a grade changes only its query is built again.
 */
type TQueryParts = {
  rows: readonly (readonly object[])[];
  base: object;
  names: string;
  overall: TQueryAlignment;
  pairs: Map<string, { a: string; b: string; alignment: TQueryAlignment }>;
};
const queryParts = (data: TCacheHolder) =>
  cacheOf(data).carried("agreement/human.queryParts", () => new Map<string, TQueryParts>());
const MAX_QUERY_PARTS = 50_000;

const sameRows = (a: readonly (readonly object[])[], items: readonly TGraded[]) =>
  a.length === items.length &&
  items.every((it, i) => a[i].length === it.labels.length && it.labels.every((l, k) => l === a[i][k]));

function partsOf(
  data: TDashboardData,
  keep: Slice,
  queryId: number,
  items: readonly TGraded[],
  name: (id: string) => string,
): TQueryParts {
  const key = `${keep.name}\u0000${queryId}`;
  const users = new Set<string>();
  for (const it of items) for (const l of it.labels) users.add(l.userId);
  let names = "";
  for (const u of users) names += `${u}\u0000${name(u)}\u0000`;
  const kept = queryParts(data).get(key);
  if (kept && kept.base === data.base && kept.names === names && sameRows(kept.rows, items)) return kept;
  const overall: TItemPair[] = [];
  const pairs = new Map<string, { a: string; b: string; items: TItemPair[] }>();
  for (const it of items) {
    overall.push({ queryId, chunkId: it.chunkId, reference: it.labels[0].grade, other: it.labels[1].grade });
    for (let i = 0; i < it.labels.length; i++)
      for (let k = i + 1; k < it.labels.length; k++) {
        let [x, y] = [it.labels[i], it.labels[k]];
        // A pair's reference is the annotator whose name comes first (ties: user id).
        if (
          name(y.userId).localeCompare(name(x.userId)) < 0 ||
          (name(y.userId) === name(x.userId) && y.userId < x.userId)
        )
          [x, y] = [y, x];
        const pairKey = `${x.userId}\u0000${y.userId}`;
        let p = pairs.get(pairKey);
        if (!p) pairs.set(pairKey, (p = { a: x.userId, b: y.userId, items: [] }));
        p.items.push({ queryId, chunkId: it.chunkId, reference: x.grade, other: y.grade });
      }
  }
  const parts: TQueryParts = {
    rows: items.map((it) => it.labels),
    base: data.base,
    names,
    overall: alignItems(data, overall).get(queryId)!,
    pairs: new Map(
      [...pairs].map(([k, p]) => [k, { a: p.a, b: p.b, alignment: alignItems(data, p.items).get(queryId)! }]),
    ),
  };
  queryParts(data).delete(key);
  queryParts(data).set(key, parts);
  while (queryParts(data).size > MAX_QUERY_PARTS)
    queryParts(data).delete(queryParts(data).keys().next().value as string);
  return parts;
}

export function humanBlocks(data: TDashboardData, keep: Slice, resamples: number): THumanPanel {
  const items = gradedTwice(data, keep);
  const name = (id: string) => data.users.get(id)?.name ?? id;
  const byQuery = new Map<number, TGraded[]>();
  for (const it of items) {
    const list = byQuery.get(it.queryId);
    if (list) list.push(it);
    else byQuery.set(it.queryId, [it]);
  }
  const overall = new Map<number, TQueryAlignment>();
  const pairs = new Map<string, { a: string; b: string; perQuery: Map<number, TQueryAlignment> }>();
  const units: (readonly number[])[] = [];
  for (const [queryId, list] of byQuery) {
    const parts = partsOf(data, keep, queryId, list, name);
    overall.set(queryId, parts.overall);
    for (const [k, p] of parts.pairs) {
      let e = pairs.get(k);
      if (!e) pairs.set(k, (e = { a: p.a, b: p.b, perQuery: new Map() }));
      e.perQuery.set(queryId, p.alignment);
    }
    for (const it of list) units.push(it.labels.map((l) => l.grade));
  }
  const all: Slice = { name: "", queries: null, chunks: null };
  const block = (label: string, perQuery: Map<number, TQueryAlignment>): TAgreementBlock => {
    if (perQuery.size === 0) return { name: label, report: null, empty: noDouble(data) };
    return {
      name: label,
      report: report(
        cut(data, intern(data, `pair\u0000${label}`, perQuery), all),
        resamples,
        data,
        `human\u0000${keep.name}\u0000${label}`,
      ),
      empty: null,
    };
  };
  // Krippendorff's alpha over every annotator: each item is a unit of the grades it received.
  const alpha = items.length ? alphaFromUnits(units, "ordinal") : null;
  return {
    overall: block("all annotators", overall),
    pairs: [...pairs.values()]
      .sort((p, r) => name(p.a).localeCompare(name(r.a)) || name(p.b).localeCompare(name(r.b)))
      .map((p) => block(`${name(p.a)} – ${name(p.b)}`, p.perQuery)),
    alphaAllRaters: alpha,
    items: items.length,
    empty: items.length === 0 ? noDouble(data) : null,
  };
}

/** Human vs human over all annotators (first grade vs second), aligned once and cut to the slice. */
export function humanOverall(data: TDashboardData, keep: Slice, resamples: number): TAgreementBlock {
  const all = alignmentOf(data, "human", () => {
    const items = gradedTwice(data, { name: "", queries: null, chunks: null });
    return alignItems(
      data,
      items.map((it) => ({
        queryId: it.queryId,
        chunkId: it.chunkId,
        reference: it.labels[0].grade,
        other: it.labels[1].grade,
      })),
    );
  });
  return cachedBlock(data, `human\u0000${resamples}\u0000${sliceKey(data, all, keep)}`, () => {
    const aligned = cut(data, all, keep);
    return aligned.pairs.length
      ? {
          name: "all annotators",
          report: report(aligned, resamples, data, `human\u0000${keep.name}\u0000all annotators`),
          empty: null,
        }
      : { name: "all annotators", report: null, empty: noDouble(data) };
  });
}
