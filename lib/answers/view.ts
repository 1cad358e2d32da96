import "server-only";
import type { Db } from "../db/client.ts";
import { parseFlags } from "../labels/load.ts";
import { LATEST_GUIDELINES, shownGuidelines } from "../projects/guidelines.ts";
import { parseClaimLabels, type TClaimLabel } from "./labels.ts";
import { ownClaimVersion } from "./claims-edit.ts";
import { CONTEXT_READ, contextView, LABEL_FIELDS, type TAnswerContextView } from "./context.ts";

export type { TAnswerContextView };

/**
 * The annotator's view of answer tasks: the ONLY place that reads answers for
 * annotators (the /api/annotate/answers routes go through it). Blind as lib/annotate/view.ts:
 * every query names its fields, access is part of the `where` (an AnswerAssignment of this user,
 * so anything else reads as not found), and nothing reaches the answer's system, its citations or
 * content hash, other annotators' labels, the adjudication, judge labels, or chunk and question
 * external ids. Answer ids are random UUIDs. The queue is in the annotator's own random
 * AnswerAssignment.orderKey (then answer id).
 */

export type TAnswerClaimView = { position: number; text: string };
export type TAnswerOwnLabel = {
  claimVersion: number;
  claimLabels: TClaimLabel[];
  relevance: number;
  notes: string;
  flags: string[];
};
export type TAnnotatorAnswer = {
  id: string;
  question: string;
  answer: string;
  /** The claim set shown (`ownClaimVersion`): the annotator's latest private edit, else their label's set, else the shared one. Never moved by a peer. */
  claimVersion: number;
  claims: TAnswerClaimView[];
  /** The chunks given to the model, in order. */
  context: TAnswerContextView[];
  own: TAnswerOwnLabel | null;
  /** Their own label was sent back for a second look (the guidelines changed): open until they submit it. */
  regrade: boolean;
  /** "answer index of total" in this annotator's queue of the project. */
  position: { index: number; total: number };
  guidelines: string;
  /** The revision of `guidelines` (0 when none was saved), sent back with the label. */
  guidelineRevision: number;
  /** When the lead closed grading in the project (lib/projects/grading.ts): the answer is then read-only. */
  gradingClosedAt: string | null;
};
export type TAnswerQueueItem = { id: string; done: boolean; index: number };
export type TAnswerQueuePage = {
  project: { id: number; name: string } | null;
  total: number;
  done: number;
  items: TAnswerQueueItem[];
  hasAfter: boolean;
};
export type TAnswerProject = { id: number; name: string; done: number; total: number };

export const ANSWER_PAGE = 50;

const mine = (userId: string) => ({ assignments: { some: { userId } } });
/** Their answers not sent back for a second look (lib/assignment/regrade.ts): a label there counts as done. */
const settled = (userId: string) => ({ assignments: { some: { userId, regradeRequestedAt: null } } });

/** The projects where the annotator has answers to label, with counts (their own labels over their own assignments). */
export async function answerProjects(db: Db, userId: string): Promise<TAnswerProject[]> {
  const [assigned, done] = await Promise.all([
    db.answerAssignment.findMany({ where: { userId }, select: { answer: { select: { projectId: true } } } }),
    db.answerJudgement.findMany({
      where: { userId, answer: settled(userId) },
      select: { answer: { select: { projectId: true } } },
    }),
  ]);
  const total = new Map<number, number>();
  for (const a of assigned) total.set(a.answer.projectId, (total.get(a.answer.projectId) ?? 0) + 1);
  const doneBy = new Map<number, number>();
  for (const j of done) doneBy.set(j.answer.projectId, (doneBy.get(j.answer.projectId) ?? 0) + 1);
  const projects = await db.project.findMany({
    where: { id: { in: [...total.keys()] } },
    select: { id: true, name: true },
    orderBy: { id: "asc" },
  });
  return projects.map((p) => ({ id: p.id, name: p.name, done: doneBy.get(p.id) ?? 0, total: total.get(p.id) ?? 0 }));
}

/**
 * One page of the annotator's answer queue in a project: `after` an answer id of theirs (null: from
 * the start), up to `limit` answers in their order. Null when the cursor is not theirs.
 */
