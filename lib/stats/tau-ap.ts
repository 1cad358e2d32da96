/**
 * Agreement between two rankings of systems, weighted towards the top.
 *
 * τ_AP (Yilmaz, Aslam & Robertson, "A new rank correlation coefficient for information retrieval",
 * SIGIR 2008, eq. 2): with the systems ordered by the evaluated scoring (rank 1 the best),
 *
 *   τ_AP(evaluated | reference) = 2/(N − 1) · Σ_{i=2..N} C(i)/(i − 1) − 1
 *
 * where C(i) counts the systems above rank i in the evaluated order that the reference also puts
 * above the system at rank i. A swap at the top costs more than one at the bottom; without swaps
 * τ_AP = 1, for the reversed order −1. It is not symmetric: `tauAp(judge, human)` takes the human
 * ranking as the truth. Clarke & Dietz compare judge-based with human-based system rankings; we
 * report the symmetric form, the mean of both directions (Yilmaz et al. §3 mention it for when
 * neither ranking is the truth), and both directions beside it.
 * Ties (not covered by the definition, decided here): in the evaluated order, equal scores are
 * ordered by the reference score (higher first), then by position; in the reference, a system tied
 * with the one at rank i counts ½ in C(i).
 */
import { kendallTau } from "./kendall-tau.ts";
import { percentileInterval } from "./bootstrap.ts";
import { seededRng } from "./random.ts";

/** τ_AP of `evaluated` against `reference` (scores per system, same order, higher = better); null for fewer than two systems. */
export function tauAp(evaluated: readonly number[], reference: readonly number[]): number | null {
  if (evaluated.length !== reference.length)
    throw new RangeError(`tauAp: ${evaluated.length} vs ${reference.length} scores (pair them by system first)`);
  const n = evaluated.length;
  if (n < 2) return null;
  const order = [...evaluated.keys()].sort(
    (a, b) => evaluated[b] - evaluated[a] || reference[b] - reference[a] || a - b,
  );
  let sum = 0;
  for (let i = 1; i < n; i++) {
    const at = reference[order[i]];
    let c = 0;
    for (let k = 0; k < i; k++) {
      const above = reference[order[k]];
      if (above > at) c += 1;
      else if (above === at) c += 0.5;
    }
    sum += c / i;
  }
  return (2 / (n - 1)) * sum - 1;
}

/** The symmetric τ_AP: the mean of τ_AP(a | b) and τ_AP(b | a). */
export function symmetricTauAp(a: readonly number[], b: readonly number[]): number | null {
  const x = tauAp(a, b);
  const y = tauAp(b, a);
  return x === null || y === null ? null : (x + y) / 2;
}

export type TRankInterval = { low: number; high: number } | null;
export type TRankAgreement = {
  systems: number;
  tau: number | null;
  tauInterval: TRankInterval;
  tauAp: number | null;
  tauApInterval: TRankInterval;
  /** τ_AP with the human ranking as the truth, and with the judge's. */
  tauApJudgeGivenHuman: number | null;
  tauApHumanGivenJudge: number | null;
};
export type TRankingAgreement = {
  queries: number;
  all: TRankAgreement;
  /** The systems in the top half by the human score (⌈S/2⌉ of them), fixed on the full sample. */
  top: TRankAgreement & { names: string[] };
  resamples: number;
  seed: number;
  level: number;
};

function agreementOf(judge: readonly number[], human: readonly number[]) {
  return {
    tau: kendallTau(judge, human).tau,
    tauAp: symmetricTauAp(judge, human),
    tauApJudgeGivenHuman: tauAp(judge, human),
    tauApHumanGivenJudge: tauAp(human, judge),
  };
}

/**
 * Kendall τ (tau-b) and symmetric τ_AP between the systems' mean scores under the judge's labels and
 * under the human labels, over all systems and over the human top half, with percentile intervals
 * from a bootstrap over questions (each resample draws the questions with replacement, lib/stats/
 * bootstrap.ts' scheme with the seeded generator; both rankings are recomputed on the same draw).
 * `judge[s][q]`, `human[s][q]`: system s's value on question q (the same questions, same order).
 */
export function rankingAgreement(
  names: readonly string[],
  judge: readonly (readonly number[])[],
  human: readonly (readonly number[])[],
  opts: { resamples?: number; seed?: number; level?: number } = {},
): TRankingAgreement {
  const resamples = opts.resamples ?? 1000;
  const seed = opts.seed ?? 1;
  const level = opts.level ?? 0.95;
  const S = names.length;
  const Q = S ? judge[0].length : 0;
  // Values flattened system-major; a resample's means visit only the questions it drew.
  const flat = (rows: readonly (readonly number[])[]) => {
    const out = new Float64Array(S * Q);
    rows.forEach((r, s) => {
      for (let q = 0; q < Q; q++) out[s * Q + q] = r[q];
    });
    return out;
  };
  const J = flat(judge);
  const H = flat(human);
  const drawn = new Int32Array(Q);
  const mean = (values: Float64Array, w: Uint32Array | null, k = Q) =>
    Array.from({ length: S }, (_, s) => {
      let sum = 0;
      const base = s * Q;
      if (!w) {
        for (let q = 0; q < Q; q++) sum += values[base + q];
        return Q ? sum / Q : 0;
      }
      for (let i = 0; i < k; i++) {
        const q = drawn[i];
        sum += w[q] * values[base + q];
      }
      return sum / Q;
    });
  const hAll = mean(H, null);
  const jAll = mean(J, null);
  const topCount = Math.ceil(S / 2);
  const topIdx = [...hAll.keys()].sort((a, b) => hAll[b] - hAll[a] || a - b).slice(0, topCount);
  const pick = (xs: readonly number[]) => topIdx.map((i) => xs[i]);
  const full = agreementOf(jAll, hAll);
  const fullTop = agreementOf(pick(jAll), pick(hAll));
  const dist = { tau: [] as number[], tauAp: [] as number[], topTau: [] as number[], topTauAp: [] as number[] };
  if (Q > 0 && S >= 2) {
    const rng = seededRng(seed);
    const w = new Uint32Array(Q);
    for (let b = 0; b < resamples; b++) {
      w.fill(0);
      for (let i = 0; i < Q; i++) w[rng.int(Q)]++;
      let k = 0;
      for (let q = 0; q < Q; q++) if (w[q]) drawn[k++] = q;
      const j = mean(J, w, k);
      const h = mean(H, w, k);
      const a = agreementOf(j, h);
      const t = agreementOf(pick(j), pick(h));
      if (a.tau !== null) dist.tau.push(a.tau);
      if (a.tauAp !== null) dist.tauAp.push(a.tauAp);
      if (t.tau !== null) dist.topTau.push(t.tau);
      if (t.tauAp !== null) dist.topTauAp.push(t.tauAp);
    }
  }
  const interval = (values: number[]): TRankInterval => {
    const sorted = Float64Array.from(values).sort();
    const i = percentileInterval(sorted, level, resamples);
    return i ? { low: i.low, high: i.high } : null;
  };
  return {
    queries: Q,
    all: {
      systems: S,
      ...full,
      tauInterval: interval(dist.tau),
      tauApInterval: interval(dist.tauAp),
    },
    top: {
      systems: topIdx.length,
      names: topIdx.map((i) => names[i]),
      ...fullTop,
      tauInterval: interval(dist.topTau),
      tauApInterval: interval(dist.topTauAp),
    },
    resamples,
    seed,
    level,
  };
}
