import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeChunks, makeProject, makeQueries, makeUser } from "../helpers/factories.ts";
import { assignAnswersTo, makeAnswer } from "../helpers/answer-items.ts";
import { runCli } from "../helpers/cli.ts";
import type { Db } from "../../lib/db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { assignAnswers } from "../../lib/answers/assign.ts";
import { submitAnswerJudgement, type TAnswerJudgementInput } from "../../lib/answers/submit.ts";
import { adjudicateAnswer, answerAdjudicationQueue, waitingAnswers } from "../../lib/answers/adjudicate.ts";
import { answerReferenceLabels } from "../../lib/answers/reference.ts";
import { annotatorAnswer, answerProjects, answerQueuePage } from "../../lib/answers/view.ts";
import { editClaims } from "../../lib/answers/claims-edit.ts";
import { setGradingClosed } from "../../lib/projects/grading.ts";

/**
 * The answer task on the database the suite runs against (SQLite, or PostgreSQL
 * with TEST_DATABASE_URL): assignment, submissions (idempotent, 403, 422, sticky dispute, edits),
 * the adjudication queue and decisions, the reference labels they give, the blind view, and claim
 * merges and splits.
 */
useTestDatabase();
let db: Db;
let pid: number;
type TUser = { id: string; email: string };
let ann1: TUser, ann2: TUser, ann3: TUser, adj: TUser;
let a1: { id: string }, a2: { id: string }, a3: { id: string }, a4: { id: string }, a5: { id: string };

const label = (
  answerId: string,
  key: string,
  claimLabels: TAnswerJudgementInput["claimLabels"],
  relevance: number,
  extra: Partial<TAnswerJudgementInput> = {},
): TAnswerJudgementInput => ({
  answerId,
  claimVersion: 1,
  claimLabels,
  relevance,
  notes: "",
  flags: [],
  timeSpentMs: 900,
  idempotencyKey: key,
  ...extra,
});

async function appError(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected an AppError");
}

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  const project = await makeProject(db, {
    name: "Answers project",
    annotatorsPerItem: 2,
    disagreementRule: "any_difference",
  });
  pid = project.id;
  ann1 = await makeUser(db, { email: "ann1@example.org" });
  ann2 = await makeUser(db, { email: "ann2@example.org" });
  ann3 = await makeUser(db, { email: "ann3@example.org" });
  adj = await makeUser(db, { email: "adj@example.org", role: "adjudicator" });
  const q = await makeQueries(db, pid, ["q1", "q2", "q3", "q4"]);
  const c = await makeChunks(db, pid, ["c1", "c2", "c3", "c4"]);
  const chunk = (id: string) => c.get(id)!.id;
  a1 = await makeAnswer(db, pid, {
    system: "SYS_SECRET_A",
    queryId: q.get("q1")!.id,
    claims: ["Alpha is one.", "Beta is two."],
    context: [chunk("c1"), chunk("c2")],
  });
  a2 = await makeAnswer(db, pid, {
    system: "SYS_SECRET_B",
    queryId: q.get("q1")!.id,
    claims: ["Gamma is three."],
    context: [chunk("c3")],
  });
  a3 = await makeAnswer(db, pid, {
    system: "SYS_SECRET_A",
    queryId: q.get("q2")!.id,
    claims: ["Delta.", "Epsilon.", "Zeta."],
    context: [chunk("c2"), chunk("c4")],
  });
  a4 = await makeAnswer(db, pid, {
    system: "SYS_SECRET_B",
    queryId: q.get("q3")!.id,
    claims: ["Eta is seven.", "Theta is eight.", "Iota nine."],
    context: [chunk("c1")],
  });
  a5 = await makeAnswer(db, pid, {
    system: "SYS_SECRET_A",
    queryId: q.get("q4")!.id,
    claims: ["Kappa."],
    context: [chunk("c4")],
  });
  await assignAnswersTo(db, [a1, a2, a3, a4, a5], [ann1, ann2]);
});

