import type { Db } from "../db/client.ts";
import { median } from "../stats/median.ts";

export type TAnnotatorProgress = {
  userId: string;
  name: string;
  email: string;
  active: boolean;
  assigned: number;
  done: number;
  /** Median of Judgement.timeSpentMs over this user's judgements in the project, in seconds; null without timings. */
  medianSecondsPerItem: number | null;
};

/** Per annotator with assignments in the project: items assigned, items judged, median time per item. */
export async function annotatorProgress(db: Db, projectId: number): Promise<TAnnotatorProgress[]> {
  const assigned = await db.assignment.groupBy({
    by: ["userId"],
    // Hidden check items are counted apart (lib/assignment/checks.ts checkStatus): their grades are not Judgements.
    where: { poolItem: { projectId }, checkItem: false },
    _count: { _all: true },
  });
  const judgements = await db.judgement.findMany({
    where: { poolItem: { projectId } },
    select: { userId: true, timeSpentMs: true },
  });
  const userIds = [...new Set([...assigned.map((a) => a.userId), ...judgements.map((j) => j.userId)])];
  const users = await db.user.findMany({
    where: { id: { in: userIds } },
    select: { id: true, name: true, email: true, active: true },
  });
  const byUser = new Map<string, { done: number; times: number[] }>();
  for (const j of judgements) {
    const entry = byUser.get(j.userId) ?? { done: 0, times: [] };
    entry.done += 1;
    if (j.timeSpentMs !== null) entry.times.push(j.timeSpentMs);
    byUser.set(j.userId, entry);
  }
  const assignedBy = new Map(assigned.map((a) => [a.userId, a._count._all]));
  return users
    .map((u) => {
      const entry = byUser.get(u.id);
      const m = median(entry?.times ?? []);
      return {
        userId: u.id,
        name: u.name,
        email: u.email,
        active: u.active,
        assigned: assignedBy.get(u.id) ?? 0,
        done: entry?.done ?? 0,
        medianSecondsPerItem: m === null ? null : m / 1000,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
