/**
 * Working a run's probes in this process: each probe run not yet finished gets a worker
 * (lib/judge/runner.ts runWorker, as `judge resume` runs it), all probes at once, so a probe of
 * N pairs × 6 perturbations keeps 6 × concurrency requests in flight. A completed probe is left as
 * it is (its labels stand); a cancelled one is reported, not worked.
 */
import type { Db } from "../../db/client.ts";
import { runWorker, type TProgress, type TWorkerResult } from "../runner.ts";
import type { TProbeKind } from "./perturb.ts";
import type { TProbeRun } from "./create.ts";

export type TProbeWork = {
  kind: TProbeKind;
  runId: number;
  judge: string;
  result: TWorkerResult | null;
  note?: string;
};

export async function workProbes(
  db: Db,
  runs: readonly TProbeRun[],
  apiKey: string,
  opts: { concurrency?: number; stop?: AbortSignal; onProgress?: (kind: TProbeKind, p: TProgress) => void } = {},
): Promise<TProbeWork[]> {
  return Promise.all(
    runs.map(async ({ kind, run }): Promise<TProbeWork> => {
      const base = { kind, runId: run.id, judge: run.judge };
      const now = await db.judgeRun.findUniqueOrThrow({ where: { id: run.id }, select: { status: true } });
      if (now.status === "completed") return { ...base, result: null, note: "completed earlier" };
      if (now.status === "cancelled") return { ...base, result: null, note: "cancelled: its labels so far are used" };
      const result = await runWorker(db, run.id, {
        apiKey,
        concurrency: opts.concurrency,
        stop: opts.stop,
        onProgress: opts.onProgress && ((p) => opts.onProgress?.(kind, p)),
      });
      return { ...base, result };
    }),
  );
}
