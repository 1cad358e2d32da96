/**
 * The probe figures read from the database (the CLI's path; the dashboard computes the same from
 * its loaded data, lib/dashboard/probes.ts): the source judge's and its probes' labels, the human
 * reference labels, and the external ids of the pairs the probes labelled.
 */
import type { Db } from "../../db/client.ts";
import { referenceLabels } from "../../labels/reference.ts";
import { PROBE_KINDS } from "./perturb.ts";
import { probeJudgeName } from "./spec.ts";
import { probeSummary, type TProbeLabel, type TProbeSummary } from "./stats.ts";

export async function loadProbeSummary(db: Db, projectId: number, sourceJudge: string): Promise<TProbeSummary> {
  const names = [sourceJudge, ...PROBE_KINDS.map((k) => probeJudgeName(sourceJudge, k))];
  const [labels, reference] = await Promise.all([
    db.judgeLabel.findMany({
      where: { projectId, judge: { in: names } },
      select: { judge: true, queryId: true, chunkId: true, grade: true },
    }),
    referenceLabels(db, projectId),
  ]);
  const judges = new Map<string, TProbeLabel[]>();
  for (const l of labels) {
    const list = judges.get(l.judge) ?? [];
    list.push({ queryId: l.queryId, chunkId: l.chunkId, grade: l.grade });
    judges.set(l.judge, list);
  }
  const ids = new Map(reference.map((r) => [`${r.queryId}:${r.chunkId}`, { qid: r.qid, docid: r.docid }]));
  return probeSummary(sourceJudge, judges, reference, {
    names: (q, c) => ids.get(`${q}:${c}`) ?? { qid: String(q), docid: String(c) },
  });
}
