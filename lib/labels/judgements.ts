import type { Db } from "../db/client.ts";
import { loadItemLabels, ruleSettings, type TItemJudgement, type TItemLabels } from "./load.ts";
import { finalLabel } from "./reference.ts";
import { itemDecision, type TDecision } from "./rule.ts";
import { itemStage, type TStage } from "./stage.ts";

/** Every judgement of one pool item, in submission order (for lead and adjudicator views only). */
export async function judgementsForItem(db: Db, poolItemId: string): Promise<TItemJudgement[]> {
  const item = await db.poolItem.findUnique({ where: { id: poolItemId }, select: { projectId: true } });
  if (!item) return [];
  const [labels] = await loadItemLabels(db, item.projectId, { poolItemIds: [poolItemId] });
  return labels?.judgements ?? [];
}

export type TItemStatus = {
  poolItemId: string;
  stage: TStage;
  decision: TDecision;
  final: { grade: number; startSeconds: number | null; status: "agreed" | "adjudicated" } | null;
  judgements: number;
  /** Its required grades disagreed at some point: it waits for (or had) adjudication. */
  disputed: boolean;
  /** An annotator changed their grade after the adjudicator's decision (which still stands). */
  editedAfterDecision: boolean;
};

/** Whether an annotator edited their judgement after the item was adjudicated. */
export function editedAfterDecision(item: Pick<TItemLabels, "judgements" | "adjudication">): boolean {
  const decided = item.adjudication?.decidedAt;
  return decided !== undefined && item.judgements.some((j) => j.updatedAt > decided);
}

/** Where one pool item stands: its stage, the rule's decision and its final label, if any. */
export async function itemStatus(db: Db, poolItemId: string): Promise<TItemStatus | null> {
  const item = await db.poolItem.findUnique({
    where: { id: poolItemId },
    select: { projectId: true, queryId: true, chunkId: true },
  });
  if (!item) return null;
  const [settings, [labels], imported] = await Promise.all([
    ruleSettings(db, item.projectId),
    loadItemLabels(db, item.projectId, { poolItemIds: [poolItemId] }),
    db.referenceLabel.count({ where: { projectId: item.projectId, queryId: item.queryId, chunkId: item.chunkId } }),
  ]);
  return {
    poolItemId,
    stage: itemStage(
      {
        assignments: labels.assignments,
        judgements: labels.judgements,
        adjudicated: labels.adjudication !== null,
        disputed: labels.disputed,
        imported: imported > 0,
      },
      settings,
    ),
    decision: itemDecision(labels.judgements, settings, labels.disputed),
    disputed: labels.disputed,
    editedAfterDecision: editedAfterDecision(labels),
    final: finalLabel(labels, settings),
    judgements: labels.judgements.length,
  };
}
