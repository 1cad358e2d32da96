/**
 * The items the Annotators report computes from (lib/stats/annotators.ts TAnnotatedItem: each pool
 * item with a judgement, its grades by annotator name, adjudication and final human label), in
 * (question id, chunk id) order, and the settled reference of any pool item (the check grades'
 * lookup, lib/annotators/checks.ts). Two ways to the same items:
 * - `itemsFromLabels`: from lib/labels/load.ts loadItemLabels (the CLI's `assessor annotators report`);
 * - `dashboardItems`: from the dashboard's data of the current label-set version
 *   (lib/dashboard/data.ts), which after a label change re-reads only the changed judgements; the
 *   items of questions that are not accepted (which that data leaves out) are read apart. An
 *   item's object is kept from one version to the next while its judgements and adjudication do
 *   not change, so computations keyed by item objects (lib/stats/annotators.ts) see what changed.
 * tests/integration/annotators-items.test.ts checks that both give the same items.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import { dashboardData, type TDashboardData } from "../dashboard/data.ts";
import type { DashboardCache } from "../dashboard/load/cache.ts";
import type { TItemView } from "../dashboard/model.ts";
import { loadItemLabels, ruleSettings, type TItemLabels } from "../labels/load.ts";
import { finalLabel } from "../labels/reference.ts";
import type { TRuleSettings } from "../labels/rule.ts";
import type { TAnnotatedItem } from "../stats/annotators.ts";

/**
 * An annotator's pseudonymous id: `annotator-` and the first 8 hex digits of SHA-256 over the
 * project id and the user id (stable across reports and exports of one project, not linkable
 * across projects, and it does not reveal the e-mail).
 */
export function pseudonym(projectId: number, userId: string): string {
  return `annotator-${createHash("sha256").update(`${projectId}:${userId}`).digest("hex").slice(0, 8)}`;
}

/** A pool item's settled reference (its final human label's grade) and question, or null without one. */
export type TReferenceOf = (poolItemId: string) => { qid: string; grade: number } | null;

export type TReportItems = {
  /** Pool items with at least one judgement, by (question id, chunk id). */
  items: TAnnotatedItem[];
  reference: TReferenceOf;
};

type TJudgementIn = { userId: string; grade: number; startSeconds: number | null; timeSpentMs: number | null };

function annotated(
  qid: string,
  docid: string,
  judgements: readonly TJudgementIn[],
  adjudication: { grade: number; startSeconds: number | null } | null | undefined,
  final: { grade: number; startSeconds: number | null } | null,
  name: (userId: string) => string,
): TAnnotatedItem {
  return {
    qid,
    docid,
    judgements: judgements.map((j) => ({
      annotator: name(j.userId),
      grade: j.grade,
      startSeconds: j.startSeconds,
      timeSpentMs: j.timeSpentMs,
    })),
    adjudication: adjudication ? { grade: adjudication.grade, startSeconds: adjudication.startSeconds } : null,
    final: final ? { grade: final.grade, startSeconds: final.startSeconds } : null,
  };
}

const byPair = (a: { queryId: number; chunkId: number }, b: { queryId: number; chunkId: number }) =>
  a.queryId - b.queryId || a.chunkId - b.chunkId;

/** Items with judgements, sorted by (question id, chunk id), as annotated items. */
function fromLabels(items: readonly TItemLabels[], settings: TRuleSettings, name: (userId: string) => string) {
  return items
    .filter((it) => it.judgements.length > 0)
    .sort(byPair)
    .map((it) => ({
      id: it.id,
      queryId: it.queryId,
      chunkId: it.chunkId,
      item: annotated(it.qid, it.docid, it.judgements, it.adjudication, finalLabel(it, settings), name),
    }));
}

const sameLabel = (a: TAnnotatedItem["final"], b: TAnnotatedItem["final"]) =>
  a === b || (a !== null && b !== null && a.grade === b.grade && a.startSeconds === b.startSeconds);

/** Two annotated items with the same figures in every field. */
function sameItem(a: TAnnotatedItem, b: TAnnotatedItem): boolean {
  return (
    a.qid === b.qid &&
    a.docid === b.docid &&
    sameLabel(a.adjudication, b.adjudication) &&
    sameLabel(a.final, b.final) &&
    a.judgements.length === b.judgements.length &&
    a.judgements.every((j, i) => {
      const k = b.judgements[i];
      return (
        j.annotator === k.annotator &&
        j.grade === k.grade &&
        j.startSeconds === k.startSeconds &&
        j.timeSpentMs === k.timeSpentMs
      );
    })
  );
}

function referenceFromLabels(items: readonly TItemLabels[], settings: TRuleSettings): TReferenceOf {
  const byId = new Map(items.map((it) => [it.id, it]));
  return (id) => {
    const it = byId.get(id);
    const f = it ? finalLabel(it, settings) : null;
    return it && f ? { qid: it.qid, grade: f.grade } : null;
  };
}