export async function answerQueuePage(
  db: Db,
  userId: string,
  projectId: number,
  opts: { after?: string; limit?: number } = {},
): Promise<TAnswerQueuePage | null> {
  const limit = Math.max(1, Math.min(200, Math.floor(opts.limit ?? ANSWER_PAGE)));
  const project = await db.project.findUnique({ where: { id: projectId }, select: { id: true, name: true } });
  if (!project) return null;
  const where = { userId, answer: { projectId } };
  let from: { orderKey: number; answerId: string } | null = null;
  if (opts.after !== undefined) {
    const a = await db.answerAssignment.findFirst({
      where: { ...where, answerId: opts.after },
      select: { orderKey: true, answerId: true },
    });
    if (!a) return null;
    from = a;
  }
  const [rows, total, done] = await Promise.all([
    db.answerAssignment.findMany({
      where: from
        ? {
            ...where,
            OR: [{ orderKey: { gt: from.orderKey } }, { orderKey: from.orderKey, answerId: { gt: from.answerId } }],
          }
        : where,
      orderBy: [{ orderKey: "asc" }, { answerId: "asc" }],
      take: limit + 1,
      select: {
        answerId: true,
        regradeRequestedAt: true,
        answer: { select: { judgements: { where: { userId }, select: { id: true } } } },
      },
    }),
    db.answerAssignment.count({ where }),
    db.answerJudgement.count({ where: { userId, answer: { projectId, ...settled(userId) } } }),
  ]);
  const before = from
    ? await db.answerAssignment.count({
        where: {
          ...where,
          OR: [{ orderKey: { lt: from.orderKey } }, { orderKey: from.orderKey, answerId: { lte: from.answerId } }],
        },
      })
    : 0;
  const page = rows.slice(0, limit);
  return {
    project: total > 0 ? project : null,
    total,
    done,
    items: page.map((r, i) => ({
      id: r.answerId,
      done: r.answer.judgements.length > 0 && r.regradeRequestedAt === null,
      index: before + i + 1,
    })),
    hasAfter: rows.length > limit,
  };
}

/** One assigned answer with everything needed to label it, or null when it is not assigned to this user. */
export async function annotatorAnswer(db: Db, userId: string, answerId: string): Promise<TAnnotatorAnswer | null> {
  const a = await db.answer.findFirst({
    where: { id: answerId, ...mine(userId) },
    select: {
      id: true,
      projectId: true,
      text: true,
      claimVersion: true,
      project: { select: { ...LATEST_GUIDELINES, gradingClosedAt: true } },
      query: { select: { text: true } },
      context: CONTEXT_READ,
      judgements: {
        where: { userId },
        select: LABEL_FIELDS,
      },
      assignments: { where: { userId }, select: { orderKey: true, regradeRequestedAt: true } },
    },
  });
  if (!a) return null;
  const own = a.judgements[0];
  // Their own claim set: the shared one, their label's, or their latest private edit (lib/answers/claims-edit.ts).
  const version = (await ownClaimVersion(db, answerId, userId)) ?? a.claimVersion;
  const key = a.assignments[0].orderKey;
  const where = { userId, answer: { projectId: a.projectId } };
  const [claims, total, index] = await Promise.all([
    db.answerClaim.findMany({
      where: { answerId, version },
      orderBy: { position: "asc" },
      select: { position: true, text: true },
    }),
    db.answerAssignment.count({ where }),
    db.answerAssignment.count({
      where: { ...where, OR: [{ orderKey: { lt: key } }, { orderKey: key, answerId: { lte: answerId } }] },
    }),
  ]);
  return {
    id: a.id,
    question: a.query.text,
    answer: a.text,
    claimVersion: version,
    claims,
    context: contextView(a.context),
    regrade: a.assignments[0].regradeRequestedAt !== null,
    own: own
      ? {
          claimVersion: own.claimVersion,
          claimLabels: parseClaimLabels(own.claimLabels),
          relevance: own.relevance,
          notes: own.notes,
          flags: parseFlags(own.flags),
        }
      : null,
    position: { index, total },
    // The latest revision's text and its number, which the label records (lib/projects/guidelines.ts).
    ...shownGuidelines(a.project),
    gradingClosedAt: a.project.gradingClosedAt?.toISOString() ?? null,
  };
}
