import type { RelInfo } from "./types.ts";

/**
 * success (trec_eval m_success.c, printed success_k): 1 when a relevant chunk is among the top k,
 * else 0. Default cutoffs 1, 5, 10 (`-m success.2,5,20`).
 */
export const SUCCESS_DEFAULTS = [1, 5, 10];

export function success(r: RelInfo, cutoffs: readonly number[]): number[] {
  return cutoffs.map((k) => (r.relAt[Math.min(k, r.numRet)] ? 1 : 0));
}
