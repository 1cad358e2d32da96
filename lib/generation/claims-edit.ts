import type { Db } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";

export type TClaimEditOp = { kind: "merge"; positions: [number, number] } | { kind: "split"; position: number; at: number };
export type TClaimEditResult = { version: number; claims: { position: number; text: string }[] };

type TClaim = { position: number; text: string; startChar: number | null; endChar: number | null; source: string };

/**
 * An annotator's merge or split of a claim while labelling (issue 24 item 2). The answer's claim set
 * in force (Answer.claimVersion) is copied into a new version with the edit applied: `merge` joins
 * claims i and i + 1 (adjacent, in that order) into one, `split` cuts claim i at character `at` of
 * its text into two (both parts non-empty after trimming). The new claims' source is "annotator";
 * character offsets follow the edit where the old ones were known. Answer.claimVersion moves to the
 * new version and an AnswerEvent (kind "merge" / "split", before and after: the claim lists) keeps
 * it in the history. Labels already given stay on the version they were given on. Two edits at the
 * same time: one wins, the other is a conflict (edit again on the new claims).
 */
export async function editClaims(db: Db, args: { answerId: string; actorId: string; op: TClaimEditOp }): Promise<TClaimEditResult> {
  const { answerId, actorId, op } = args;
  const answer = await db.answer.findUnique({ where: { id: answerId }, select: { projectId: true, claimVersion: true } });
  if (!answer) throw new AppError("not_found", `no answer ${answerId}`);
  const from = answer.claimVersion;
  const claims: TClaim[] = await db.answerClaim.findMany({ where: { answerId, version: from }, orderBy: { position: "asc" }, select: { position: true, text: true, startChar: true, endChar: true, source: true } });
  const next = applyEdit(claims, op);
  const version = from + 1;
  try {
    await db.$transaction(async (tx) => {
      const moved = await tx.answer.updateMany({ where: { id: answerId, claimVersion: from }, data: { claimVersion: version } });
      if (moved.count !== 1) throw new AppError("conflict", "the claims were edited at the same time: edit again on the new claims");
      await tx.answerClaim.createMany({ data: next.map((c, position) => ({ answerId, version, position, text: c.text, startChar: c.startChar, endChar: c.endChar, source: c.source })) });
      await tx.answerEvent.create({
        data: {
          projectId: answer.projectId,
          answerId,
          actorId,
          kind: op.kind,
          before: JSON.stringify({ version: from, claims: claims.map((c) => c.text) }),
          after: JSON.stringify({ version, op, claims: next.map((c) => c.text) }),
        },
      });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("conflict", "the claims were edited at the same time: edit again on the new claims");
    throw e;
  }
  return { version, claims: next.map((c, position) => ({ position, text: c.text })) };
}

/** The claim list after the edit (pure; positions renumbered by the caller). Input errors name the field. */
export function applyEdit(claims: readonly TClaim[], op: TClaimEditOp): TClaim[] {
  const n = claims.length;
  if (op.kind === "merge") {
    const [i, j] = op.positions;
    if (!Number.isInteger(i) || j !== i + 1 || i < 0 || j >= n) throw new AppError("bad_input", `op.positions: expected two adjacent claims [i, i + 1] of the ${n} claim(s), got [${i}, ${j}]`);
    const a = claims[i];
    const b = claims[j];
    const merged: TClaim = {
      position: i,
      text: `${a.text.trimEnd()} ${b.text.trimStart()}`,
      startChar: a.startChar !== null && b.endChar !== null ? a.startChar : null,
      endChar: a.startChar !== null && b.endChar !== null ? b.endChar : null,
      source: "annotator",
    };
    return [...claims.slice(0, i), merged, ...claims.slice(j + 1)];
  }
  const { position: i, at } = op;
  if (!Number.isInteger(i) || i < 0 || i >= n) throw new AppError("bad_input", `op.position: expected a claim 0–${n - 1}, got ${i}`);
  const c = claims[i];
  const left = c.text.slice(0, at);
  const right = c.text.slice(at);
  if (!Number.isInteger(at) || at <= 0 || at >= c.text.length || left.trim() === "" || right.trim() === "") {
    throw new AppError("bad_input", `op.at: expected a character position inside claim ${i} leaving text on both sides (1–${c.text.length - 1}), got ${at}`);
  }
  // Offsets in the answer text: the parts without the whitespace around the cut.
  const lead = left.length - left.trimEnd().length;
  const trail = right.length - right.trimStart().length;
  const known = c.startChar !== null && c.endChar !== null;
  const first: TClaim = { position: i, text: left.trimEnd(), startChar: known ? c.startChar : null, endChar: known ? c.startChar! + at - lead : null, source: "annotator" };
  const second: TClaim = { position: i + 1, text: right.trimStart(), startChar: known ? c.startChar! + at + trail : null, endChar: known ? c.endChar : null, source: "annotator" };
  return [...claims.slice(0, i), first, second, ...claims.slice(i + 1)];
}
