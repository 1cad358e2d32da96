import type { Db } from "../db/client.ts";
import { sqlDate } from "../db/dialect.ts";
import { num, numOrNull, typedRows } from "../db/read.ts";
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
 * adjudication queue. Typed statements on the dashboard's read path (lib/db/read.ts
 * typedRows): a project's 100,000s of judgements come back as plain rows, not Prisma objects.
 * With `poolItemIds`, only those items; with `notAccepted`, only the items of questions that are
 * not accepted (drafts, rejected: the ones the dashboard's data leaves out, which the Annotators
 * card reads apart, lib/annotators/items.ts).
 */
export async function loadItemLabels(
  db: Db,
  projectId: number,
  where: { poolItemIds?: string[]; notAccepted?: boolean } = {},
): Promise<TItemLabels[]> {
  const ids = where.poolItemIds;
  const notAccepted = where.notAccepted === true;
  if (ids && ids.length === 0) return [];
  // Two statements: the items with their assignment count and adjudication (one row each), and
  // the judgements. The judgements are not sorted by the database (a sort of every row); each
  // item's few are put in id order here.
  const [items, judgements] = await Promise.all([
    typedRows(db, (k) =>
      k
        .selectFrom("PoolItem as i")
        .innerJoin("Query as q", "q.id", "i.queryId")
        .innerJoin("Chunk as c", "c.id", "i.chunkId")
        .leftJoin("Adjudication as d", "d.poolItemId", "i.id")
        .select((eb) => [
          "i.id",
          "i.queryId",
          "i.chunkId",
          "i.disputedAt",
          "q.externalId as qid",
          "c.externalId as docid",
          eb
            .selectFrom("Assignment as a")
            .whereRef("a.poolItemId", "=", "i.id")
            .select((e) => e.fn.countAll().as("n"))
            .as("assignments"),
          "d.poolItemId as adjudicated",
          "d.grade",
          "d.startSeconds",
          "d.endSeconds",
          "d.rationale",
          "d.createdAt",
          "d.revision",
        ])
        .where("i.projectId", "=", projectId)
        .$if(ids !== undefined, (q) => q.where("i.id", "in", ids ?? []))
        .$if(notAccepted, (q) => q.where("q.status", "!=", "accepted")),
    ),
    typedRows(db, (k) =>
      k
        .selectFrom("Judgement as j")
        .innerJoin("PoolItem as i", "i.id", "j.poolItemId")
        .select([
          "j.id",
          "j.poolItemId",
          "j.userId",
          "j.grade",
          "j.startSeconds",
          "j.endSeconds",
          "j.notes",
          "j.flags",
          "j.timeSpentMs",
          "j.updatedAt",
        ])
        .where("i.projectId", "=", projectId)
        .$if(ids !== undefined, (q) => q.where("i.id", "in", ids ?? []))
        .$if(notAccepted, (q) =>
          q.where("i.queryId", "in", (k2) =>
            k2
              .selectFrom("Query as q")
              .select("q.id")
              .where("q.projectId", "=", projectId)
              .where("q.status", "!=", "accepted"),
          ),
        ),
    ),
  ]);
  const byId = new Map<string, TItemLabels>();
  for (const it of items) {
    byId.set(it.id, {
      id: it.id,
      queryId: num(it.queryId),
      chunkId: num(it.chunkId),
      qid: it.qid,
      docid: it.docid,
      assignments: num(it.assignments ?? 0),
      judgements: [],
      adjudication:
        it.adjudicated === null
          ? null
          : {
              grade: num(it.grade),
              startSeconds: numOrNull(it.startSeconds),
              endSeconds: numOrNull(it.endSeconds),
              rationale: it.rationale ?? "",
              decidedAt: storedDate(it.createdAt ?? ""),
              revision: num(it.revision),
            },
      disputed: it.disputedAt !== null,
    });
  }
  for (const j of judgements) {
    byId.get(j.poolItemId)?.judgements.push({
      id: num(j.id),
      userId: j.userId,
      grade: num(j.grade),
      startSeconds: numOrNull(j.startSeconds),
      endSeconds: numOrNull(j.endSeconds),
      notes: j.notes,
      flags: parseFlags(j.flags),
      timeSpentMs: numOrNull(j.timeSpentMs),
      updatedAt: storedDate(j.updatedAt),
    });
  }
  for (const it of byId.values()) if (it.judgements.length > 1) it.judgements.sort((x, y) => x.id - y.id);
  return [...byId.values()];
}

/** A non-null DateTime column as direct SQL returns it (dialect.ts sqlDate), as a Date. */
function storedDate(v: Date | string): Date {
  const d = sqlDate(v);
  if (!d) throw new Error(`not a stored date: ${String(v)}`);
  return d;
}
