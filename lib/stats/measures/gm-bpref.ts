import { MIN_GEO_MEAN } from "./geometric.ts";

/**
 * gm_bpref (trec_eval m_gm_bpref.c): bpref per query (bpref.ts; floored at 0.00001), summarised by the
 * geometric mean over queries; printed only in the summary.
 */
export function gmBpref(bpref: number): number {
  return Math.max(bpref, MIN_GEO_MEAN);
}
