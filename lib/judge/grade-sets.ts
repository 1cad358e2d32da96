/**
 * A judge's several grades of each pair, where it has them: the samples of a run that grades each
 * pair more than once (`judge run --samples N`, lib/judge/retest.ts) or the members' grades of a jury
 * (`judge combine`, kept in each label's provenance). Where they differ the judge is unsure of the
 * pair: `assign --unstable-first` offers those pairs first, and a decision's design counts them as
 * less certain (lib/decisions/store.ts).
 */
import type { Db } from "../db/client.ts";
import type { TSampleGrades } from "./retest.ts";
import { sampleGrades } from "./store.ts";

/** A jury's members' grades of each pair it labelled, or null when `judge` is no jury. */
export async function juryMemberGrades(db: Db, projectId: number, judge: string): Promise<TSampleGrades[] | null> {
  const rows = await db.judgeLabel.findMany({
    where: { projectId, judge, provenance: { startsWith: '{"kind":"jury"' } },
    select: { queryId: true, chunkId: true, provenance: true },
  });
  if (rows.length === 0) return null;
  return rows.map((r) => ({
    queryId: r.queryId,
    chunkId: r.chunkId,
    grades: Object.values((JSON.parse(r.provenance!) as { members: Record<string, number> }).members),
  }));
}

/**
 * The several grades of each pair of the judge named `judge`: its jury members' or its run's samples
 * (null where a sample is not graded); null when it has one grade per pair (a run with one sample, an
 * imported or transferred label set).
 */
export async function judgeGradeSets(db: Db, projectId: number, judge: string): Promise<TSampleGrades[] | null> {
  const jury = await juryMemberGrades(db, projectId, judge);
  if (jury) return jury;
  const run = await db.judgeRun.findFirst({
    where: { projectId, judge, target: "chunks", samples: { gt: 1 } },
    select: { id: true, samples: true },
  });
  return run ? sampleGrades(db, run.id, run.samples) : null;
}
