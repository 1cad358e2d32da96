import { UNJUDGED, UNJUDGED_IN_POOL, type RelInfo } from "./types.ts";

/**
 * relstring (trec_eval m_relstring.c): the relevance values of the first N retrieved chunks
 * (default 10, `-m relstring.20`) as a string, one character each: the value when 0–9, '>' above
 * 9, '-' not in the qrels, '.' in the pool but unjudged (negative value), '<' any other negative.
 * Printed per query only, in quotes.
 */
export const RELSTRING_DEFAULT = 10;

export function relstring(r: RelInfo, length: number): string {
  const n = Math.max(0, Math.min(Math.trunc(length), r.numRet));
  let s = "";
  for (let i = 0; i < n; i++) {
    const v = r.rels[i];
    s += v > 9 ? ">" : v >= 0 ? String(v) : v === UNJUDGED ? "-" : v === UNJUDGED_IN_POOL ? "." : "<";
  }
  return s;
}
