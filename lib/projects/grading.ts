import type { Db } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { sqlDate } from "../db/sql.ts";

/**
 * Closing grading ("final items shown read-only when revisited"). An item cannot
 * become final for its annotators on its own: "final" would mean the other annotators agreed or an
 * adjudicator decided, which an annotator must not learn (blindness). So finality is
 * the lead's act for the whole project at once: from `gradingClosedAt` on, every item of the project
 * is read-only for every annotator, whatever its state, and a grade sent after it (from an outbox,
 * say) is refused with the same words for every item. Adjudication goes on; the lead can reopen.
 */
export type TGradingState = { closedAt: string | null };

export async function setGradingClosed(
  db: Db,
  projectId: number,
  closed: boolean,
  now: Date = new Date(),
): Promise<TGradingState> {
  const p = await db.project.findUnique({ where: { id: projectId }, select: { gradingClosedAt: true } });
  if (!p) throw new AppError("not_found", `no project with id ${projectId}`);
  // Closing a closed project keeps the first time (what annotators were told); reopening clears it.
  const at = closed ? (p.gradingClosedAt ?? now) : null;
  await db.project.update({ where: { id: projectId }, data: { gradingClosedAt: at } });
  return { closedAt: at?.toISOString() ?? null };
}

/** The refusal of a grade in a closed project (the closing time as a Date, or as direct SQL read it): the same for every item (nothing about its state). */
export function gradingClosedError(closedAt: unknown): AppError {
  const when = sqlDate(closedAt)?.toISOString().slice(0, 16).replace("T", " ") ?? "earlier";
  return new AppError(
    "conflict",
    `grading in this project was closed by the lead (${when} UTC): no grade can be given or changed now (grades given before it stand)`,
  );
}

/**
 * Assigning in a project whose grading is closed would give annotators items they cannot grade:
 * refused, with the way out (reopening).
 */
export async function assertGradingOpen(db: Db, projectId: number): Promise<void> {
  const p = await db.project.findUnique({ where: { id: projectId }, select: { name: true, gradingClosedAt: true } });
  if (!p?.gradingClosedAt) return;
  throw new AppError(
    "conflict",
    `grading in project "${p.name}" is closed (since ${p.gradingClosedAt.toISOString()}): annotators could not grade new assignments; reopen it first (npx assessor project reopen-grading, or Reopen grading on the project page)`,
  );
}
