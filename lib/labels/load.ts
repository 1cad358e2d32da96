import type { Db } from "../db/client.ts";
import type { TRuleSettings } from "./rule.ts";

export type TItemJudgement = {
  id: number;
  userId: string;
  grade: number;
  startSeconds: number | null;
  endSeconds: number | null;
  notes: string;
  flags: string[];
  timeSpentMs: number | null;
  updatedAt: Date;
};
export type TItemLabels = {
  id: string;
  queryId: number;
  chunkId: number;
  qid: string;
  docid: string;
  assignments: number;
  /** In submission order (judgement id ascending). */
  judgements: TItemJudgement[];
  /** `revision`: 1 for the first decision, one more per revision (lib/adjudication/decide.ts). */
  adjudication: {
    grade: number;
    startSeconds: number | null;
    endSeconds: number | null;
    rationale: string;
    decidedAt: Date;
    revision: number;
  } | null;
  /** The item's required grades disagreed at some point (PoolItem.disputedAt): it waits for adjudication. */
  disputed: boolean;
};

export function parseFlags(raw: string): string[] {
  try {
    const v: unknown = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export async function ruleSettings(db: Db, projectId: number): Promise<TRuleSettings> {
  return db.project.findUniqueOrThrow({
    where: { id: projectId },
    select: { disagreementRule: true, startToleranceSeconds: true, annotatorsPerItem: true },
  });
}

/**
 * Every pool item of a project with its assignment count, judgements and adjudication, read in a
 * few flat queries (one per table) and joined here: the base of reference labels, stages and the
 * adjudication queue.
 */
export async function loadItemLabels(
  db: Db,
  projectId: number,
  where: { poolItemIds?: string[] } = {},
): Promise<TItemLabels[]> {
  const idFilter = where.poolItemIds ? { id: { in: where.poolItemIds } } : {};
  const itemFilter = where.poolItemIds ? { poolItemId: { in: where.poolItemIds } } : {};
  const [items, assignments, judgements, adjudications] = await Promise.all([
    db.poolItem.findMany({
      where: { projectId, ...idFilter },
      select: {
        id: true,
        queryId: true,
        chunkId: true,
        disputedAt: true,
        query: { select: { externalId: true } },
        chunk: { select: { externalId: true } },
      },
    }),
    db.assignment.groupBy({
      by: ["poolItemId"],
      where: { poolItem: { projectId }, ...itemFilter },
      _count: { _all: true },
    }),
    db.judgement.findMany({
      where: { poolItem: { projectId }, ...itemFilter },
      select: {
        id: true,
        poolItemId: true,
        userId: true,
        grade: true,
        startSeconds: true,
        endSeconds: true,
        notes: true,
        flags: true,
        timeSpentMs: true,
        updatedAt: true,
      },
      orderBy: { id: "asc" },
    }),
    db.adjudication.findMany({
      where: { poolItem: { projectId }, ...itemFilter },
      select: {
        poolItemId: true,
        grade: true,
        startSeconds: true,
        endSeconds: true,
        rationale: true,
        createdAt: true,
        revision: true,
      },
    }),
  ]);
  const byId = new Map<string, TItemLabels>();
  for (const it of items) {
    byId.set(it.id, {
      id: it.id,
      queryId: it.queryId,
      chunkId: it.chunkId,
      qid: it.query.externalId,
      docid: it.chunk.externalId,
      assignments: 0,
      judgements: [],
      adjudication: null,
      disputed: it.disputedAt !== null,
    });
  }
  for (const a of assignments) {
    const it = byId.get(a.poolItemId);
    if (it) it.assignments = a._count._all;
  }
  for (const j of judgements) {
    byId.get(j.poolItemId)?.judgements.push({
      id: j.id,
      userId: j.userId,
      grade: j.grade,
      startSeconds: j.startSeconds,
      endSeconds: j.endSeconds,
      notes: j.notes,
      flags: parseFlags(j.flags),
      timeSpentMs: j.timeSpentMs,
      updatedAt: j.updatedAt,
    });
  }
  for (const a of adjudications) {
    const it = byId.get(a.poolItemId);
    if (it)
      it.adjudication = {
        grade: a.grade,
        startSeconds: a.startSeconds,
        endSeconds: a.endSeconds,
        rationale: a.rationale,
        decidedAt: a.createdAt,
        revision: a.revision,
      };
  }
  return [...byId.values()];
}
