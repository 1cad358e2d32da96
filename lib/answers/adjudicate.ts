import { z } from "zod";
import type { Db } from "../db/client.ts";
import { AppError, isUniqueViolation, parsedInput } from "../errors.ts";
import { zInt32, zText } from "../bounds.ts";
import { parseFlags, ruleSettings } from "../labels/load.ts";
import {
  answerDecision,
  checkClaimSet,
  parseClaimLabels,
  storedAnswerLabel,
  ZClaimLabel,
  type TClaimLabel,
} from "./labels.ts";
import { MAX_CLAIMS } from "./claims.ts";
import { CONTEXT_READ, contextView, LABEL_FIELDS, type TAnswerContextView } from "./context.ts";
import { ZRelevance } from "./submit.ts";
import { currentGuidelineRevision, unknownRevisionError } from "../projects/guidelines.ts";

export const ZAnswerAdjudicationInput = z.object({
  answerId: zText(100).min(1),
  claimVersion: zInt32(1, "claimVersion: expected a whole number ≥ 1"),
  claimLabels: z.array(ZClaimLabel).max(MAX_CLAIMS),
  relevance: ZRelevance,
  rationale: zText(5000).trim().default(""),
  idempotencyKey: zText(200).min(8),
  /** A revision of a decided answer: the revision the adjudicator saw standing (as lib/adjudication/decide.ts). */
  revises: zInt32(1, "revises: expected the revision number that stands (≥ 1)").optional(),
  /** The guidelines revision the page showed (as lib/adjudication/decide.ts); absent from older clients. */
  guidelineRevision: zInt32(0, "guidelineRevision: expected a revision number (0 or more)").optional(),
});
export type TAnswerAdjudicationInput = z.input<typeof ZAnswerAdjudicationInput>;

export type TAnswerStanding = {
  claimVersion: number;
  claimLabels: TClaimLabel[];
  relevance: number;
  rationale: string;
  revision: number;
};
export type TAnswerAdjudicateResult = { applied: boolean; answerId: string; adjudication: TAnswerStanding };

type TAdjRow = {
  answerId: string;
  claimVersion: number;
  claimLabels: string;
  relevance: number;
  rationale: string;
  revision: number;
};
const standing = (a: TAdjRow): TAnswerStanding => ({
  claimVersion: a.claimVersion,
  claimLabels: parseClaimLabels(a.claimLabels),
  relevance: a.relevance,
  rationale: a.rationale,
  revision: a.revision,
});
const SELECT = {
  answerId: true,
  claimVersion: true,
  claimLabels: true,
  relevance: true,
  rationale: true,
  revision: true,
} as const;

/**
 * Decides an answer whose annotators' labels disagree (claim labels or relevance, under the
 * project's rule: lib/answers/labels.ts), or disagreed at some point (Answer.disputedAt). The
 * answers' counterpart of lib/adjudication/decide.ts, with the same semantics: one decision per
 * answer (a second is a conflict carrying the decision that stands), a retry with the same key
 * returns `applied: false`, `revises: n` replaces revision n (a stale n is a conflict), and every
 * decision appends an AnswerEvent (kind "adjudication", before: the annotators' labels or the
 * replaced decision). The labels are on one claim set version and must have one label per claim of
 * it (422 naming the field).
 */
