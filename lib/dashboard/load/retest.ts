/**
 * The retest panel's rows: the project's multi-sample judge runs on chunks and each run's grades
 * per sample (lib/judge/store.ts sampleGrades). Read on every request, as a running judge's samples
 * arrive without a label-set version change; lib/dashboard/retest.ts computes from them.
 */
import type { Db } from "../../db/client.ts";
import { paramsOf } from "../../judge/create.ts";
import { sampleGrades } from "../../judge/store.ts";

export type TRetestInput = {
  judge: string;
  runId: number;
  model: string;
  samples: number;
  temperature: number;
  grades: Awaited<ReturnType<typeof sampleGrades>>;
};

export async function loadRetest(db: Db, projectId: number): Promise<TRetestInput[]> {
  const runs = await db.judgeRun.findMany({
    where: { projectId, samples: { gt: 1 }, target: "chunks" },
    orderBy: { id: "asc" },
  });
  return Promise.all(
    runs.map(async (r) => ({
      judge: r.judge,
      runId: r.id,
      model: r.model,
      samples: r.samples,
      temperature: paramsOf(r).temperature,
      grades: await sampleGrades(db, r.id, r.samples),
    })),
  );
}