/** The items of every pool item loaded by loadItemLabels (the CLI's path). */
export function itemsFromLabels(
  items: readonly TItemLabels[],
  settings: TRuleSettings,
  name: (userId: string) => string,
): TReportItems {
  return {
    items: fromLabels(items, settings, name).map((x) => x.item),
    reference: referenceFromLabels(items, settings),
  };
}

/** What the dashboard path keeps from one label-set version of a project to the next. */
type TCarried = {
  /** The dashboard data's `base` the order was computed for. */
  base: object | null;
  /** The dashboard's pool item ids by (question id, chunk id). */
  order: string[];
  /** Per pool item, its state when its annotated item was built, and that item. */
  built: Map<string, { state: TItemView; item: TAnnotatedItem }>;
  /** The annotated items of questions that are not accepted, by pool item (read again with every version). */
  others: Map<string, TAnnotatedItem>;
  /** Pseudonym per user id. */
  names: Map<string, string>;
};

/** Pseudonyms, each computed once per project and user (a hash each: 100,000s of judgements, a few dozen users). */
function namer(projectId: number, carried: TCarried): (userId: string) => string {
  return (userId) => {
    let n = carried.names.get(userId);
    if (n === undefined) carried.names.set(userId, (n = pseudonym(projectId, userId)));
    return n;
  };
}

function buildDashboardItems(
  projectId: number,
  data: TDashboardData,
  carried: TCarried,
  others: { items: TItemLabels[]; settings: TRuleSettings | null },
): TReportItems {
  const states = data.itemStates;
  if (!states) throw new Error("the dashboard's data has no item states (data built by hand?)");
  const name = namer(projectId, carried);
  if (carried.base !== data.base) {
    carried.base = data.base;
    carried.order = [...data.poolItems.entries()].sort(([, a], [, b]) => byPair(a, b)).map(([id]) => id);
    carried.built.clear();
  }
  // The others are read again with every version: an item equal to the one kept keeps its object.
  const extra = others.settings ? fromLabels(others.items, others.settings, name) : [];
  const kept = carried.others;
  carried.others = new Map();
  for (const x of extra) {
    const before = kept.get(x.id);
    if (before && sameItem(before, x.item)) x.item = before;
    carried.others.set(x.id, x.item);
  }
  const items: TAnnotatedItem[] = [];
  let e = 0;
  for (const id of carried.order) {
    const at = states.position.get(id);
    if (at === undefined) continue;
    const state = states.states[at];
    if (state.judgements.length === 0) continue;
    const pair = data.poolItems.get(id)!;
    while (e < extra.length && byPair(extra[e], pair) < 0) items.push(extra[e++].item);
    let b = carried.built.get(id);
    if (!b || b.state !== state) {
      const item = annotated(
        data.queries.get(pair.queryId)!.qid,
        data.chunks.get(pair.chunkId)!.docid,
        state.judgements,
        state.adjudication,
        state.final,
        name,
      );
      carried.built.set(id, (b = { state, item }));
    }
    items.push(b.item);
  }
  while (e < extra.length) items.push(extra[e++].item);
  const otherReference = others.settings ? referenceFromLabels(others.items, others.settings) : () => null;
  return {
    items,
    reference: (id) => {
      const at = states.position.get(id);
      if (at === undefined) return otherReference(id);
      const f = states.states[at].final;
      return f ? { qid: data.queries.get(f.queryId)!.qid, grade: f.grade } : null;
    },
  };
}

/**
 * The items of the current label-set version from the dashboard's data, built once per version
 * (kept in its cache object), with that data and the pseudonym of each user id.
 */
export async function dashboardItems(
  db: Db,
  projectId: number,
): Promise<{ data: TDashboardData; cache: DashboardCache; items: TReportItems; name: (userId: string) => string }> {
  const { data, cache } = await dashboardData(db, projectId);
  const carried = cache.carried<TCarried>("annotators/items", () => ({
    base: null,
    order: [],
    built: new Map(),
    others: new Map(),
    names: new Map(),
  }));
  const slot = cache.per<{ items?: Promise<TReportItems> }>("annotators/items", () => ({}));
  slot.items ??= (async () => {
    // The pool items of questions that are not accepted: the dashboard's data leaves them out.
    const items = await loadItemLabels(db, projectId, { notAccepted: true });
    const settings = items.length ? await ruleSettings(db, projectId) : null;
    return buildDashboardItems(projectId, data, carried, { items, settings });
  })();
  const pending = slot.items;
  const items = await pending.catch((e: unknown) => {
    if (slot.items === pending) slot.items = undefined;
    throw e;
  });
  return { data, cache, items, name: namer(projectId, carried) };
}
