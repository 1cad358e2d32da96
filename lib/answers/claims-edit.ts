import { randomInt } from "node:crypto";
import { INT32_MAX } from "../bounds.ts";
import type { Db } from "../db/client.ts";
import { AppError, isUniqueViolation } from "../errors.ts";
import { gradingClosedError } from "../projects/grading.ts";
import { MAX_CLAIMS } from "./claims.ts";

/**
 * An annotator's merge or split of a claim while labelling (blind: an edit shows in no field of
 * anything another annotator reads). An edit is the annotator's OWN: it writes a private claim set — a copy of the set they
 * see with the change, every other claim keeping its text, offsets and source, the changed ones
 * with source "annotator" — and an AnswerEvent (`merge` | `split`, actor the annotator) with the
 * claim texts before and after, in one transaction. `Answer.claimVersion` (the shared set: the
 * import's split or the lead's re-split) does not move, so no other annotator's view, queue or
 * answer changes: a peer cannot tell that anyone edited.
 *
 * A private set's version is a random number in [PRIVATE_VERSION_MIN, INT32_MAX] (an identifier,
 * not a count: a sequential number would tell an annotator how many sets others made). Labels name
 * the version they were given on, so two annotators label the same shared set unless one of them
 * edits; then their labels are on different sets, which the rule (`decideAnswer`) counts as a
 * disagreement for the adjudicator, who sees each label with its own claim set.
 *
 * - merge `positions: [i, i + 1]`: two neighbouring claims become one; when both have offsets the
 *   new claim is the answer's text from the first's start to the second's end, otherwise the two
 *   texts joined by a space (offsets null).
 * - split `position: i, at`: the claim is cut at `at` characters into its text (0 < at < length);
 *   both halves are trimmed and must keep a letter or digit; offsets follow the claim's own; at
 *   most MAX_CLAIMS claims (the label limit).
 *
 * `version`: the claim set the annotator saw (`ownClaimVersion`); another one is a conflict (their
 * own edit in another tab, or a lead's re-split) that changes nothing. `idempotencyKey`: a retry
 * returns what the first request wrote, once. Refused (not_found) unless the answer is assigned to
 * the actor; refused while grading is closed.
 */
export type TClaimEditOp =
  { kind: "merge"; positions: [number, number] } | { kind: "split"; position: number; at: number };
export type TClaimEdit = {
  answerId: string;
  actorId: string;
  op: TClaimEditOp;
  version: number;
  idempotencyKey: string;
};
export type TEditedClaim = {
  position: number;
  text: string;
  startChar: number | null;
  endChar: number | null;
  source: string;
};

type Claim = Omit<TEditedClaim, "position">;
const hasContent = (s: string) => /[\p{L}\p{N}]/u.test(s);

/** The claims after the change (pure), or an error message. */
export function applyClaimEdit(answerText: string, claims: readonly Claim[], op: TClaimEditOp): Claim[] | string {
  if (op.kind === "merge") {
    const [i, j] = op.positions;
    if (!Number.isInteger(i) || !Number.isInteger(j) || j !== i + 1)
      return `merge takes two neighbouring claims [i, i + 1], got [${i}, ${j}]`;
    if (i < 0 || j >= claims.length) return `merge [${i}, ${j}]: the answer has claims 0 to ${claims.length - 1}`;
    const a = claims[i];
    const b = claims[j];
    const spans =
      a.startChar !== null &&
      a.endChar !== null &&
      b.startChar !== null &&
      b.endChar !== null &&
      a.startChar <= b.startChar;
    const merged: Claim = spans
      ? {
          text: answerText.slice(a.startChar!, b.endChar!),
          startChar: a.startChar,
          endChar: b.endChar,
          source: "annotator",
        }
      : { text: `${a.text} ${b.text}`, startChar: null, endChar: null, source: "annotator" };
    return [...claims.slice(0, i), merged, ...claims.slice(j + 1)];
  }
  const { position: i, at } = op;
  if (!Number.isInteger(i) || i < 0 || i >= claims.length)
    return `split: no claim ${i} (the answer has claims 0 to ${claims.length - 1})`;
  const c = claims[i];
  if (!Number.isInteger(at) || at <= 0 || at >= c.text.length)
    return `split: cut claim ${i} at a character offset 1 to ${c.text.length - 1}, got ${at}`;
  if (claims.length >= MAX_CLAIMS)
    return `split: the answer already has ${claims.length} claims, the most a label can carry (${MAX_CLAIMS})`;
  const parts = [c.text.slice(0, at), c.text.slice(at)];
  if (!parts.every(hasContent))
    return `split: both parts of claim ${i} must keep a letter or digit ("${parts[0].trim()}" | "${parts[1].trim()}")`;
  const pieces = parts.map((p, k) => {
    const lead = p.length - p.trimStart().length;
    const text = p.trim();
    const offset = k === 0 ? 0 : at;
    const start = c.startChar === null ? null : c.startChar + offset + lead;
    return { text, startChar: start, endChar: start === null ? null : start + text.length, source: "annotator" };
  });
  return [...claims.slice(0, i), ...pieces, ...claims.slice(i + 1)];
}

/** Versions from here up are annotators' private claim sets; the shared ones (import, re-split) stay below. */
export const PRIVATE_VERSION_MIN = 2 ** 30;
export const isPrivateVersion = (version: number) => version >= PRIVATE_VERSION_MIN;

type TEventRow = { id: number; kind: string; actorId: string | null; after: string };
const EDIT_KINDS = ["merge", "split"];