describe("assignAnswers", () => {
  it("gives each answer perItem annotators with balanced loads, previews without writing, and adds nothing when run again", async () => {
    const p = await makeProject(db, { name: "Assign answers", annotatorsPerItem: 2 });
    const q = await makeQueries(db, p.id, ["x1", "x2", "x3"]);
    const c = await makeChunks(db, p.id, ["xc1"]);
    const answers = [];
    for (const [i, qid] of ["x1", "x2", "x3"].entries())
      answers.push(
        await makeAnswer(db, p.id, {
          system: `s${i}`,
          queryId: q.get(qid)!.id,
          claims: ["One."],
          context: [c.get("xc1")!.id],
        }),
      );
    const emails = [ann1.email, ann2.email, ann3.email];
    const preview = await assignAnswers(db, p.id, { annotators: emails, seed: 7, dryRun: true });
    expect(preview).toMatchObject({ created: 6, answers: 3, dryRun: true });
    expect(await db.answerAssignment.count({ where: { answer: { projectId: p.id } } })).toBe(0);
    const r = await assignAnswers(db, p.id, { annotators: emails, seed: 7 });
    // 3 answers × 2 = 6 assignments; greedy least-load from 0,0,0 gives 2,2,2 (two to the emptiest each time).
    expect(r).toMatchObject({ created: 6, answersToppedUp: 3, shortfall: 0, perItem: 2 });
    expect(r.annotators.map((a) => a.total)).toEqual([2, 2, 2]);
    const rows = await db.answerAssignment.findMany({
      where: { answer: { projectId: p.id } },
      select: { answerId: true, userId: true },
    });
    for (const a of answers) expect(new Set(rows.filter((x) => x.answerId === a.id).map((x) => x.userId)).size).toBe(2);
    expect((await assignAnswers(db, p.id, { annotators: emails, seed: 8 })).created).toBe(0);
    // Per item 3: the third annotator is added to every answer (3 new), never twice to one.
    expect((await assignAnswers(db, p.id, { annotators: emails, perItem: 3, seed: 9 })).created).toBe(3);
    const err = await appError(assignAnswers(db, p.id, { annotators: emails, perItem: 4 }));
    expect(err.message).toMatch(/--per-item 4 needs at least 4 annotators/);
  });

  it("is what `assessor assign --answers` runs", async () => {
    const p = await makeProject(db, { name: "Assign answers CLI", annotatorsPerItem: 2 });
    const q = await makeQueries(db, p.id, ["y1"]);
    const c = await makeChunks(db, p.id, ["yc1"]);
    await makeAnswer(db, p.id, {
      system: "s",
      queryId: q.get("y1")!.id,
      claims: ["One."],
      context: [c.get("yc1")!.id],
    });
    const r = runCli([
      "assign",
      "--answers",
      "--project",
      p.name,
      "--annotators",
      `${ann1.email},${ann2.email}`,
      "--seed",
      "3",
    ]);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("2 new answer assignment(s) on 1 of 1 answer(s), 2 per answer, seed 3");
    expect(runCli(["assign", "--answers", "--project", p.name, "--sample", "3"]).code).not.toBe(0);
  });
});

