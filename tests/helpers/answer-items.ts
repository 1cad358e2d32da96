import type { Db } from "../../lib/db/client.ts";

/**
 * Generated answers written straight through Prisma, for tests of the answer task: an
 * Answer of a system on a question, its claims (version 1, source "sentence", offsets in the text)
 * and its context chunks in order. The importer (assessor import answers) is another helper's work;
 * these tests say only what matters to them.
 */
export async function makeAnswer(
  db: Db,
  projectId: number,
  data: { system: string; queryId: number; claims: string[]; context: number[]; text?: string },
) {
  const text = data.text ?? data.claims.join(" ");
  const answer = await db.answer.create({
    data: {
      projectId,
      system: data.system,
      queryId: data.queryId,
      text,
      contentHash: `hash-${data.system}-${data.queryId}-${Math.random()}`,
    },
  });
  let from = 0;
  for (const [position, claim] of data.claims.entries()) {
    const start = text.indexOf(claim, from);
    await db.answerClaim.create({
      data: {
        answerId: answer.id,
        version: 1,
        position,
        text: claim,
        startChar: start >= 0 ? start : null,
        endChar: start >= 0 ? start + claim.length : null,
      },
    });
    if (start >= 0) from = start + claim.length;
  }
  for (const [position, chunkId] of data.context.entries())
    await db.answerContext.create({ data: { answerId: answer.id, position, chunkId } });
  return answer;
}

/** Assigns the answers to every user given (orderKey at random, as assignAnswers would). */
export async function assignAnswersTo(db: Db, answers: { id: string }[], users: { id: string }[]) {
  for (const a of answers)
    for (const u of users)
      await db.answerAssignment.create({ data: { answerId: a.id, userId: u.id, orderKey: Math.random() } });
}
