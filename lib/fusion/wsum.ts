import type { ScoredRun } from "./types.ts";

/**
 * Weighted sum (ranx/fusion/wsum.py): a document scores Σ_i w_i · s_i over the runs, a run that
 * does not retrieve it adding 0; scores are normalised first (normalize.ts, min-max by default, as
 * ranx's fuse). CombSUM is the same with every weight 1.
 */
export function wsum(runs: readonly ScoredRun[], weights: readonly number[]): ScoredRun {
  const out: ScoredRun = new Map();
  runs.forEach((run, i) => {
    for (const [qid, docs] of run) {
      let fused = out.get(qid);
      if (!fused) out.set(qid, (fused = new Map()));
      for (const [docid, s] of docs) fused.set(docid, (fused.get(docid) ?? 0) + weights[i] * s);
    }
  });
  return out;
}