describe("submitting answer labels", () => {
  it("agreeing annotators make a reference label; a retried key is applied once", async () => {
    const first = await submitAnswerJudgement(
      db,
      ann1.id,
      label(a1.id, "a1-ann1-key", ["s", "n"], 3, { notes: "fine", flags: ["unsure"] }),
    );
    expect(first.applied).toBe(true);
    const retry = await submitAnswerJudgement(db, ann1.id, label(a1.id, "a1-ann1-key", ["s", "n"], 3));
    expect(retry).toMatchObject({ applied: false, judgement: { claimLabels: ["s", "n"], relevance: 3 } });
    expect(await db.answerEvent.count({ where: { answerId: a1.id, kind: "judgement" } })).toBe(1);
    const reused = await appError(submitAnswerJudgement(db, ann2.id, label(a1.id, "a1-ann1-key", ["s", "n"], 3)));
    expect(reused.code).toBe("conflict");
    await submitAnswerJudgement(db, ann2.id, label(a1.id, "a1-ann2-key", ["s", "n"], 3));
    const rows = await answerReferenceLabels(db, pid);
    expect(rows).toEqual([
      {
        answerId: a1.id,
        system: "SYS_SECRET_A",
        queryId: expect.any(Number) as number,
        qid: "q1",
        claimVersion: 1,
        claims: [
          { position: 0, text: "Alpha is one.", label: "s" },
          { position: 1, text: "Beta is two.", label: "n" },
        ],
        relevance: 3,
        status: "agreed",
        annotators: 2,
        flags: ["unsure"],
        notes: ["fine"],
        revision: null,
      },
    ]);
  });

  it("refuses an annotator the answer is not assigned to (403) and a label count that does not match the claims (422, naming the field)", async () => {
    expect((await appError(submitAnswerJudgement(db, ann3.id, label(a1.id, "ann3-key-1", ["s", "s"], 1)))).code).toBe(
      "forbidden",
    );
    expect(
      (await appError(submitAnswerJudgement(db, ann1.id, label("no-such-answer", "ann1-key-x", ["s"], 1)))).code,
    ).toBe("forbidden");
    const count = await appError(submitAnswerJudgement(db, ann1.id, label(a1.id, "ann1-key-count", ["s"], 1)));
    expect(count.code).toBe("bad_input");
    expect(count.message).toBe("claimLabels: expected 2 label(s), one per claim of claim set 1, got 1");
    const version = await appError(
      submitAnswerJudgement(db, ann1.id, label(a1.id, "ann1-key-version", ["s", "s"], 1, { claimVersion: 5 })),
    );
    expect(version.message).toBe("claimVersion: the answer has no claim set 5 (the current one is 1)");
    const bad = await appError(submitAnswerJudgement(db, ann1.id, { ...label(a1.id, "ann1-key-bad", ["s", "s"], 4) }));
    expect(bad.message).toContain("relevance");
    // Nothing of a refused submission was written.
    expect(
      await db.answerEvent.count({
        where: { idempotencyKey: { in: ["ann3-key-1", "ann1-key-count", "ann1-key-version", "ann1-key-bad"] } },
      }),
    ).toBe(0);
  });

  it("a claim-label disagreement goes to adjudication (A and B, no names); the decision becomes the reference label", async () => {
    await submitAnswerJudgement(db, ann1.id, label(a3.id, "a3-ann1-key", ["s", "s", "x"], 2, { notes: "ANN1_NOTE" }));
    await submitAnswerJudgement(db, ann2.id, label(a3.id, "a3-ann2-key", ["s", "p", "x"], 2));
    expect((await db.answer.findUniqueOrThrow({ where: { id: a3.id } })).disputedAt).not.toBeNull();
    expect(await waitingAnswers(db, pid)).toEqual([a3.id]);
    const queue = await answerAdjudicationQueue(db, pid);
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({
      id: a3.id,
      question: "question q2?",
      claims: ["Delta.", "Epsilon.", "Zeta."],
      labels: [
        { label: "A", claimLabels: ["s", "s", "x"], relevance: 2, notes: "ANN1_NOTE" },
        { label: "B", claimLabels: ["s", "p", "x"], relevance: 2, notes: "" },
      ],
    });
    expect(queue[0].context.map((c) => c.text)).toEqual(["text of c2", "text of c4"]);
    expect(JSON.stringify(queue)).not.toMatch(/SYS_SECRET|ann1@|ann2@/);

    const agreed = await appError(
      adjudicateAnswer(db, adj.id, {
        answerId: a1.id,
        claimVersion: 1,
        claimLabels: ["s", "s"],
        relevance: 1,
        idempotencyKey: "adj-a1-key",
      }),
    );
    expect(agreed.message).toMatch(/agree/);
    expect(
      (
        await appError(
          adjudicateAnswer(db, ann1.id, {
            answerId: a3.id,
            claimVersion: 1,
            claimLabels: ["s", "p", "x"],
            relevance: 2,
            idempotencyKey: "adj-by-ann",
          }),
        )
      ).code,
    ).toBe("forbidden");
    expect(
      (
        await appError(
          adjudicateAnswer(db, adj.id, {
            answerId: a3.id,
            claimVersion: 1,
            claimLabels: ["s"],
            relevance: 2,
            idempotencyKey: "adj-a3-short",
          }),
        )
      ).message,
    ).toMatch(/^claimLabels: expected 3/);
    const decided = await adjudicateAnswer(db, adj.id, {
      answerId: a3.id,
      claimVersion: 1,
      claimLabels: ["s", "p", "x"],
      relevance: 2,
      rationale: "B reads the context right",
      idempotencyKey: "adj-a3-key",
    });
    expect(decided).toMatchObject({
      applied: true,
      adjudication: { claimLabels: ["s", "p", "x"], relevance: 2, revision: 1 },
    });
    expect(
      (
        await adjudicateAnswer(db, adj.id, {
          answerId: a3.id,
          claimVersion: 1,
          claimLabels: ["s", "p", "x"],
          relevance: 2,
          idempotencyKey: "adj-a3-key",
        })
      ).applied,
    ).toBe(false);
    const second = await appError(
      adjudicateAnswer(db, adj.id, {
        answerId: a3.id,
        claimVersion: 1,
        claimLabels: ["n", "n", "n"],
        relevance: 0,
        idempotencyKey: "adj-a3-key-2",
      }),
    );
    expect(second.code).toBe("conflict");
    expect(second.details).toMatchObject({ standing: { revision: 1, claimLabels: ["s", "p", "x"] } });
    expect(await waitingAnswers(db, pid)).toEqual([]);

    const rows = await answerReferenceLabels(db, pid);
    expect(rows.map((r) => [r.qid, r.status, r.claims.map((c) => c.label).join(""), r.relevance, r.revision])).toEqual([
      ["q1", "agreed", "sn", 3, null],
      ["q2", "adjudicated", "spx", 2, 1],
    ]);

    // A revision replaces revision 1; a stale revision is a conflict with what stands.
    const revised = await adjudicateAnswer(db, adj.id, {
      answerId: a3.id,
      claimVersion: 1,
      claimLabels: ["s", "p", "n"],
      relevance: 1,
      idempotencyKey: "adj-a3-rev",
      revises: 1,
    });
    expect(revised.adjudication.revision).toBe(2);
    expect(
      (
        await appError(
          adjudicateAnswer(db, adj.id, {
            answerId: a3.id,
            claimVersion: 1,
            claimLabels: ["s", "s", "s"],
            relevance: 3,
            idempotencyKey: "adj-a3-rev-2",
            revises: 1,
          }),
        )
      ).details,
    ).toMatchObject({ standing: { revision: 2 } });
    const events = await db.answerEvent.findMany({
      where: { answerId: a3.id, kind: "adjudication" },
      orderBy: { id: "asc" },
    });
    expect(events.map((e) => (JSON.parse(e.after) as { revision: number }).revision)).toEqual([1, 2]);
  });

  it("accepts an edit of an adjudicated answer like any other (no 409 telling the annotator their answer was disputed); the decision stands", async () => {
    const edit = await submitAnswerJudgement(db, ann1.id, label(a3.id, "a3-ann1-edit", ["n", "n", "n"], 0));
    expect(edit.applied).toBe(true);
    const row = (await answerReferenceLabels(db, pid)).find((r) => r.answerId === a3.id);
    expect(row).toMatchObject({ status: "adjudicated", relevance: 1, revision: 2 });
    const history = await db.answerEvent.findMany({
      where: { answerId: a3.id, actorId: ann1.id },
      orderBy: { id: "asc" },
    });
    expect(history.map((e) => (JSON.parse(e.after) as { relevance: number }).relevance)).toEqual([2, 0]);
  });

  it("a relevance disagreement is disputed for good: a later edit that agrees leaves it waiting", async () => {
    await submitAnswerJudgement(db, ann1.id, label(a2.id, "a2-ann1-key", ["s"], 1));
    await submitAnswerJudgement(db, ann2.id, label(a2.id, "a2-ann2-key", ["s"], 3));
    expect(await waitingAnswers(db, pid)).toEqual([a2.id]);
    await submitAnswerJudgement(db, ann2.id, label(a2.id, "a2-ann2-edit", ["s"], 1));
    expect(await waitingAnswers(db, pid)).toEqual([a2.id]);
    expect((await answerReferenceLabels(db, pid)).some((r) => r.answerId === a2.id)).toBe(false);
  });

  it("concurrent submissions of both annotators are both stored and the disagreement is seen; a key sent twice at once is applied once", async () => {
    const [x, y, z] = await Promise.all([
      submitAnswerJudgement(db, ann1.id, label(a5.id, "a5-ann1-key", ["s"], 3)),
      submitAnswerJudgement(db, ann2.id, label(a5.id, "a5-ann2-key", ["n"], 3)),
      submitAnswerJudgement(db, ann2.id, label(a5.id, "a5-ann2-key", ["n"], 3)),
    ]);
    expect([x.applied, y.applied || z.applied, y.applied && z.applied]).toEqual([true, true, false]);
    expect(await db.answerJudgement.count({ where: { answerId: a5.id } })).toBe(2);
    expect((await db.answer.findUniqueOrThrow({ where: { id: a5.id } })).disputedAt).not.toBeNull();
    expect(await db.answerEvent.count({ where: { answerId: a5.id } })).toBe(2);
  });
});

