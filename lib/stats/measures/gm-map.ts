import { MIN_GEO_MEAN } from "./geometric.ts";
import { averagePrecisionOf } from "./average-precision.ts";
import type { RelInfo } from "./types.ts";

/**
 * gm_map (trec_eval m_gm_map.c): average precision per query, summarised by the geometric mean over
 * queries; a query's AP below 0.00001 (MIN_GEO_MEAN) counts as 0.00001, so one zero does not make
 * the mean 0. trec_eval prints it only in the summary; with -c a query missing from the run
 * contributes log(0.00001). The per-query value kept here is the AP itself (floored).
 */
export function gmMap(r: RelInfo): number {
  return Math.max(averagePrecisionOf(r), MIN_GEO_MEAN);
}
