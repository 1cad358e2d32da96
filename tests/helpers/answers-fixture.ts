import type { Db } from "../../lib/db/client.ts";
import { seedJudgeProject } from "../integration/judge-fixture.ts";

/**
 * A project with generated answers for the answer judge's tests: the judge fixture's questions and
 * chunks, and per question and system one answer whose context is three of the question's pooled
 * chunks and whose claims (version 1) are its sentences. Rows are written directly with Prisma
 * (the import, lib/answers, is another module's).
 */
export async function seedAnswerProject(
  db: Db,
  opts: { name?: string; queries?: number; systems?: string[]; claims?: number } = {},
) {
  const queries = opts.queries ?? 4;
  const systems = opts.systems ?? ["gen-a", "gen-b"];
  const claimsPer = opts.claims ?? 3;
  const seeded = await seedJudgeProject(db, { name: opts.name, queries, perQuery: 5 });
  const answers: { id: string; system: string; queryId: number; claims: string[] }[] = [];
  for (const [s, system] of systems.entries()) {
    for (const [q, queryId] of seeded.queryIds.entries()) {
      // No system name in the text: the judge, like an annotator, must not learn the system.
      const claims = Array.from(
        { length: claimsPer },
        (_, k) => `Claim ${k + 1} on question ${q}: fact number ${q * 100 + s * 10 + k}.`,
      );
      const answer = await db.answer.create({
        data: {
          projectId: seeded.project.id,
          system,
          queryId,
          text: claims.join(" "),
          contentHash: `${system}:${q}`,
          context: {
            create: [0, 1, 2].map((position) => ({ position, chunkId: seeded.chunkIds[q * 5 + ((position + s) % 5)] })),
          },
          claims: { create: claims.map((text, position) => ({ version: 1, position, text })) },
        },
      });
      answers.push({ id: answer.id, system, queryId, claims });
    }
  }
  return { ...seeded, answers };
}

/** Adds a new claim version to an answer (a re-split) and makes it current. */
export async function resplit(db: Db, answerId: string, claims: string[]): Promise<number> {
  const a = await db.answer.findUniqueOrThrow({ where: { id: answerId } });
  const version = a.claimVersion + 1;
  await db.answerClaim.createMany({
    data: claims.map((text, position) => ({ answerId, version, position, text, source: "llm" })),
  });
  await db.answer.update({ where: { id: answerId }, data: { claimVersion: version } });
  return version;
}
