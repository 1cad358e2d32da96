import "server-only";
import type { Db } from "../db/client.ts";
import { videoSource, type TVideoSource } from "../media/source.ts";

export { videoSource, type TVideoSource };

/**
 * The annotator's view model: the ONLY place that reads data for annotators (pages and route
 * handlers under /annotate and /api/annotate go through it). Blindness lives here: every query
 * below names its fields explicitly (`select`), and none of them reaches runs, run entries, pool
 * provenance, ranks, scores, judge labels, reference labels, other users' judgements, or chunk and
 * query external ids. Access is part of the Prisma `where` (an assignment of this user), so an item
 * that is not theirs reads as "not found".
 *
 * Item ids are PoolItem ids: random UUIDs (prisma/schema.prisma), nothing about order, system or
 * rank can be read from them. Within a query, items come in the order of the annotator's own
 * Assignment.orderKey (random, fixed per annotator); queries come in import order.
 */

export type TTranscriptSegment = { text: string; startSeconds: number; endSeconds: number };

export type TOwnLabel = { grade: number; startSeconds: number | null; notes: string; flags: string[] };

export type TAnnotatorItem = {
  id: string;
  question: string;
  chunk: TTranscriptSegment;
  before: TTranscriptSegment[];
  after: TTranscriptSegment[];
  video: TVideoSource;
  own: TOwnLabel | null;
  /** The project's guidelines (Markdown, written by the lead), shown with the grade meanings (`g`). */
  guidelines: string;
};

export type TQueueItem = { id: string; done: boolean };
export type TQueueGroup = { key: string; project: string; question: string; done: number; total: number; items: TQueueItem[] };
export type TAnnotatorQueue = { done: number; total: number; groups: TQueueGroup[] };

/** Neighbouring transcript shown (collapsed) before and after the chunk. */
export const NEIGHBOURS = 2;

/** Everything an annotator may read goes through this filter: their own assignments. */
const assignedTo = (userId: string) => ({ assignments: { some: { userId } } });

export function parseFlags(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((f): f is string => typeof f === "string") : [];
  } catch {
    return [];
  }
}

/** The annotator's queue: every assigned item, grouped by query, with done/total per query and overall. */
export async function annotatorQueue(db: Db, userId: string): Promise<TAnnotatorQueue> {
  const rows = await db.assignment.findMany({
    where: { userId },
    select: {
      orderKey: true,
      poolItem: {
        select: {
          id: true,
          projectId: true,
          queryId: true,
          project: { select: { name: true } },
          query: { select: { text: true } },
          judgements: { where: { userId }, select: { grade: true } },
        },
      },
    },
  });
  rows.sort((a, b) => a.poolItem.projectId - b.poolItem.projectId || a.poolItem.queryId - b.poolItem.queryId || a.orderKey - b.orderKey);
  const groups: TQueueGroup[] = [];
  let current: TQueueGroup | undefined;
  let currentKey = "";
  for (const row of rows) {
    const p = row.poolItem;
    const key = `${p.projectId}:${p.queryId}`;
    if (!current || key !== currentKey) {
      current = { key: `g${groups.length + 1}`, project: p.project.name, question: p.query.text, done: 0, total: 0, items: [] };
      currentKey = key;
      groups.push(current);
    }
    const done = p.judgements.length > 0;
    current.items.push({ id: p.id, done });
    current.total += 1;
    if (done) current.done += 1;
  }
  return { done: groups.reduce((s, g) => s + g.done, 0), total: rows.length, groups };
}

/** One item with everything needed to grade it, or null when it is not assigned to this user. */
export async function annotatorItem(db: Db, userId: string, poolItemId: string): Promise<TAnnotatorItem | null> {
  const item = await db.poolItem.findFirst({
    where: { id: poolItemId, ...assignedTo(userId) },
    select: {
      id: true,
      project: { select: { guidelines: true } },
      query: { select: { text: true } },
      chunk: {
        select: {
          videoId: true,
          chunkingId: true,
          startSeconds: true,
          endSeconds: true,
          text: true,
          video: { select: { id: true, url: true, path: true, title: true, durationSeconds: true } },
        },
      },
      judgements: { where: { userId }, select: { grade: true, startSeconds: true, notes: true, flags: true } },
    },
  });
  if (!item) return null;
  const segment = { text: true, startSeconds: true, endSeconds: true } as const;
  const [before, after] = await Promise.all([
    db.chunk.findMany({ where: { videoId: item.chunk.videoId, chunkingId: item.chunk.chunkingId, startSeconds: { lt: item.chunk.startSeconds } }, orderBy: { startSeconds: "desc" }, take: NEIGHBOURS, select: segment }),
    db.chunk.findMany({ where: { videoId: item.chunk.videoId, chunkingId: item.chunk.chunkingId, startSeconds: { gt: item.chunk.startSeconds } }, orderBy: { startSeconds: "asc" }, take: NEIGHBOURS, select: segment }),
  ]);
  const own = item.judgements[0];
  return {
    id: item.id,
    question: item.query.text,
    chunk: { text: item.chunk.text, startSeconds: item.chunk.startSeconds, endSeconds: item.chunk.endSeconds },
    before: before.reverse(),
    after,
    video: videoSource(item.chunk.video),
    own: own ? { grade: own.grade, startSeconds: own.startSeconds, notes: own.notes, flags: parseFlags(own.flags) } : null,
    guidelines: item.project.guidelines,
  };
}

/** Whether this user may watch this video: a lead or adjudicator always; an annotator when one of their items is on it. */
export async function mayWatch(db: Db, user: { id: string; role: string }, videoId: number): Promise<{ path: string } | null> {
  // Annotators: videos of their assignments, and every video of a project where they may write questions (issue 23).
  const where = user.role === "annotator" ? { id: videoId, OR: [{ chunks: { some: { poolItems: { some: assignedTo(user.id) } } } }, { project: { annotatorsMayAuthor: true } }] } : { id: videoId };
  const video = await db.video.findFirst({ where, select: { path: true } });
  return video?.path ? { path: video.path } : null;
}
