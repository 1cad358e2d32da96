import { diffLines } from "diff";
import type { Db } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";

/**
 * The project's guidelines, versioned. Every save that changes the text is a new
 * `GuidelineRevision` (1, 2, … per project) with its author and time; `Project.guidelines` is the
 * text of the highest revision, written in the same transaction (and only here), so the pages that
 * show the guidelines read one column. Revision 0 is "nothing saved yet" (empty text). Grades and
 * decisions record the revision the person was shown (`Judgement.guidelineRevision`,
 * `Adjudication.guidelineRevision`); one recorded under a lower revision than the current one was
 * made under older guidelines.
 */

export type TGuidelineRevisionSummary = {
  revision: number;
  createdAt: string;
  /** Who saved it; null for the text the project had when revisions began (the migration) or a save without a user. */
  author: { name: string; email: string } | null;
  chars: number;
};

export type TDiffPart = { kind: "same" | "added" | "removed"; text: string };
export type TGuidelinesDiff = { from: number; to: number; parts: TDiffPart[]; added: number; removed: number };

/** The project's current revision: the highest saved, 0 when none was. */
export async function currentGuidelineRevision(db: Db, projectId: number): Promise<number> {
  const top = await db.guidelineRevision.findFirst({
    where: { projectId },
    orderBy: { revision: "desc" },
    select: { revision: true },
  });
  return top?.revision ?? 0;
}

/**
 * Saves the guidelines as the next revision (author and time) and makes them the project's
 * current text. Saving the current text again writes nothing and returns the current revision
 * (`changed: false`). Two saves at the same moment: the second is a conflict (the unique
 * (projectId, revision) key), to be done again on the newer text.
 */
export async function saveGuidelines(
  db: Db,
  projectId: number,
  text: string,
  authorId: string | null,
): Promise<{ revision: number; changed: boolean }> {
  try {
    return await db.$transaction(async (tx) => {
      const project = await tx.project.findUnique({ where: { id: projectId }, select: { id: true } });
      if (!project) throw new AppError("not_found", `no project with id ${projectId}`);
      const top = await tx.guidelineRevision.findFirst({
        where: { projectId },
        orderBy: { revision: "desc" },
        select: { revision: true, text: true },
      });
      const current = top?.revision ?? 0;
      if ((top?.text ?? "") === text) return { revision: current, changed: false };
      const revision = current + 1;
      await tx.guidelineRevision.create({ data: { projectId, revision, text, authorId } });
      await tx.project.update({ where: { id: projectId }, data: { guidelines: text } });
      return { revision, changed: true };
    });
  } catch (e) {
    if (isUniqueViolation(e))
      throw new AppError(
        "conflict",
        "the guidelines were saved by someone else at the same moment: reload them and save again",
      );
    throw e;
  }
}

/** Every revision, newest first. */
export async function listGuidelineRevisions(db: Db, projectId: number): Promise<TGuidelineRevisionSummary[]> {
  const rows = await db.guidelineRevision.findMany({
    where: { projectId },
    orderBy: { revision: "desc" },
    select: { revision: true, createdAt: true, text: true, author: { select: { name: true, email: true } } },
  });
  return rows.map((r) => ({
    revision: r.revision,
    createdAt: r.createdAt.toISOString(),
    author: r.author,
    chars: r.text.length,
  }));
}

/** One revision's text (0: the empty text before the first save). */
export async function guidelineText(db: Db, projectId: number, revision: number): Promise<string> {
  if (revision === 0) return "";
  const row = await db.guidelineRevision.findUnique({
    where: { projectId_revision: { projectId, revision } },
    select: { text: true },
  });
  if (!row)
    throw new AppError("not_found", `the guidelines have no revision ${revision}`, [
      { path: "revision", message: `expected a saved revision (0 … current)` },
    ]);
  return row.text;
}

/** The line diff from revision `from` to revision `to` (jsdiff's `diffLines`), with the lines added and removed. */
export async function diffGuidelines(db: Db, projectId: number, from: number, to: number): Promise<TGuidelinesDiff> {
  const [a, b] = await Promise.all([guidelineText(db, projectId, from), guidelineText(db, projectId, to)]);
  const changes = diffLines(a, b);
  const parts: TDiffPart[] = changes.map((c) => ({
    kind: c.added ? "added" : c.removed ? "removed" : "same",
    text: c.value,
  }));
  const lines = (pick: (c: (typeof changes)[number]) => boolean) =>
    changes.filter(pick).reduce((n, c) => n + c.count, 0);
  return { from, to, parts, added: lines((c) => c.added), removed: lines((c) => c.removed) };
}

