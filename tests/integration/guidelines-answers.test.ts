import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { runCli } from "../helpers/cli.ts";
import { assignAnswersTo, makeAnswer } from "../helpers/answer-items.ts";
import type { TFixture } from "./annotate-fixture.ts";

/**
 * Guideline revisions for answer labels (SQLite, or PostgreSQL with TEST_DATABASE_URL), as for
 * chunk grades (guidelines.test.ts): the answer page shows the latest revision and its number; a
 * label and a decision record the revision sent with them; a revision the project does not have is
 * refused (422 naming the field) and writes nothing; status and the lead's page count the answers
 * labelled and decided under older revisions, apart from the items' figures; `assign --answers
 * --regrade-older-guidelines` opens those answers again for their own annotators until they submit
 * them (even unchanged), and the history keeps both labels.
 */
useTestDatabase();

let db: Db;
let fx: TFixture;
let answers: string[];
const key = () => randomUUID();

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  const { seedAnnotationFixture } = await import("./annotate-fixture.ts");
  db = await getDb();
  fx = await seedAnnotationFixture(db);
  const chunk = await db.chunk.findFirstOrThrow({ where: { videoId: fx.fileVideo.id }, select: { id: true } });
  const made = [];
  for (const [i, q] of [fx.queries.q1, fx.queries.q2, fx.queries.q1].entries())
    made.push(
      await makeAnswer(db, fx.project.id, {
        system: `gen-${i}`,
        queryId: q.id,
        claims: ["First claim.", "Second claim."],
        context: [chunk.id],
      }),
    );
  answers = made.map((a) => a.id);
  await assignAnswersTo(db, made, [fx.ann, fx.other]);
});

const lib = async () => ({
  ...(await import("../../lib/projects/guidelines.ts")),
  ...(await import("../../lib/answers/submit.ts")),
  ...(await import("../../lib/answers/adjudicate.ts")),
  ...(await import("../../lib/answers/view.ts")),
});

const label = async (userId: string, answerId: string, s: "s" | "n", relevance: number, guidelineRevision?: number) => {
  const { submitAnswerJudgement } = await lib();
  return submitAnswerJudgement(db, userId, {
    answerId,
    claimVersion: 1,
    claimLabels: [s, s],
    relevance,
    idempotencyKey: key(),
    ...(guidelineRevision === undefined ? {} : { guidelineRevision }),
  });
};
const storedRevision = async (answerId: string, userId: string) =>
  (await db.answerJudgement.findUniqueOrThrow({ where: { answerId_userId: { answerId, userId } } })).guidelineRevision;

