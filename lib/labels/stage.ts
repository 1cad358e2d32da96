import type { Db } from "../db/client.ts";
import { all, get, sqlRead } from "../db/sql.ts";
import { loadItemLabels, ruleSettings } from "./load.ts";
import { itemDecision, type TLabelInput, type TRuleSettings } from "./rule.ts";

export const STAGES = ["unassigned", "assigned", "agreed", "awaiting_adjudication", "adjudicated", "imported"] as const;
export type TStage = (typeof STAGES)[number];

/**
 * Where one (query, chunk) pair stands. The stages partition the pool plus the imported labels
 * outside it, so the counts add up to `total`:
 * - adjudicated: an adjudicator decided it;
 * - agreed: its annotators agree and it was never disputed (its label follows their edits);
 * - awaiting_adjudication: all its annotators graded it and they disagree, or disagreed at some
 *   point (disputed: it stays here whatever later edits say, lib/labels/rule.ts);
 * - assigned: it has assignments and is still waiting for grades;
 * - imported: no assignment, but an imported reference label exists (pool item or not);
 * - unassigned: a pool item with no assignment and no imported label.
 */
export function itemStage(
  item: {
    assignments: number;
    judgements: readonly TLabelInput[];
    adjudicated: boolean;
    disputed: boolean;
    imported: boolean;
  },
  settings: TRuleSettings,
): TStage {
  if (item.adjudicated) return "adjudicated";
  const d = itemDecision(item.judgements, settings, item.disputed);
  if (d.state === "agreed") return "agreed";
  if (d.state === "disagreed") return "awaiting_adjudication";
  if (item.assignments > 0 || item.judgements.length > 0) return "assigned";
  return item.imported ? "imported" : "unassigned";
}

export type TStageCounts = Record<TStage, number> & { total: number };

/**
 * Stage counts plus what imported human labels did to the queue: pooled items
 * with an imported reference label (any source) leave annotation, so `imported_pooled` counts the
 * pool items that have one, and `imported_regrading` those of them that are assigned anyway (a
 * re-grade asked for with `assign --include-labelled`, or grades that were already under way).
 */
export type TStatusCounts = TStageCounts & { imported_pooled: number; imported_regrading: number };

export async function stageCounts(db: Db, projectId: number): Promise<TStatusCounts> {
  // The imported labels are counted by the database (distinct pairs, and the pool items among
  // them) instead of read: a project with 200,000 imported labels kept `status` busy ~0.6 s.
  const [settings, items, imported] = await Promise.all([
    ruleSettings(db, projectId),
    loadItemLabels(db, projectId),
    sqlRead(db, function* () {
      // One source (the usual case) has one label a pair: its count needs no DISTINCT.
      const sums = yield* get<{ n: number | bigint; sources: number | bigint }>(
        `SELECT COUNT(*) AS "n", COUNT(DISTINCT "source") AS "sources" FROM "ReferenceLabel" WHERE "projectId" = ?`,
        [projectId],
      );
      const pairs =
        Number(sums?.sources ?? 0) > 1
          ? yield* get<{ n: number | bigint }>(
              `SELECT COUNT(*) AS "n" FROM (SELECT DISTINCT "queryId", "chunkId" FROM "ReferenceLabel" WHERE "projectId" = ?) pairs`,
              [projectId],
            )
          : sums;
      const pooled = yield* all<{ id: string }>(
        `SELECT DISTINCT p."id" AS "id" FROM "ReferenceLabel" r JOIN "PoolItem" p ON p."projectId" = r."projectId" AND p."queryId" = r."queryId" AND p."chunkId" = r."chunkId" WHERE r."projectId" = ?`,
        [projectId],
      );
      return { pairs: Number(pairs?.n ?? 0), pooled: new Set(pooled.map((r) => r.id)) };
    }),
  ]);
  const counts: TStatusCounts = {
    unassigned: 0,
    assigned: 0,
    agreed: 0,
    awaiting_adjudication: 0,
    adjudicated: 0,
    imported: 0,
    total: 0,
    imported_pooled: 0,
    imported_regrading: 0,
  };
  for (const it of items) {
    const labelled = imported.pooled.has(it.id);
    if (labelled) {
      counts.imported_pooled++;
      if (it.assignments > 0) counts.imported_regrading++;
    }
    counts[
      itemStage(
        {
          assignments: it.assignments,
          judgements: it.judgements,
          adjudicated: it.adjudication !== null,
          disputed: it.disputed,
          imported: labelled,
        },
        settings,
      )
    ]++;
  }
  // Imported pairs outside the pool.
  const outside = imported.pairs - imported.pooled.size;
  counts.imported += outside;
  counts.total = items.length + outside;
  return counts;
}