export type TOlderGuidelines = {
  current: number;
  /** Pool items with at least one grade recorded under a revision below the current one. */
  items: number;
  /** Those grades (one per annotator and item). */
  judgements: number;
  /** Of those grades, the ones already sent back for a second look and not yet re-submitted. */
  regradeRequested: number;
  /** Adjudications recorded under a revision below the current one. */
  adjudications: number;
  /** Grades that name no revision (a client that did not send one): not counted as older. */
  unrecorded: number;
};

/** How much of the project was graded under older guidelines (`assessor status`, the project page). */
export async function olderGuidelines(db: Db, projectId: number): Promise<TOlderGuidelines> {
  const current = await currentGuidelineRevision(db, projectId);
  const older = { poolItem: { projectId }, guidelineRevision: { lt: current } };
  const [olderJudgements, adjudications, unrecorded, regradeRequested] = await Promise.all([
    db.judgement.findMany({ where: older, select: { poolItemId: true } }),
    db.adjudication.count({ where: older }),
    db.judgement.count({ where: { poolItem: { projectId }, guidelineRevision: null } }),
    db.assignment.count({ where: { poolItem: { projectId }, regradeRequestedAt: { not: null } } }),
  ]);
  return {
    current,
    items: new Set(olderJudgements.map((j) => j.poolItemId)).size,
    judgements: olderJudgements.length,
    regradeRequested,
    adjudications,
    unrecorded,
  };
}

export type TOlderAnswerGuidelines = {
  current: number;
  /** Answers with at least one label recorded under a revision below the current one. */
  answers: number;
  /** Those labels (one per annotator and answer). */
  labels: number;
  /** Of those labels, the ones sent back for a second look and not yet re-submitted. */
  regradeRequested: number;
  /** Answer decisions recorded under a revision below the current one. */
  adjudications: number;
  /** Answer labels that name no revision (made before revisions were recorded, or by a client that sent none). */
  unrecorded: number;
};

/** The answers' counterpart of `olderGuidelines`: claim and relevance labels and decisions under older revisions. */
export async function olderAnswerGuidelines(db: Db, projectId: number): Promise<TOlderAnswerGuidelines> {
  const current = await currentGuidelineRevision(db, projectId);
  const older = { answer: { projectId }, guidelineRevision: { lt: current } };
  const [labels, adjudications, unrecorded, regradeRequested] = await Promise.all([
    db.answerJudgement.findMany({ where: older, select: { answerId: true } }),
    db.answerAdjudication.count({ where: older }),
    db.answerJudgement.count({ where: { answer: { projectId }, guidelineRevision: null } }),
    db.answerAssignment.count({ where: { answer: { projectId }, regradeRequestedAt: { not: null } } }),
  ]);
  return {
    current,
    answers: new Set(labels.map((j) => j.answerId)).size,
    labels: labels.length,
    regradeRequested,
    adjudications,
    unrecorded,
  };
}

/** A project select of its latest revision: with `shownGuidelines`, the text a page shows and its number read together. */
export const LATEST_GUIDELINES = {
  guidelines: true,
  guidelineRevisions: { orderBy: { revision: "desc" }, take: 1, select: { revision: true, text: true } },
} as const;

/** The text shown and its revision (0 and the project's text when none was saved). */
export function shownGuidelines(p: { guidelines: string; guidelineRevisions: { revision: number; text: string }[] }): {
  guidelines: string;
  guidelineRevision: number;
} {
  const top = p.guidelineRevisions[0];
  return top
    ? { guidelines: top.text, guidelineRevision: top.revision }
    : { guidelines: p.guidelines, guidelineRevision: 0 };
}

/** The message of a submission naming a revision the project does not have (a grade or a decision; nothing is written). */
export function unknownRevisionError(given: number, current: number): AppError {
  return new AppError(
    "bad_input",
    `guidelineRevision: expected the revision of the guidelines you were shown (0 … ${current}), got ${given}`,
    [{ path: "guidelineRevision", message: `expected 0 … ${current}` }],
  );
}
