import type { RelInfo } from "./types.ts";

/**
 * success (trec_eval m_success.c, printed success_k): 1 when a relevant chunk is among the top k,
 * else 0. Default cutoffs 1, 5, 10 (`-m success.2,5,20`).
 */
export const SUCCESS_DEFAULTS = [1, 5, 10];

export function success(r: RelInfo, level: number, cutoffs: readonly number[]): number[] {
  const out = new Array<number>(cutoffs.length).fill(0);
  let c = 0;
  let rel = 0;
  for (let i = 0; i < r.numRet; i++) {
    if (i === cutoffs[c]) {
      out[c] = rel ? 1 : 0;
      if (++c === cutoffs.length) return out;
    }
    if (r.rels[i] >= level) rel++;
  }
  for (; c < cutoffs.length; c++) out[c] = rel ? 1 : 0;
  return out;
}
