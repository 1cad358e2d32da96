/**
 * The retest panel (test-retest agreement of a judge run's samples, lib/judge/retest.ts), computed
 * from the rows lib/dashboard/load/retest.ts read.
 */
import { retest } from "../judge/retest.ts";
import type { TRetestRow } from "../judge/service.ts";
import type { TRetestInput } from "./load/retest.ts";

export function retestPanel(runs: readonly TRetestInput[]): { runs: TRetestRow[] } {
  return {
    runs: runs.map(({ grades, ...r }) => ({
      judge: r.judge,
      runId: r.runId,
      model: r.model,
      samples: r.samples,
      temperature: r.temperature,
      retest: retest(grades, r.samples),
    })),
  };
}
