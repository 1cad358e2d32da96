import { gainOfLevel, withGainValues, type GainPair, type Gains } from "./gains.ts";
import type { RelInfo } from "./types.ts";

/**
 * rbp (Moffat & Zobel 2008; trec_eval m_rbp.c): rank-biased precision (1 − p) Σ gain(rank i) p^(i−1)
 * with persistence p (default 0.9, `-m rbp.p=0.95`). Gains as in gains.ts, then scaled into [0, 1]
 * when any lies outside it: (gain − min) / (max − min) over the query's gain levels, so graded
 * qrels count a chunk at the query's top grade as 1. (trec_eval reads min and max without setting
 * them first; its result is this one when they start at 0.)
 */
export const RBP_DEFAULT_P = 0.9;

export function persistence(pairs: readonly GainPair[]): number {
  let p = RBP_DEFAULT_P;
  for (const pair of pairs) if (pair.name === "p") p = pair.value;
  return p;
}

export function rbp(r: RelInfo, gains: Gains, p: number): number {
  let min = 0;
  let max = 0;
  for (const l of gains.levels) {
    if (l.gain < min) min = l.gain;
    if (l.gain > max) max = l.gain;
  }
  const scale = min < 0 || max > 1;
  const levels = scale ? withGainValues(gains, (g) => (g - min) / (max - min)) : gains;
  let sum = 0;
  let curP = 1;
  for (let i = 0; i < r.numRet; i++) {
    const g = gainOfLevel(r.rels[i], levels);
    if (g !== 0) sum += g * curP;
    curP *= p;
  }
  return (1 - p) * sum;
}
