/**
 * Kendall's rank correlation between two scorings of the same items (here: the mean score of each
 * system under two label sources), tau-b, which corrects for ties:
 *
 *   tau_b = (C − D) / sqrt((n0 − n1)(n0 − n2))
 *
 * with C and D the concordant and discordant pairs, n0 = n(n − 1)/2, n1 and n2 the pairs tied in
 * x and in y. Without ties tau-b equals tau-a = (C − D) / n0. Matches scipy.stats.kendalltau
 * (variant "b"). O(n²): meant for system orderings (tens of items), not large samples.
 *
 * Edge cases, decided here: fewer than two items, or every item tied on one side (a constant
 * ordering), leave tau undefined; it is reported as null with the reason, never as 0.
 */
export type KendallTau =
  { tau: number; n: number; concordant: number; discordant: number } | { tau: null; n: number; reason: string };

export function kendallTau(x: readonly number[], y: readonly number[]): KendallTau {
  if (x.length !== y.length)
    throw new RangeError(`kendallTau: ${x.length} vs ${y.length} values (pair them by item first)`);
  const n = x.length;
  if (n < 2) return { tau: null, n, reason: "fewer than two items to order" };
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      if (dx === 0) tiesX++;
      if (dy === 0) tiesY++;
      if (dx === 0 || dy === 0) continue;
      if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const n0 = (n * (n - 1)) / 2;
  const denom = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  if (denom === 0) return { tau: null, n, reason: "every item is tied on one side: the ordering is constant" };
  return { tau: (concordant - discordant) / denom, n, concordant, discordant };
}
