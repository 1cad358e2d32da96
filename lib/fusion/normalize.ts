import { compareEvaluated } from "../stats/order.ts";
import type { RankedRun } from "./types.ts";

/**
 * Score normalisations applied to each query of each run before a score-based fusion, as ranx
 * defines them (ranx/normalization/*.py; the denominators are floored at 1e-9 as there):
 * - `min-max`: (s − min) / max(max − min, 1e-9);
 * - `z` (ranx's zmuv): (s − mean) / max(σ, 1e-9), σ the population standard deviation;
 * - `sum`: (s − min) / max(Σ s − min · n, 1e-9);
 * - `rank`: 1 − (r − 1) / n for the document at rank r of n (evaluated order);
 * - `none`: the scores as they are.
 */
export const NORMS = ["min-max", "z", "sum", "rank", "none"] as const;
export type Norm = (typeof NORMS)[number];

const FLOOR = 1e-9;

export function normalizeScores(scores: readonly number[], norm: Norm): number[] {
  const n = scores.length;
  if (n === 0 || norm === "none") return [...scores];
  if (norm === "rank") return scores.map((_, i) => 1 - i / n);
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const s of scores) {
    if (s < min) min = s;
    if (s > max) max = s;
    sum += s;
  }
  if (norm === "min-max") {
    const d = Math.max(max - min, FLOOR);
    return scores.map((s) => (s - min) / d);
  }
  if (norm === "sum") {
    const d = Math.max(sum - min * n, FLOOR);
    return scores.map((s) => (s - min) / d);
  }
  const mean = sum / n;
  let v = 0;
  for (const s of scores) v += (s - mean) * (s - mean);
  const d = Math.max(Math.sqrt(v / n), FLOOR);
  return scores.map((s) => (s - mean) / d);
}

/** A run's queries in the evaluated order, from lines in any order. */
export function rankedRun(rows: Iterable<{ qid: string; docid: string; score: number }>): RankedRun {
  const byQuery = new Map<string, { docid: string; score: number }[]>();
  for (const r of rows) {
    let list = byQuery.get(r.qid);
    if (!list) byQuery.set(r.qid, (list = []));
    list.push({ docid: r.docid, score: r.score });
  }
  const out: RankedRun = new Map();
  for (const [qid, list] of byQuery) {
    list.sort(compareEvaluated);
    out.set(qid, { docids: list.map((d) => d.docid), scores: list.map((d) => d.score) });
  }
  return out;
}