export async function adjudicateAnswer(
  db: Db,
  adjudicatorId: string,
  input: TAnswerAdjudicationInput,
): Promise<TAnswerAdjudicateResult> {
  const data = parsedInput(ZAnswerAdjudicationInput, input);
  const dup = await findApplied(db, data.answerId, data.idempotencyKey);
  if (dup) return dup;

  const user = await db.user.findUnique({ where: { id: adjudicatorId }, select: { role: true, active: true } });
  if (!user || !user.active || (user.role !== "adjudicator" && user.role !== "lead"))
    throw new AppError("forbidden", "only adjudicators and leads decide disagreements");
  const answer = await db.answer.findUnique({
    where: { id: data.answerId },
    select: {
      projectId: true,
      claimVersion: true,
      disputedAt: true,
      judgements: { select: { claimVersion: true, claimLabels: true, relevance: true }, orderBy: { id: "asc" } },
    },
  });
  if (!answer) throw new AppError("not_found", `no answer ${data.answerId}`);
  const claims = await db.answerClaim.count({ where: { answerId: data.answerId, version: data.claimVersion } });
  checkClaimSet(claims, data, answer.claimVersion);
  const shown = data.guidelineRevision ?? null;
  if (shown !== null) {
    const current = await currentGuidelineRevision(db, answer.projectId);
    if (shown > current) throw unknownRevisionError(shown, current);
  }
  const existing = await db.answerAdjudication.findUnique({ where: { answerId: data.answerId }, select: SELECT });
  /** The answer's history entry of this decision: what stood before it, and it. */
  const event = (before: unknown, after: unknown) => ({
    projectId: answer.projectId,
    answerId: data.answerId,
    actorId: adjudicatorId,
    kind: "adjudication",
    before: JSON.stringify(before),
    after: JSON.stringify(after),
    idempotencyKey: data.idempotencyKey,
  });
  const decision = {
    claimVersion: data.claimVersion,
    claimLabels: JSON.stringify(data.claimLabels),
    relevance: data.relevance,
    rationale: data.rationale,
    guidelineRevision: shown,
  };

  if (data.revises !== undefined) {
    if (!existing) throw new AppError("conflict", "this answer has no decision to revise", { standing: null });
    if (existing.revision !== data.revises)
      throw conflict(
        existing,
        `revision ${data.revises} no longer stands: revision ${existing.revision} was decided since`,
      );
    const revises = data.revises;
    return guard(db, data, async () =>
      db.$transaction(async (tx) => {
        const changed = await tx.answerAdjudication.updateMany({
          where: { answerId: data.answerId, revision: revises },
          data: { adjudicatorId, ...decision, revision: revises + 1 },
        });
        const now = await tx.answerAdjudication.findUniqueOrThrow({
          where: { answerId: data.answerId },
          select: SELECT,
        });
        if (changed.count !== 1)
          throw conflict(now, `revision ${revises} no longer stands: revision ${now.revision} was decided since`);
        await tx.answerEvent.create({ data: event(standing(existing), standing(now)) });
        return { applied: true, answerId: data.answerId, adjudication: standing(now) };
      }),
    );
  }
  if (existing) throw conflict(existing);
  const settings = await ruleSettings(db, answer.projectId);
  const labels = answer.judgements.map((j) => storedAnswerLabel(j));
  const state = answerDecision(labels, settings, answer.disputedAt !== null).state;
  if (state !== "disagreed")
    throw new AppError(
      "conflict",
      state === "agreed"
        ? "the annotators of this answer agree: nothing to adjudicate"
        : "this answer is still waiting for its annotators' labels",
      { state },
    );
  return guard(db, data, async () =>
    db.$transaction(async (tx) => {
      const created = await tx.answerAdjudication.create({
        data: { answerId: data.answerId, adjudicatorId, ...decision },
        select: SELECT,
      });
      await tx.answerEvent.create({ data: event({ labels }, standing(created)) });
      return { applied: true, answerId: data.answerId, adjudication: standing(created) };
    }),
  );
}

/** A unique violation: the same key raced (its result), or another decision came first (a conflict with it). */
async function guard(
  db: Db,
  data: { answerId: string; idempotencyKey: string },
  write: () => Promise<TAnswerAdjudicateResult>,
): Promise<TAnswerAdjudicateResult> {
  try {
    return await write();
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const raced = await findApplied(db, data.answerId, data.idempotencyKey);
    if (raced) return raced;
    const winner = await db.answerAdjudication.findUnique({ where: { answerId: data.answerId }, select: SELECT });
    if (winner) throw conflict(winner);
    throw e;
  }
}

function conflict(a: TAdjRow, message = "this answer has already been decided"): AppError {
  return new AppError("conflict", message, { standing: standing(a) });
}