describe("the annotator's view of answers", () => {
  it("shows the question, the answer, its claims, the context in order and the own label, never the system or a peer's label", async () => {
    const view = await annotatorAnswer(db, ann1.id, a1.id);
    expect(view).not.toBeNull();
    expect(Object.keys(view!).sort()).toEqual([
      "answer",
      "claimVersion",
      "claims",
      "context",
      "gradingClosedAt",
      // The revision of the guidelines shown (the project's, the same for every annotator).
      "guidelineRevision",
      "guidelines",
      "id",
      "own",
      "position",
      "question",
      // Whether their own label was sent back for a second look (their assignment's state, no one else's).
      "regrade",
    ]);
    expect(view).toMatchObject({
      question: "question q1?",
      answer: "Alpha is one. Beta is two.",
      claimVersion: 1,
      claims: [
        { position: 0, text: "Alpha is one." },
        { position: 1, text: "Beta is two." },
      ],
      own: { claimVersion: 1, claimLabels: ["s", "n"], relevance: 3, notes: "fine", flags: ["unsure"] },
      position: { total: 5 },
    });
    // makeChunks puts chunk i at [30 i, 30 i + 30).
    expect(view!.context.map((c) => [c.position, c.text, c.startSeconds, c.endSeconds])).toEqual([
      [0, "text of c1", 0, 30],
      [1, "text of c2", 30, 60],
    ]);
    expect(JSON.stringify(view)).not.toMatch(/SYS_SECRET|ann2|hash-/);
    expect(await annotatorAnswer(db, ann3.id, a1.id)).toBeNull();
  });

  it("pages the queue in the annotator's order with positions", async () => {
    const all = await answerQueuePage(db, ann1.id, pid);
    expect(all?.items).toHaveLength(5);
    expect(all?.total).toBe(5);
    expect(all?.items.map((i) => i.index)).toEqual([1, 2, 3, 4, 5]);
    const keys = await db.answerAssignment.findMany({
      where: { userId: ann1.id, answer: { projectId: pid } },
      orderBy: [{ orderKey: "asc" }, { answerId: "asc" }],
      select: { answerId: true },
    });
    expect(all?.items.map((i) => i.id)).toEqual(keys.map((k) => k.answerId));
    const first = await answerQueuePage(db, ann1.id, pid, { limit: 2 });
    expect(first?.hasAfter).toBe(true);
    const rest = await answerQueuePage(db, ann1.id, pid, { after: first!.items[1].id, limit: 2 });
    expect(rest?.items.map((i) => i.index)).toEqual([3, 4]);
    for (const item of all!.items)
      expect((await annotatorAnswer(db, ann1.id, item.id))?.position.index).toBe(item.index);
    expect(await answerQueuePage(db, ann3.id, pid, { after: a1.id })).toBeNull();
  });
});

