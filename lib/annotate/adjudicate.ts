import "server-only";
import type { Db } from "../db/client.ts";
import {
  adjudicationQueue,
  lastDecision,
  waitingItems,
  type TQueueItem,
  type TQueueLabel,
  type TStandingDecision,
} from "../adjudication/queue.ts";
import { segmentInContext, videoSource, type TTranscriptSegment, type TVideoSource } from "./view.ts";
import { LATEST_GUIDELINES, shownGuidelines } from "../projects/guidelines.ts";

/**
 * The adjudicator's view of the disagreements of one project: the same item content an annotator
 * sees (question, chunk, neighbouring transcript, video) plus the annotators' labels as A and B
 * (grade, start, end, notes, flags; never names), from lib/adjudication/queue.ts.
 */
/** One annotator's label as the queue gives it (`history`: more than one grade, they edited it). */
export type TAdjudicatorLabel = TQueueLabel;
export type TAdjudicatorItem = {
  id: string;
  question: string;
  chunk: TTranscriptSegment;
  before: TTranscriptSegment[];
  after: TTranscriptSegment[];
  video: TVideoSource;
  labels: TAdjudicatorLabel[];
};
/**
 * A project in the adjudicator's picker: `pending` items wait for a decision; the guidelines (`g`)
 * and the start tolerance (the final start defaults to the annotators' mean when their starts are
 * within it) come with it.
 */
export type TAdjudicatorProject = {
  id: number;
  name: string;
  pending: number;
  guidelines: string;
  /** The revision of those guidelines (lib/projects/guidelines.ts): sent back with each decision. */
  guidelineRevision: number;
  startToleranceSeconds: number;
};

export async function adjudicatorProjects(db: Db): Promise<TAdjudicatorProject[]> {
  const projects = await db.project.findMany({
    select: { id: true, name: true, ...LATEST_GUIDELINES, startToleranceSeconds: true },
    orderBy: { name: "asc" },
  });
  const out: TAdjudicatorProject[] = [];
  // One project at a time: each count reads the project's labels (lib/labels/load.ts).
  for (const { guidelineRevisions, ...p } of projects)
    out.push({
      ...p,
      ...shownGuidelines({ guidelines: p.guidelines, guidelineRevisions }),
      pending: (await waitingItems(db, p.id)).length,
    });
  return out;
}

export async function adjudicatorQueue(db: Db, projectId: number): Promise<TAdjudicatorItem[]> {
  return Promise.all((await adjudicationQueue(db, projectId)).map((q) => adjudicatorItem(db, q)));
}

/** The caller's last decision in the project with its item (`u` on a later visit); null when none. */
export async function adjudicatorLastDecision(
  db: Db,
  projectId: number,
  adjudicatorId: string,
): Promise<(TAdjudicatorItem & { decision: TStandingDecision }) | null> {
  const last = await lastDecision(db, projectId, adjudicatorId);
  return last ? { ...(await adjudicatorItem(db, last)), decision: last.decision } : null;
}

async function adjudicatorItem(db: Db, q: TQueueItem): Promise<TAdjudicatorItem> {
  const content = await segmentInContext(
    db,
    { videoId: q.chunk.video.id, chunking: { chunks: { some: { id: q.chunk.id } } } },
    q.chunk,
  );
  return {
    id: q.poolItemId,
    question: q.query.text,
    ...content,
    video: videoSource(q.chunk.video),
    labels: q.labels.map((l) => ({
      label: l.label,
      grade: l.grade,
      startSeconds: l.startSeconds,
      endSeconds: l.endSeconds,
      notes: l.notes,
      flags: l.flags,
      history: l.history,
    })),
  };
}
