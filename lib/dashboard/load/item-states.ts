/**
 * Per pool item: its inputs (judgements, adjudication, assignments, import) and what follows from
 * them (final human label, stage), kept from one label-set version to the next while the inputs do
 * not change; and the final labels and stage counts of the whole pool gathered from them.
 */
import { finalLabel } from "../../labels/reference.ts";
import type { TRuleSettings } from "../../labels/rule.ts";
import { itemStage, STAGES, type TStage, type TStageCounts } from "../../labels/stage.ts";
import type { TJudgementRow, TReference } from "../model.ts";
import type { TBase } from "./base.ts";
import type { TImportIndex } from "./imports.ts";
import type { TJudgementState } from "./judgements.ts";

export type TAdjudication = { grade: number; startSeconds: number | null; endSeconds: number | null };
export type TAssignments = { assigned: Map<string, number>; assignedByUser: Map<string, number> };
/** One pool item's inputs and what follows from them (kept while its inputs do not change). */
type TItemState = {
  judgements: readonly TJudgementRow[];
  adjudication: TAdjudication | undefined;
  disputed: boolean;
  assigned: number;
  imported: boolean;
  final: TReference | null;
  stage: TStage;
};
export type TItemStates = {
  base: TBase;
  settings: string;
  index: TImportIndex;
  adjudications: Map<string, TAdjudication>;
  assignments: object;
  /** Pool items in pool order, their positions, and their states. */
  ids: string[];
  position: Map<string, number>;
  states: TItemState[];
};

/** What the items' states are computed from, as loaded for one label-set version. */
export type TItemInputs = {
  base: TBase;
  settings: TRuleSettings;
  index: TImportIndex;
  byItem: Map<string, TJudgementRow[]>;
  adjudications: Map<string, TAdjudication>;
  /** Disputed pool items (PoolItem.disputedAt): set only with a judgement change of the item. */
  disputed: ReadonlySet<string>;
  assignments: TAssignments;
  judgementState: TJudgementState;
};

const sameRows = (a: readonly TJudgementRow[], b: readonly TJudgementRow[]) =>
  a.length === b.length &&
  a.every(
    (x, i) =>
      x === b[i] ||
      (x.userId === b[i].userId &&
        x.grade === b[i].grade &&
        x.startSeconds === b[i].startSeconds &&
        x.endSeconds === b[i].endSeconds &&
        x.timeSpentMs === b[i].timeSpentMs),
  );
const NO_ROWS: TJudgementRow[] = [];

/** One item's state: `before` itself when its inputs are unchanged. */
function itemState(
  input: TItemInputs,
  id: string,
  it: { queryId: number; chunkId: number },
  before: TItemState | undefined,
): TItemState {
  const { settings, index } = input;
  const js = input.byItem.get(id) ?? NO_ROWS;
  const adjudication = input.adjudications.get(id);
  const count = input.assignments.assigned.get(id) ?? 0;
  const isImported = index.importedItems.has(id);
  const disputed = input.disputed.has(id);
  if (
    before &&
    before.assigned === count &&
    before.imported === isImported &&
    before.disputed === disputed &&
    before.adjudication?.grade === adjudication?.grade &&
    before.adjudication?.startSeconds === adjudication?.startSeconds &&
    before.adjudication?.endSeconds === adjudication?.endSeconds &&
    sameRows(before.judgements, js)
  )
    return before;
  const f =
    !adjudication && js.length === 0
      ? null
      : finalLabel({ judgements: js, adjudication: adjudication ?? null, disputed }, settings);
  return {
    judgements: js,
    adjudication,
    disputed,
    assigned: count,
    imported: isImported,
    final: f
      ? {
          queryId: it.queryId,
          chunkId: it.chunkId,
          grade: f.grade,
          startSeconds: f.startSeconds,
          endSeconds: f.endSeconds,
          status: f.status,
          source: null,
        }
      : null,
    stage: itemStage(
      { assignments: count, judgements: js, adjudicated: adjudication !== undefined, disputed, imported: isImported },
      settings,
    ),
  };
}

/**
 * Final human labels and stages per pool item, as lib/labels/reference.ts referenceLabels and
 * lib/labels/stage.ts define them (a human final label from finalLabel() wins; otherwise the
 * latest import, ties by source name), from the rows loaded here; recomputed only for the items
 * whose judgements, adjudication, assignments or import changed.
 * tests/integration/dashboard-panels.test.ts checks the set against referenceLabels.
 */
export function itemStates(
  input: TItemInputs,
  previousItems: TItemStates | undefined,
  previousJudgements: TJudgementState | undefined,
): { items: TItemStates; changedQueries: Set<number> | null } {
  const { base, index, adjudications, assignments, judgementState } = input;
  const { poolItems } = base;
  const settingsKey = JSON.stringify(input.settings);
  const prev =
    previousItems && previousItems.base === base && previousItems.settings === settingsKey ? previousItems : undefined;
  let items: TItemStates;
  // The queries whose final human labels may differ from the previous version's (null: every query may).
  let changedQueries: Set<number> | null = null;
  if (
    prev &&
    prev.index === index &&
    prev.adjudications === adjudications &&
    prev.assignments === assignments &&
    (judgementState === previousJudgements || judgementState.changedItems)
  ) {
    // Only judgements changed, and we know on which items: the others keep their state.
    items = { ...prev, states: prev.states.slice() };
    changedQueries = new Set();
    if (judgementState !== previousJudgements)
      for (const id of judgementState.changedItems ?? []) {
        const at = prev.position.get(id);
        if (at === undefined) continue;
        items.states[at] = itemState(input, id, poolItems.get(id)!, prev.states[at]);
        if (items.states[at].final !== prev.states[at].final) changedQueries.add(poolItems.get(id)!.queryId);
      }
  } else {
    const ids = [...poolItems.keys()];
    items = {
      base,
      settings: settingsKey,
      index,
      adjudications,
      assignments,
      ids,
      position: prev?.position ?? new Map(ids.map((id, i) => [id, i])),
      states: [],
    };
    // With the same pool, settings and imports, the items whose final label changed tell the queries.
    const known = prev !== undefined && prev.index === index;
    if (known) changedQueries = new Set();
    items.states = ids.map((id) => {
      const at = prev?.position.get(id);
      const before = at === undefined ? undefined : prev?.states[at];
      const st = itemState(input, id, poolItems.get(id)!, before);
      if (known && st.final !== before?.final) changedQueries!.add(poolItems.get(id)!.queryId);
      return st;
    });
  }
  return { items, changedQueries };
}

/** The pool's final labels (human ones, then winning imports the items have none for) and stage counts. */
export function referenceAndStages(
  items: TItemStates,
  index: TImportIndex,
  poolSize: number,
): { reference: TReference[]; stages: TStageCounts } {
  const reference: TReference[] = [];
  const stages = Object.fromEntries([...STAGES.map((s) => [s, 0]), ["total", 0]]) as TStageCounts;
  for (const st of items.states) {
    if (st.final) reference.push(st.final);
    stages[st.stage]++;
  }
  index.winners.forEach((r, i) => {
    const item = index.winnerItem[i];
    const at = item === null ? undefined : items.position.get(item);
    if (at === undefined || !items.states[at].final) reference.push({ ...r, status: "imported" });
  });
  stages.imported += index.outsidePool;
  stages.total = poolSize + index.outsidePool;
  return { reference, stages };
}