/** The claim version an event left (its `after.claimVersion`). */
export const versionAfter = (e: Pick<TEventRow, "after">): number | null => {
  const v = (JSON.parse(e.after) as { claimVersion?: unknown }).claimVersion;
  return typeof v === "number" ? v : null;
};

/**
 * The claim set an annotator sees of an answer: their latest private edit, unless they labelled
 * since or the lead re-imported or re-split the answer since (then their label's set, else the
 * shared one). Read from the answer's events: the annotator's own, and the shared ones.
 */
export async function ownClaimVersion(
  db: Pick<Db, "answerEvent" | "answerJudgement" | "answer">,
  answerId: string,
  userId: string,
): Promise<number | null> {
  const [answer, own, events] = await Promise.all([
    db.answer.findUnique({ where: { id: answerId }, select: { claimVersion: true } }),
    db.answerJudgement.findUnique({ where: { answerId_userId: { answerId, userId } }, select: { claimVersion: true } }),
    db.answerEvent.findMany({
      where: {
        answerId,
        OR: [{ actorId: userId, kind: { in: [...EDIT_KINDS, "judgement"] } }, { kind: { in: ["import", "resplit"] } }],
      },
      orderBy: { id: "desc" },
      select: { id: true, kind: true, actorId: true, after: true },
    }),
  ]);
  if (!answer) return null;
  const latest = events.find(
    (e) =>
      e.kind === "judgement" || e.kind === "import" || e.kind === "resplit" || isPrivateVersion(versionAfter(e) ?? 0),
  );
  const edited = latest && EDIT_KINDS.includes(latest.kind) ? versionAfter(latest) : null;
  return edited ?? own?.claimVersion ?? answer.claimVersion;
}

async function claimsOf(db: Pick<Db, "answerClaim">, answerId: string, version: number): Promise<Claim[]> {
  return db.answerClaim.findMany({
    where: { answerId, version },
    orderBy: { position: "asc" },
    select: { text: true, startChar: true, endChar: true, source: true },
  });
}
const numbered = (claims: readonly Claim[]): TEditedClaim[] => claims.map((c, position) => ({ position, ...c }));

/** What the edit recorded under `key` wrote (a retry), or null when the key is new. */
async function replay(db: Db, edit: TClaimEdit): Promise<{ version: number; claims: TEditedClaim[] } | null> {
  const done = await db.answerEvent.findUnique({
    where: { idempotencyKey: edit.idempotencyKey },
    select: { answerId: true, actorId: true, kind: true, after: true },
  });
  if (!done) return null;
  if (done.answerId !== edit.answerId || done.actorId !== edit.actorId || done.kind !== edit.op.kind)
    throw new AppError("conflict", "this idempotency key was already used for a different request");
  const version = versionAfter(done)!;
  return { version, claims: numbered(await claimsOf(db, edit.answerId, version)) };
}

export async function editClaims(db: Db, edit: TClaimEdit): Promise<{ version: number; claims: TEditedClaim[] }> {
  const earlier = await replay(db, edit);
  if (earlier) return earlier;
  try {
    return await db.$transaction(async (tx) => {
      // The actor's assignment row, written first: it is the check that the answer is theirs, and its
      // write lock queues two edits of one annotator (two tabs) so the second sees the first's set.
      const mine = await tx.answerAssignment.updateMany({
        where: { answerId: edit.answerId, userId: edit.actorId },
        data: { orderKey: { multiply: 1 } },
      });
      if (mine.count !== 1) throw new AppError("not_found", "no such answer in your queue");
      const answer = await tx.answer.findUniqueOrThrow({
        where: { id: edit.answerId },
        select: { id: true, projectId: true, text: true, project: { select: { gradingClosedAt: true } } },
      });
      // Closed by the lead: refused as a label is (lib/answers/submit.ts).
      if (answer.project.gradingClosedAt) throw gradingClosedError(answer.project.gradingClosedAt);
      const seen = (await ownClaimVersion(tx, answer.id, edit.actorId))!;
      if (edit.version !== seen)
        throw new AppError(
          "conflict",
          "your claims of this answer changed meanwhile (in another tab?); reload the answer",
          { version: seen },
        );
      const current = await claimsOf(tx, answer.id, seen);
      const next = applyClaimEdit(answer.text, current, edit.op);
      if (typeof next === "string") throw new AppError("bad_input", next);
      let version = randomInt(PRIVATE_VERSION_MIN, INT32_MAX);
      while ((await tx.answerClaim.count({ where: { answerId: answer.id, version } })) > 0)
        version = randomInt(PRIVATE_VERSION_MIN, INT32_MAX);
      await tx.answerClaim.createMany({
        data: next.map((c, position) => ({ answerId: answer.id, version, position, ...c })),
      });
      await tx.answerEvent.create({
        data: {
          projectId: answer.projectId,
          answerId: answer.id,
          actorId: edit.actorId,
          kind: edit.op.kind,
          before: JSON.stringify({ claimVersion: seen, claims: current.map((c) => c.text) }),
          after: JSON.stringify({ claimVersion: version, op: edit.op, claims: next.map((c) => c.text) }),
          idempotencyKey: edit.idempotencyKey,
        },
      });
      return { version, claims: numbered(next) };
    });
  } catch (e) {
    if (isUniqueViolation(e)) {
      // The same key sent twice at once: the one that won answers both.
      const winner = await replay(db, edit);
      if (winner) return winner;
      throw new AppError("conflict", "your claims of this answer changed meanwhile; reload the answer");
    }
    throw e;
  }
}
