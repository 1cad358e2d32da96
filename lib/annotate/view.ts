import "server-only";
import type { Db, Prisma } from "../db/client.ts";
import { videoSource, type TVideoSource } from "../media/source.ts";
import { annotatorQueuePage, openingProject, type TQueuePage } from "./queue.ts";
import { LATEST_GUIDELINES, shownGuidelines } from "../projects/guidelines.ts";

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
 * Assignment.orderKey (random, fixed per annotator); queries come in import order. The queue is
 * read a page at a time, per project, in lib/annotate/queue.ts (annotatorProjects,
 * annotatorQueuePage: direct SQL naming its columns, under the same rule — the user's own
 * assignments are part of every WHERE).
 */

export type TTranscriptSegment = { text: string; startSeconds: number; endSeconds: number };

/** The caller's own label; `endSeconds`: where they marked the answer's end (null: not marked). */
export type TOwnLabel = {
  grade: number;
  startSeconds: number | null;
  endSeconds: number | null;
  notes: string;
  flags: string[];
};

export type TAnnotatorItem = {
  id: string;
  question: string;
  chunk: TTranscriptSegment;
  before: TTranscriptSegment[];
  after: TTranscriptSegment[];
  /** The video transcript's cues that start inside the chunk (when the transcript was imported: Transcript.cues); their times set the start. */
  cues: TTranscriptSegment[];
  video: TVideoSource;
  own: TOwnLabel | null;
  /** The project's guidelines (Markdown, written by the lead), shown with the grade meanings (`g`). */
  guidelines: string;
  /** The revision of those guidelines (lib/projects/guidelines.ts; 0: none saved): the page sends it back with the grade. */
  guidelineRevision: number;
  /** The lead asked for a second look at this item of theirs after the guidelines changed: submitting it again counts, even unchanged. */
  regrade: boolean;
  /** When the lead closed grading in the project (ISO time; lib/projects/grading.ts): every item is then read-only. */
  gradingClosedAt: string | null;
};

/** The columns of the caller's own label (Judgement, or CheckJudgement for a hidden check item). */
const OWN_LABEL = { grade: true, startSeconds: true, endSeconds: true, notes: true, flags: true } as const;

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

/** What /annotate shows first: the page that opens and the item it starts at (the first not yet graded, else the first). */
export type TAnnotatorOpening = { page: TQueuePage; item: TAnnotatorItem | null };

/**
 * The first paint of /annotate, read with the page on the server (app/annotate/page.tsx), so the
 * first item needs no request after the HTML (the browser asked for the page, then the queue, then
 * the item). The same reads as the API's, under the same rule. Null when the project is not theirs
 * (the client then asks the API and shows its error).
 */
export async function annotatorOpening(
  db: Db,
  userId: string,
  projectId: number | null,
  limit: number,
): Promise<TAnnotatorOpening | null> {
  // As GET /api/annotate/queue without a cursor: in `projectId`, or in the server's pick.
  const id = projectId ?? (await openingProject(db, userId));
  const page =
    id === null
      ? { project: null, items: [], questions: [], hasBefore: false, hasAfter: false }
      : await annotatorQueuePage(db, userId, id, { limit });
  if (!page) return null;
  // All graded: no item (the page opens on its end card).
  const first = page.items.find((it) => !it.done);
  return { page, item: first ? await annotatorItem(db, userId, first.id) : null };
}

/**
 * A chunk as a segment with the NEIGHBOURS chunks on each side of it among `among` (the chunks of
 * its video in its chunking), each side in time order.
 */
export async function segmentInContext(
  db: Db,
  among: Prisma.ChunkWhereInput,
  chunk: TTranscriptSegment,
): Promise<{ chunk: TTranscriptSegment; before: TTranscriptSegment[]; after: TTranscriptSegment[] }> {
  const { startSeconds } = chunk;
  const segment = { text: true, startSeconds: true, endSeconds: true } as const;
  const [before, after] = await Promise.all([
    db.chunk.findMany({
      where: { ...among, startSeconds: { lt: startSeconds } },
      orderBy: { startSeconds: "desc" },
      take: NEIGHBOURS,
      select: segment,
    }),
    db.chunk.findMany({
      where: { ...among, startSeconds: { gt: startSeconds } },
      orderBy: { startSeconds: "asc" },
      take: NEIGHBOURS,
      select: segment,
    }),
  ]);
  return {
    chunk: { text: chunk.text, startSeconds: chunk.startSeconds, endSeconds: chunk.endSeconds },
    before: before.reverse(),
    after,
  };
}

/** One item with everything needed to grade it, or null when it is not assigned to this user. */
export async function annotatorItem(db: Db, userId: string, poolItemId: string): Promise<TAnnotatorItem | null> {
  const item = await db.poolItem.findFirst({
    where: { id: poolItemId, ...assignedTo(userId) },
    select: {
      id: true,
      project: { select: { ...LATEST_GUIDELINES, gradingClosedAt: true } },
      assignments: { where: { userId }, select: { regradeRequestedAt: true } },
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
      judgements: { where: { userId }, select: OWN_LABEL },
      // A hidden check item's grade (lib/labels/submit-check.ts): read the same way, shown the same way.
      checkJudgements: { where: { userId }, select: OWN_LABEL },
    },
  });
  if (!item) return null;
  const [content, transcript] = await Promise.all([
    segmentInContext(db, { videoId: item.chunk.videoId, chunkingId: item.chunk.chunkingId }, item.chunk),
    db.transcript.findUnique({ where: { videoId: item.chunk.videoId }, select: { cues: true } }),
  ]);
  const own = item.judgements[0] ?? item.checkJudgements[0];
  return {
    id: item.id,
    question: item.query.text,
    ...content,
    cues: transcript ? cuesWithin(transcript.cues, item.chunk.startSeconds, item.chunk.endSeconds) : [],
    video: videoSource(item.chunk.video),
    own: own
      ? {
          grade: own.grade,
          startSeconds: own.startSeconds,
          endSeconds: own.endSeconds,
          notes: own.notes,
          flags: parseFlags(own.flags),
        }
      : null,
    ...shownGuidelines(item.project),
    regrade: item.assignments.some((a) => a.regradeRequestedAt !== null),
    gradingClosedAt: item.project.gradingClosedAt?.toISOString() ?? null,
  };
}

/** The stored cues ([start, end, text, line] each: lib/imports/transcript.ts encodeCues) that start within [start, end). */
function cuesWithin(json: string, start: number, end: number): TTranscriptSegment[] {
  const cues = JSON.parse(json) as [number, number, string, number][];
  return cues.filter(([s]) => s >= start && s < end).map(([s, e, text]) => ({ text, startSeconds: s, endSeconds: e }));
}

/** Whether this user may watch this video: a lead or adjudicator always; an annotator when one of their items is on it. */
export async function mayWatch(
  db: Db,
  user: { id: string; role: string },
  videoId: number,
): Promise<{ path: string } | null> {
  // Annotators: videos of their assignments (pool items, and answers' context chunks: lib/answers/view.ts), and every video of a project where they may write questions.
  const where =
    user.role === "annotator"
      ? {
          id: videoId,
          OR: [
            { chunks: { some: { poolItems: { some: assignedTo(user.id) } } } },
            { chunks: { some: { answerContexts: { some: { answer: assignedTo(user.id) } } } } },
            { project: { annotatorsMayAuthor: true } },
          ],
        }
      : { id: videoId };
  const video = await db.video.findFirst({ where, select: { path: true } });
  return video?.path ? { path: video.path } : null;
}
