import type { Db } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";
import { gradingClosedError } from "../projects/grading.ts";

/**
 * An annotator's merge or split of a claim while labelling (issue 24 item 2). Either writes a new
 * claim version — a copy of the current one with the change, every other claim keeping its text,
 * offsets and source, the changed ones with source "annotator" — bumps `Answer.claimVersion`, and
 * appends an AnswerEvent (`merge` | `split`) with the claim texts before and after, in one
 * transaction.
 *
 * - merge `positions: [i, i + 1]`: two neighbouring claims become one; when both have offsets the
 *   new claim is the answer's text from the first's start to the second's end, otherwise the two
 *   texts joined by a space (offsets null).
 * - split `position: i, at`: the claim is cut at `at` characters into its text (0 < at < length);
 *   both halves are trimmed and must keep a letter or digit; offsets follow the claim's own.
 *
 * `version` (optional): the claim version the annotator saw; another one is a conflict (someone
 * changed the claims meanwhile), as is a concurrent edit of the same answer. Permission (the
 * actor's assignment) is the caller's to check. Labels of older versions are left as they are:
 * each label names the claim version it was given on.
 */
export type TClaimEditOp = { kind: "merge"; positions: [number, number] } | { kind: "split"; position: number; at: number };
export type TClaimEdit = { answerId: string; actorId: string | null; op: TClaimEditOp; version?: number; idempotencyKey?: string };
export type TEditedClaim = { position: number; text: string; startChar: number | null; endChar: number | null; source: string };

type Claim = Omit<TEditedClaim, "position">;
const hasContent = (s: string) => /[\p{L}\p{N}]/u.test(s);

/** The claims after the change (pure), or an error message. */
export function applyClaimEdit(answerText: string, claims: readonly Claim[], op: TClaimEditOp): Claim[] | string {
  if (op.kind === "merge") {
    const [i, j] = op.positions;
    if (!Number.isInteger(i) || !Number.isInteger(j) || j !== i + 1) return `merge takes two neighbouring claims [i, i + 1], got [${i}, ${j}]`;
    if (i < 0 || j >= claims.length) return `merge [${i}, ${j}]: the answer has claims 0 to ${claims.length - 1}`;
    const a = claims[i];
    const b = claims[j];
    const spans = a.startChar !== null && a.endChar !== null && b.startChar !== null && b.endChar !== null && a.startChar <= b.startChar;
    const merged: Claim = spans
      ? { text: answerText.slice(a.startChar!, b.endChar!), startChar: a.startChar, endChar: b.endChar, source: "annotator" }
      : { text: `${a.text} ${b.text}`, startChar: null, endChar: null, source: "annotator" };
    return [...claims.slice(0, i), merged, ...claims.slice(j + 1)];
  }
  const { position: i, at } = op;
  if (!Number.isInteger(i) || i < 0 || i >= claims.length) return `split: no claim ${i} (the answer has claims 0 to ${claims.length - 1})`;
  const c = claims[i];
  if (!Number.isInteger(at) || at <= 0 || at >= c.text.length) return `split: cut claim ${i} at a character offset 1 to ${c.text.length - 1}, got ${at}`;
  const parts = [c.text.slice(0, at), c.text.slice(at)];
  if (!parts.every(hasContent)) return `split: both parts of claim ${i} must keep a letter or digit ("${parts[0].trim()}" | "${parts[1].trim()}")`;
  const pieces = parts.map((p, k) => {
    const lead = p.length - p.trimStart().length;
    const text = p.trim();
    const offset = k === 0 ? 0 : at;
    const start = c.startChar === null ? null : c.startChar + offset + lead;
    return { text, startChar: start, endChar: start === null ? null : start + text.length, source: "annotator" };
  });
  return [...claims.slice(0, i), ...pieces, ...claims.slice(i + 1)];
}

export async function editClaims(db: Db, edit: TClaimEdit): Promise<{ version: number; claims: TEditedClaim[] }> {
  if (edit.idempotencyKey) {
    const done = await db.answerEvent.findUnique({ where: { idempotencyKey: edit.idempotencyKey }, select: { answerId: true } });
    if (done) {
      if (done.answerId !== edit.answerId) throw new AppError("conflict", "this idempotency key was used for another answer");
      return currentClaims(db, edit.answerId);
    }
  }
  try {
    return await db.$transaction(async (tx) => {
      const answer = await tx.answer.findUnique({ where: { id: edit.answerId }, select: { id: true, projectId: true, text: true, claimVersion: true, project: { select: { gradingClosedAt: true } } } });
      if (!answer) throw new AppError("not_found", `no answer ${edit.answerId}`);
      // Closed by the lead: refused as a label is (lib/generation/submit.ts).
      if (answer.project.gradingClosedAt) throw gradingClosedError(answer.project.gradingClosedAt);
      if (edit.version !== undefined && edit.version !== answer.claimVersion)
        throw new AppError("conflict", `the claims changed meanwhile (version ${answer.claimVersion}, you saw ${edit.version}); reload the answer`, { version: answer.claimVersion });
      const current = await tx.answerClaim.findMany({ where: { answerId: answer.id, version: answer.claimVersion }, orderBy: { position: "asc" }, select: { text: true, startChar: true, endChar: true, source: true } });
      const next = applyClaimEdit(answer.text, current, edit.op);
      if (typeof next === "string") throw new AppError("bad_input", next);
      const last = await tx.answerClaim.aggregate({ where: { answerId: answer.id }, _max: { version: true } });
      const version = Math.max(answer.claimVersion, last._max.version ?? 0) + 1;
      // Compare-and-set on the version: a concurrent edit of the same answer loses here (or on the claims' unique key).
      const bumped = await tx.answer.updateMany({ where: { id: answer.id, claimVersion: answer.claimVersion }, data: { claimVersion: version } });
      if (bumped.count !== 1) throw new AppError("conflict", "the claims changed meanwhile; reload the answer");
      await tx.answerClaim.createMany({ data: next.map((c, position) => ({ answerId: answer.id, version, position, ...c })) });
      await tx.answerEvent.create({
        data: {
          projectId: answer.projectId,
          answerId: answer.id,
          actorId: edit.actorId,
          kind: edit.op.kind,
          before: JSON.stringify({ claimVersion: answer.claimVersion, claims: current.map((c) => c.text) }),
          after: JSON.stringify({ claimVersion: version, op: edit.op, claims: next.map((c) => c.text) }),
          idempotencyKey: edit.idempotencyKey ?? null,
        },
      });
      return { version, claims: next.map((c, position) => ({ position, ...c })) };
    });
  } catch (e) {
    if (isUniqueViolation(e)) {
      if (edit.idempotencyKey) {
        const done = await db.answerEvent.findUnique({ where: { idempotencyKey: edit.idempotencyKey }, select: { answerId: true } });
        if (done?.answerId === edit.answerId) return currentClaims(db, edit.answerId);
      }
      throw new AppError("conflict", "the claims changed meanwhile; reload the answer");
    }
    throw e;
  }
}

/** The claims in force of an answer. */
export async function currentClaims(db: Db, answerId: string): Promise<{ version: number; claims: TEditedClaim[] }> {
  const a = await db.answer.findUnique({ where: { id: answerId }, select: { claimVersion: true } });
  if (!a) throw new AppError("not_found", `no answer ${answerId}`);
  const claims = await db.answerClaim.findMany({ where: { answerId, version: a.claimVersion }, orderBy: { position: "asc" }, select: { position: true, text: true, startChar: true, endChar: true, source: true } });
  return { version: a.claimVersion, claims };
}