describe("merging and splitting claims while labelling", () => {
  const edit = (user: TUser, op: Parameters<typeof editClaims>[1]["op"], version: number, key: string) =>
    editClaims(db, { answerId: a4.id, actorId: user.id, op, version, idempotencyKey: key });

  it("makes a claim set of the annotator's own, recorded in the history; the peer's view does not change; labels stay on the version they were given on", async () => {
    await submitAnswerJudgement(db, ann1.id, label(a4.id, "a4-ann1-key", ["s", "s", "n"], 2));
    const ann1Before = await annotatorAnswer(db, ann1.id, a4.id);
    const merged = await edit(ann2, { kind: "merge", positions: [0, 1] }, 1, "a4-merge");
    expect(merged.claims.map(({ position, text }) => ({ position, text }))).toEqual([
      { position: 0, text: "Eta is seven. Theta is eight." },
      { position: 1, text: "Iota nine." },
    ]);
    expect(await annotatorAnswer(db, ann2.id, a4.id)).toMatchObject({
      claimVersion: merged.version,
      claims: [{ text: "Eta is seven. Theta is eight." }, { text: "Iota nine." }],
    });
    // ann1 sees exactly what they saw.
    expect(await annotatorAnswer(db, ann1.id, a4.id)).toEqual(ann1Before);
    // "Eta is seven. Theta is eight." cut at 13 (after "seven.") gives the two sentences back.
    const split = await edit(ann2, { kind: "split", position: 0, at: 13 }, merged.version, "a4-split");
    expect(split.claims.map((c) => c.text)).toEqual(["Eta is seven.", "Theta is eight.", "Iota nine."]);
    const mine = await db.answerClaim.findMany({
      where: { answerId: a4.id, version: split.version },
      orderBy: { position: "asc" },
    });
    // The answer text is "Eta is seven. Theta is eight. Iota nine.": offsets 0–13, 14–29, 30–40; the untouched claim keeps its source.
    expect(mine.map((c) => [c.startChar, c.endChar, c.source])).toEqual([
      [0, 13, "annotator"],
      [14, 29, "annotator"],
      [30, 40, "sentence"],
    ]);
    expect(
      (
        await db.answerEvent.findMany({
          where: { answerId: a4.id, kind: { in: ["merge", "split"] } },
          orderBy: { id: "asc" },
        })
      ).map((e) => e.kind),
    ).toEqual(["merge", "split"]);
    expect(
      (await appError(edit(ann2, { kind: "merge", positions: [0, 2] }, split.version, "a4-bad-merge"))).message,
    ).toMatch(/^merge takes two neighbouring claims/);
    expect(
      (await appError(edit(ann2, { kind: "split", position: 1, at: 0 }, split.version, "a4-bad-split"))).message,
    ).toMatch(/^split: cut claim 1 at a character offset/);
    // ann1 cannot label ann2's set: it reads as no claim set at all (as a version that does not exist).
    const foreign = await appError(
      submitAnswerJudgement(
        db,
        ann1.id,
        label(a4.id, "a4-ann1-foreign", ["s", "s", "n"], 2, { claimVersion: split.version }),
      ),
    );
    const missing = await appError(
      submitAnswerJudgement(
        db,
        ann1.id,
        label(a4.id, "a4-ann1-missing", ["s", "s", "n"], 2, { claimVersion: split.version + 1 }),
      ),
    );
    expect(foreign.message.replace(String(split.version), "V")).toBe(
      missing.message.replace(String(split.version + 1), "V"),
    );
    // Grading closed by the lead: a merge is refused as a label is (lib/projects/grading.ts), nothing changes; reopened, as before.
    await setGradingClosed(db, pid, true);
    const closedMerge = await appError(
      edit(ann2, { kind: "merge", positions: [0, 1] }, split.version, "a4-closed-merge"),
    );
    expect([closedMerge.code, closedMerge.message]).toEqual([
      "conflict",
      expect.stringMatching(/^grading in this project was closed by the lead \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\)/),
    ]);
    expect(
      (
        await appError(
          submitAnswerJudgement(
            db,
            ann2.id,
            label(a4.id, "a4-closed-key", ["s", "s", "n"], 2, { claimVersion: split.version }),
          ),
        )
      ).message,
    ).toBe(closedMerge.message);
    expect(await annotatorAnswer(db, ann2.id, a4.id)).toMatchObject({ claimVersion: split.version });
    await setGradingClosed(db, pid, false);
    // ann2 labels their own set (3 claims, a different set): the versions differ, so it needs adjudication, each label with its own claims.
    await submitAnswerJudgement(
      db,
      ann2.id,
      label(a4.id, "a4-ann2-key", ["s", "s", "n"], 2, { claimVersion: split.version }),
    );
    const queued = (await answerAdjudicationQueue(db, pid)).find((q) => q.id === a4.id);
    expect(queued?.labels.map((l) => [l.label, l.claimVersion, l.claims.length])).toEqual([
      ["A", 1, 3],
      ["B", split.version, 3],
    ]);
    expect(queued?.claimVersion).toBe(1);
    expect(await annotatorAnswer(db, ann1.id, a4.id)).toEqual(ann1Before);
  });

  it("issue 30 item 6: a stale edit is a 409 that changes nothing, a retry is applied once, and a peer's edit shows in no field of anything the annotator reads", async () => {
    // a5: neither has labelled it. ann1 loads the answer (the shared set, version 1).
    const seenBy = async (u: TUser) => ({
      item: await annotatorAnswer(db, u.id, a5.id),
      queue: await answerQueuePage(db, u.id, pid),
      projects: await answerProjects(db, u.id),
    });
    const before = await seenBy(ann1);
    expect(before.item?.claimVersion).toBe(1);
    // ann2 splits claim 0 and merges it back.
    const v = (
      await editClaims(db, {
        answerId: a5.id,
        actorId: ann2.id,
        op: { kind: "split", position: 0, at: 3 },
        version: 1,
        idempotencyKey: "a5-ann2-split",
      })
    ).version;
    await editClaims(db, {
      answerId: a5.id,
      actorId: ann2.id,
      op: { kind: "merge", positions: [0, 1] },
      version: v,
      idempotencyKey: "a5-ann2-merge",
    });
    expect(await seenBy(ann1)).toEqual(before);
    // ann1 edits version 1 (what they saw): applied to their own set, whatever ann2 did; the answer's fields name nothing of ann2's.
    const r = await editClaims(db, {
      answerId: a5.id,
      actorId: ann1.id,
      op: { kind: "split", position: 0, at: 3 },
      version: 1,
      idempotencyKey: "a5-ann1-split",
    });
    expect(r.claims.map((c) => c.text)).toEqual(["Kap", "pa."]);
    // A retry of the same request: the same answer, applied once.
    expect(
      await editClaims(db, {
        answerId: a5.id,
        actorId: ann1.id,
        op: { kind: "split", position: 0, at: 3 },
        version: 1,
        idempotencyKey: "a5-ann1-split",
      }),
    ).toEqual(r);
    expect(
      await db.answerEvent.count({ where: { answerId: a5.id, actorId: ann1.id, kind: { in: ["merge", "split"] } } }),
    ).toBe(1);
    // A second edit still naming version 1 (a stale page): 409, the version is their own, nothing written.
    const stale = await appError(
      editClaims(db, {
        answerId: a5.id,
        actorId: ann1.id,
        op: { kind: "merge", positions: [0, 1] },
        version: 1,
        idempotencyKey: "a5-ann1-stale",
      }),
    );
    expect([stale.code, stale.details]).toEqual(["conflict", { version: r.version }]);
    expect(
      await db.answerEvent.count({ where: { answerId: a5.id, actorId: ann1.id, kind: { in: ["merge", "split"] } } }),
    ).toBe(1);
    // ann2's view is theirs: ann1's edit changed nothing of it.
    expect((await annotatorAnswer(db, ann2.id, a5.id))?.claims.map((c) => c.text)).toEqual(["Kappa."]);
    expect((await db.answer.findUniqueOrThrow({ where: { id: a5.id } })).claimVersion).toBe(1);
  });
});