describe("guideline revisions of answer labels", () => {
  it("the answer page shows the latest revision; labels and decisions record the revision sent", async () => {
    const { saveGuidelines, annotatorAnswer, adjudicateAnswer } = await lib();
    const [a0, a1, a2] = answers;
    // Before any save: the project's text as revision 0.
    expect((await annotatorAnswer(db, fx.ann.id, a0))?.guidelineRevision).toBe(0);
    await saveGuidelines(db, fx.project.id, "Claims: s only when the context says it.\n", fx.lead.id);
    const shown = await annotatorAnswer(db, fx.ann.id, a0);
    expect([shown?.guidelines, shown?.guidelineRevision]).toEqual(["Claims: s only when the context says it.\n", 1]);

    // a0: both annotators under revision 1, disagreeing (so the adjudicator decides it).
    expect((await label(fx.ann.id, a0, "s", 3, 1)).judgement.guidelineRevision).toBe(1);
    await label(fx.other.id, a0, "n", 0, 1);
    // Revision 2 saved while a page showing revision 1 was open: the label says 1, as shown.
    await saveGuidelines(
      db,
      fx.project.id,
      "Claims: s only when the context says it.\nRelevance: 3 is complete.\n",
      fx.lead.id,
    );
    await label(fx.ann.id, a1, "s", 2, 1);
    await label(fx.other.id, a1, "s", 2, 2);
    // A client that sends no revision: recorded as unknown, not as older.
    await label(fx.ann.id, a2, "s", 1);
    expect([
      await storedRevision(a0, fx.ann.id),
      await storedRevision(a1, fx.other.id),
      await storedRevision(a2, fx.ann.id),
    ]).toEqual([1, 2, null]);

    // A revision the project does not have: 422 naming the field, and nothing written.
    const before = await db.answerJudgement.count();
    await expect(label(fx.other.id, a2, "s", 1, 7)).rejects.toMatchObject({
      code: "bad_input",
      message: "guidelineRevision: expected the revision of the guidelines you were shown (0 … 2), got 7",
    });
    expect(await db.answerJudgement.count()).toBe(before);
    expect(await db.answerEvent.count({ where: { answerId: a2 } })).toBe(1);

    await expect(
      adjudicateAnswer(db, fx.adjudicator.id, {
        answerId: a0,
        claimVersion: 1,
        claimLabels: ["s", "n"],
        relevance: 2,
        idempotencyKey: key(),
        guidelineRevision: 3,
      }),
    ).rejects.toMatchObject({ code: "bad_input" });
    expect(await db.answerAdjudication.count()).toBe(0);
    const decided = await adjudicateAnswer(db, fx.adjudicator.id, {
      answerId: a0,
      claimVersion: 1,
      claimLabels: ["s", "n"],
      relevance: 2,
      idempotencyKey: key(),
      guidelineRevision: 1,
    });
    expect(decided.applied).toBe(true);
    expect((await db.answerAdjudication.findUniqueOrThrow({ where: { answerId: a0 } })).guidelineRevision).toBe(1);
  });

  it("counts answers labelled and decided under older revisions, apart from the items (status)", async () => {
    const { olderAnswerGuidelines, olderGuidelines } = await lib();
    // Older than revision 2: a0 (ann, other), a1 (ann) = 3 labels on 2 answers; a2's label names
    // no revision; a0's decision was made under revision 1.
    const expected = { current: 2, answers: 2, labels: 3, regradeRequested: 0, adjudications: 1, unrecorded: 1 };
    expect(await olderAnswerGuidelines(db, fx.project.id)).toEqual(expected);
    // The items' figures are not touched by answers.
    expect(await olderGuidelines(db, fx.project.id)).toMatchObject({ current: 2, items: 0, judgements: 0 });
    const r = runCli(["status", "--json", "--project", fx.project.name]);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { answerGuidelines: unknown }).answerGuidelines).toEqual(expected);
    const text = runCli(["status", "--project", fx.project.name]).stdout;
    expect(text).toMatch(/answers under older guidelines\s+2 answer\(s\), 3 label\(s\)/);
    expect(text).toMatch(/answers decided under older\s+1/);
  });

  it("sends answer labels made under older revisions back to their annotators until they submit them again", async () => {
    const { annotatorAnswer, answerQueuePage, olderAnswerGuidelines, submitAnswerJudgement } = await lib();
    const [a0, a1, a2] = answers;
    const r = runCli(["assign", "--answers", "--regrade-older-guidelines", "--project", fx.project.name]);
    expect(r.code, r.stderr).toBe(0);
    // a0 (ann, other) and a1 (ann) carry labels of revision 1; a2's names none.
    expect(r.stdout).toContain("3 answer label(s) on 2 of 2 answer(s) labelled under guidelines older than revision 2");
    expect(await olderAnswerGuidelines(db, fx.project.id)).toMatchObject({ labels: 3, regradeRequested: 3 });
    // Open again in ann's queue, with their own label, until they submit it.
    const page = await answerQueuePage(db, fx.ann.id, fx.project.id);
    expect(page?.items.map((i) => [i.id, i.done])).toEqual(
      expect.arrayContaining([
        [a0, false],
        [a1, false],
        [a2, true],
      ]),
    );
    expect(page?.done).toBe(1);
    const view = await annotatorAnswer(db, fx.ann.id, a1);
    expect([view?.regrade, view?.own?.relevance]).toEqual([true, 2]);
    expect((await annotatorAnswer(db, fx.ann.id, a2))?.regrade).toBe(false);
    // The same label submitted again: the second look is done and records the current revision.
    const events = await db.answerEvent.count({ where: { answerId: a1, actorId: fx.ann.id } });
    const again = await submitAnswerJudgement(db, fx.ann.id, {
      answerId: a1,
      claimVersion: 1,
      claimLabels: ["s", "s"],
      relevance: 2,
      idempotencyKey: key(),
      guidelineRevision: 2,
    });
    expect(again.applied).toBe(true);
    expect(await storedRevision(a1, fx.ann.id)).toBe(2);
    expect((await annotatorAnswer(db, fx.ann.id, a1))?.regrade).toBe(false);
    expect(await db.answerEvent.count({ where: { answerId: a1, actorId: fx.ann.id } })).toBe(events + 1);
    expect(await olderAnswerGuidelines(db, fx.project.id)).toMatchObject({ labels: 2, regradeRequested: 2 });
    // Running it again sends nothing twice.
    const twice = runCli(["assign", "--answers", "--regrade-older-guidelines", "--project", fx.project.name]);
    expect(twice.stdout).toContain("0 answer label(s) on 0 of 0 answer(s)");
  });
});
