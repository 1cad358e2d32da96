/**
 * Human vs human blocks: items graded by two annotators, per annotator pair (the pair's first
 * name in alphabetical order as the reference) and overall (each item's first grade as the
 * reference, second as the other), and Krippendorff's alpha over every annotator.
 */
import { alphaFromUnits } from "../../stats/agreement/krippendorff.ts";
import type { TDashboardData } from "../model.ts";
import { alignItems, alignmentOf, intern } from "./align.ts";
import { cachedBlock, report } from "./reports.ts";
import { cut, inSlice, sliceKey, type Slice } from "./slices.ts";
import type { TAgreementBlock, THumanPanel } from "./types.ts";

const NO_DOUBLE = "no item has been graded by two annotators yet: assign items with npx assessor assign --per-item 2";

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

export function humanBlocks(data: TDashboardData, keep: Slice, resamples: number, withPairs: boolean): THumanPanel {
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
    if (both.length === 0) return { name: label, report: null, empty: NO_DOUBLE };
    return { name: label, report: report(cut(data, intern(data, `pair\u0000${label}`, alignItems(data, both)), all), resamples, data, `human\u0000${keep.name}\u0000${label}`), empty: null };
  };
  // Krippendorff's alpha over every annotator: each item is a unit of the grades it received.
  const alpha = items.length ? alphaFromUnits(items.map((it) => it.labels.map((l) => l.grade)), "ordinal") : null;
  return {
    overall: block("all annotators", overall),
    pairs: [...pairs.values()].sort((p, r) => name(p.a).localeCompare(name(r.a)) || name(p.b).localeCompare(name(r.b))).map((p) => block(`${name(p.a)} – ${name(p.b)}`, p.items)),
    alphaAllRaters: alpha,
    items: items.length,
    empty: items.length === 0 ? NO_DOUBLE : null,
  };
}

/** Human vs human over all annotators (first grade vs second), aligned once and cut to the slice. */
export function humanOverall(data: TDashboardData, keep: Slice, resamples: number): TAgreementBlock {
  const all = alignmentOf(data, "human", () => {
    const items = gradedTwice(data, { name: "", queries: null, chunks: null });
    return alignItems(data, items.map((it) => ({ queryId: it.queryId, chunkId: it.chunkId, reference: it.labels[0].grade, other: it.labels[1].grade })));
  });
  return cachedBlock(`human\u0000${resamples}\u0000${sliceKey(data, all, keep)}`, () => {
    const aligned = cut(data, all, keep);
    return aligned.pairs.length ? { name: "all annotators", report: report(aligned, resamples, data, `human\u0000${keep.name}\u0000all annotators`), empty: null } : { name: "all annotators", report: null, empty: NO_DOUBLE };
  });
}
