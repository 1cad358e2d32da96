import { bpref } from "./bpref.ts";
import { MIN_GEO_MEAN } from "./geometric.ts";
import type { RelInfo } from "./types.ts";

/**
 * gm_bpref (trec_eval m_gm_bpref.c): bpref per query (floored at 0.00001), summarised by the
 * geometric mean over queries; printed only in the summary.
 */
export function gmBpref(r: RelInfo, level: number): number {
  return Math.max(bpref(r, level), MIN_GEO_MEAN);
}
