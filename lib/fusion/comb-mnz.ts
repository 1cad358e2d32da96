import type { ScoredRun } from "./types.ts";

/**
 * CombMNZ (Fox & Shaw, TREC-2 1993; ranx/fusion/comb_mnz.py): CombSUM times the number of runs
 * that retrieve the document.
 */
export function combMnz(runs: readonly ScoredRun[]): ScoredRun {
  const sums: ScoredRun = new Map();
  const counts = new Map<string, Map<string, number>>();
  for (const run of runs) {
    for (const [qid, docs] of run) {
      let s = sums.get(qid);
      let c = counts.get(qid);
      if (!s) sums.set(qid, (s = new Map()));
      if (!c) counts.set(qid, (c = new Map()));
      for (const [docid, v] of docs) {
        s.set(docid, (s.get(docid) ?? 0) + v);
        c.set(docid, (c.get(docid) ?? 0) + 1);
      }
    }
  }
  for (const [qid, s] of sums) {
    const c = counts.get(qid) as Map<string, number>;
    for (const [docid, v] of s) s.set(docid, v * (c.get(docid) ?? 1));
  }
  return sums;
}