async function findApplied(db: Db, answerId: string, key: string): Promise<TAnswerAdjudicateResult | null> {
  const event = await db.answerEvent.findUnique({
    where: { idempotencyKey: key },
    select: { answerId: true, kind: true },
  });
  if (!event) return null;
  if (event.answerId !== answerId || event.kind !== "adjudication")
    throw new AppError("conflict", "this idempotency key was already used for a different submission");
  const a = await db.answerAdjudication.findUnique({ where: { answerId }, select: SELECT });
  if (!a) throw new AppError("not_found", "the decision recorded under this key no longer exists");
  return { applied: false, answerId, adjudication: standing(a) };
}

export type TContextChunk = TAnswerContextView;
/** One annotator's label as the adjudicator sees it: A, B, … in the order first submitted; never a name. */
export type TAnswerLabelAB = {
  label: string;
  claimVersion: number;
  claims: string[];
  claimLabels: TClaimLabel[];
  relevance: number;
  notes: string;
  flags: string[];
};
export type TAnswerAdjudicationItem = {
  id: string;
  question: string;
  answer: string;
  /** The current claim set (the decision's default version). */
  claimVersion: number;
  claims: string[];
  context: TContextChunk[];
  labels: TAnswerLabelAB[];
};

const letter = (i: number) => String.fromCharCode(65 + i);

/** The project's answers waiting for a decision: labelled by everyone required, disagreeing (or disputed once), not decided. */
export async function waitingAnswers(db: Db, projectId: number): Promise<string[]> {
  const [settings, answers] = await Promise.all([
    ruleSettings(db, projectId),
    db.answer.findMany({
      where: { projectId, adjudication: { is: null }, judgements: { some: {} } },
      select: {
        id: true,
        disputedAt: true,
        judgements: { select: { claimVersion: true, claimLabels: true, relevance: true }, orderBy: { id: "asc" } },
      },
    }),
  ]);
  return answers
    .filter(
      (a) =>
        answerDecision(
          a.judgements.map((j) => storedAnswerLabel(j)),
          settings,
          a.disputedAt !== null,
        ).state === "disagreed",
    )
    .map((a) => a.id);
}

/**
 * The adjudicator's queue of answers (blind as the chunk queue: no system, no annotator names):
 * question, answer, claims, context chunks with their video, and the annotators' labels as A, B.
 * Ordered by question (import order), then answer id (random, so no system order shows through).
 */
export async function answerAdjudicationQueue(db: Db, projectId: number): Promise<TAnswerAdjudicationItem[]> {
  const ids = await waitingAnswers(db, projectId);
  if (ids.length === 0) return [];
  const answers = await db.answer.findMany({
    where: { id: { in: ids } },
    select: {
      id: true,
      text: true,
      claimVersion: true,
      queryId: true,
      query: { select: { text: true } },
      claims: {
        select: { version: true, position: true, text: true },
        orderBy: [{ version: "asc" }, { position: "asc" }],
      },
      context: CONTEXT_READ,
      judgements: {
        select: LABEL_FIELDS,
        orderBy: { id: "asc" },
      },
    },
  });
  return answers
    .sort((a, b) => a.queryId - b.queryId || (a.id < b.id ? -1 : 1))
    .map((a) => {
      const claimsOf = (v: number) => a.claims.filter((c) => c.version === v).map((c) => c.text);
      return {
        id: a.id,
        question: a.query.text,
        answer: a.text,
        claimVersion: a.claimVersion,
        claims: claimsOf(a.claimVersion),
        context: contextView(a.context),
        labels: a.judgements.map((j, i) => ({
          label: letter(i),
          claimVersion: j.claimVersion,
          claims: claimsOf(j.claimVersion),
          claimLabels: parseClaimLabels(j.claimLabels),
          relevance: j.relevance,
          notes: j.notes,
          flags: parseFlags(j.flags),
        })),
      };
    });
}

/** Per project: answers waiting for a decision (the adjudicator's "Answers (N)"). */
export async function answerAdjudicationCounts(db: Db): Promise<{ projectId: number; pending: number }[]> {
  const projects = await db.project.findMany({
    where: { answers: { some: {} } },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  const out: { projectId: number; pending: number }[] = [];
  for (const p of projects) out.push({ projectId: p.id, pending: (await waitingAnswers(db, p.id)).length });
  return out;
}
