import type { RankedRun, ScoredRun } from "./types.ts";

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009; ranx/fusion/rrf.py): a document
 * scores Σ over the runs that retrieve it of 1 / (k + rank), rank counted from 1 in each run's
 * evaluated order; k = 60 as in the paper. Scores are ignored, so no normalisation applies.
 */
export const RRF_K = 60;

export function rrf(runs: readonly RankedRun[], k = RRF_K): ScoredRun {
  const out: ScoredRun = new Map();
  for (const run of runs) {
    for (const [qid, { docids }] of run) {
      let fused = out.get(qid);
      if (!fused) out.set(qid, (fused = new Map()));
      for (let i = 0; i < docids.length; i++) fused.set(docids[i], (fused.get(docids[i]) ?? 0) + 1 / (k + i + 1));
    }
  }
  return out;
}
