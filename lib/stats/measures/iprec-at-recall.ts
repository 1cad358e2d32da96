import { interpolatedPrecision } from "./interpolated.ts";
import type { RelInfo } from "./types.ts";

/**
 * iprec_at_recall (trec_eval m_iprec_at_recall.c, printed iprec_at_recall_0.10 …): interpolated
 * precision at recall fractions (default 0, 0.1, …, 1), the recall-precision graph's points; see
 * interpolated.ts for the walk. Parameters are fractions (`-m iprec_at_recall..10,.20`).
 */
export const IPREC_DEFAULTS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

export function iprecAtRecall(r: RelInfo, level: number, fractions: readonly number[]): number[] {
  return interpolatedPrecision(r, level, fractions);
}
