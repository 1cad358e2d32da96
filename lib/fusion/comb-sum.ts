import type { ScoredRun } from "./types.ts";
import { wsum } from "./wsum.ts";

/** CombSUM (Fox & Shaw, TREC-2 1993; ranx/fusion/comb_sum.py): the sum of a document's normalised scores over the runs that retrieve it. */
export function combSum(runs: readonly ScoredRun[]): ScoredRun {
  return wsum(
    runs,
    runs.map(() => 1),
  );
}
