import type { Db } from "../db/client.ts";

export type TSystemAnswers = { system: string; answers: number; claims: number; labelled: number };

/**
 * The project's generator configurations (systems) with their answer counts, the claims in force
 * (each answer's current claim version) and how many answers have a human label.
 */
export async function listAnswerSystems(db: Db, projectId: number): Promise<TSystemAnswers[]> {
  const answers = await db.answer.findMany({
    where: { projectId },
    select: {
      system: true,
      claimVersion: true,
      _count: { select: { judgements: true } },
      claims: { select: { version: true } },
    },
  });
  const by = new Map<string, TSystemAnswers>();
  for (const a of answers) {
    const s = by.get(a.system) ?? { system: a.system, answers: 0, claims: 0, labelled: 0 };
    s.answers++;
    s.claims += a.claims.filter((c) => c.version === a.claimVersion).length;
    if (a._count.judgements > 0) s.labelled++;
    by.set(a.system, s);
  }
  return [...by.values()].sort((x, y) => (x.system < y.system ? -1 : x.system > y.system ? 1 : 0));
}
