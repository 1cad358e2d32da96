import type { Db } from "../db/client.ts";
import { loadItemLabels, ruleSettings, type TItemLabels } from "../labels/load.ts";
import { itemDecision } from "../labels/rule.ts";

/** One annotator's label; `history`: the grades they submitted for the item, oldest first (the last is `grade`). */
export type TQueueLabel = {
  label: string;
  grade: number;
  startSeconds: number | null;
  /** Where the annotator marked the answer's end (the answer-end key); null when they did not. */
  endSeconds: number | null;
  notes: string;
  flags: string[];
  history: number[];
};
export type TQueueItem = {
  poolItemId: string;
  query: { id: number; externalId: string; text: string };
  chunk: {
    id: number;
    externalId: string;
    startSeconds: number;
    endSeconds: number;
    text: string;
    video: {
      id: number;
      externalId: string;
      title: string;
      url: string | null;
      path: string | null;
      durationSeconds: number | null;
    };
  };
  /** The annotators' labels as A, B, … in the order they were first submitted; never names. */
  labels: TQueueLabel[];
};

const letter = (i: number) => String.fromCharCode(65 + i);

/**
 * Items waiting for an adjudicator: every annotator graded them and they disagree under the
 * project's rule, or disagreed at some point (disputed: they stay here even when later edits
 * agree, lib/labels/rule.ts), and nobody has decided them yet. Each label carries the grades its
 * annotator submitted, oldest first, so the adjudicator sees an edit made after the disagreement. Ordered by query (external id), then item id (random, so
 * no system or rank order leaks through).
 */
export async function adjudicationQueue(db: Db, projectId: number): Promise<TQueueItem[]> {
  const waiting = await waitingItems(db, projectId);
  return (await queueItems(db, waiting)).sort((a, b) =>
    a.query.externalId !== b.query.externalId
      ? a.query.externalId < b.query.externalId
        ? -1
        : 1
      : a.poolItemId < b.poolItemId
        ? -1
        : 1,
  );
}

/** Items with their question, chunk, video and the annotators' labels as A, B, … (in the order of `items`). */
async function queueItems(db: Db, items: TItemLabels[]): Promise<TQueueItem[]> {
  if (items.length === 0) return [];
  const history = await gradeHistory(
    db,
    items.map((w) => w.id),
  );
  const details = await db.poolItem.findMany({
    where: { id: { in: items.map((w) => w.id) } },
    select: {
      id: true,
      query: { select: { id: true, externalId: true, text: true } },
      chunk: {
        select: {
          id: true,
          externalId: true,
          startSeconds: true,
          endSeconds: true,
          text: true,
          video: { select: { id: true, externalId: true, title: true, url: true, path: true, durationSeconds: true } },
        },
      },
    },
  });
  const byId = new Map(details.map((d) => [d.id, d]));
  return items.flatMap((w) => {
    const d = byId.get(w.id);
    if (!d) return [];
    return [
      {
        poolItemId: w.id,
        query: d.query,
        chunk: d.chunk,
        labels: w.judgements.map((j, i) => ({
          label: letter(i),
          grade: j.grade,
          startSeconds: j.startSeconds,
          endSeconds: j.endSeconds,
          notes: j.notes,
          flags: j.flags,
          history: history.get(`${w.id}:${j.userId}`) ?? [j.grade],
        })),
      },
    ];
  });
}

/** A decision that stands: what `u` puts back in the adjudicator's form as a revision. */
export type TStandingDecision = {
  grade: number;
  startSeconds: number | null;
  endSeconds: number | null;
  rationale: string;
  revision: number;
};

/**
 * The adjudicator's most recent decision in the project that still stands on an item (`u` reopens the last decision, also on a later visit), with the item as the queue shows it;
 * null when they decided nothing here. "Most recent" is their latest adjudication event (first
 * decision or revision) by time, then id.
 */
export async function lastDecision(
  db: Db,
  projectId: number,
  adjudicatorId: string,
): Promise<(TQueueItem & { decision: TStandingDecision }) | null> {
  const event = await db.labelEvent.findFirst({
    where: { projectId, actorId: adjudicatorId, kind: "adjudication", poolItemId: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { poolItemId: true },
  });
  if (!event?.poolItemId) return null;
  const [labels] = await loadItemLabels(db, projectId, { poolItemIds: [event.poolItemId] });
  if (!labels?.adjudication) return null;
  const [item] = await queueItems(db, [labels]);
  const { grade, startSeconds, endSeconds, rationale, revision } = labels.adjudication;
  return item ? { ...item, decision: { grade, startSeconds, endSeconds, rationale, revision } } : null;
}

/** The project's items waiting for a decision (the queue's items, without their content). */
export async function waitingItems(db: Db, projectId: number): Promise<TItemLabels[]> {
  const [settings, items] = await Promise.all([ruleSettings(db, projectId), loadItemLabels(db, projectId)]);
  return items.filter(
    (it) => it.adjudication === null && itemDecision(it.judgements, settings, it.disputed).state === "disagreed",
  );
}

/** Per "poolItemId:userId", the grades of the annotator's judgement events, oldest first (LabelEvent history). */
export async function gradeHistory(db: Db, poolItemIds: string[]): Promise<Map<string, number[]>> {
  const events = await db.labelEvent.findMany({
    where: { poolItemId: { in: poolItemIds }, kind: "judgement" },
    select: { poolItemId: true, actorId: true, after: true },
    orderBy: { id: "asc" },
  });
  const out = new Map<string, number[]>();
  for (const e of events) {
    const grade = (JSON.parse(e.after) as { grade?: unknown }).grade;
    if (typeof grade !== "number") continue;
    const key = `${e.poolItemId}:${e.actorId}`;
    const list = out.get(key);
    if (list) list.push(grade);
    else out.set(key, [grade]);
  }
  return out;
}
