/**
 * How well one quantity predicts another, over pairs (x, y): Pearson's correlation, and the share
 * of y's variance a prediction leaves. Used by the decision benchmark's simulation to say how much
 * a judge can help (lib/decisions/simulation.ts).
 */

/** Pearson's r of the pairs (centred sums; NaN when either side is constant or there are no pairs). */
export function pearson(xy: readonly (readonly [number, number])[]): number {
  const n = xy.length;
  let mx = 0;
  let my = 0;
  for (const [x, y] of xy) {
    mx += x / n;
    my += y / n;
  }
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of xy) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

/**
 * E[(y − f)²] / var(y) over pairs (f, y), var with divisor n: the share of y's variance the
 * prediction f leaves. At least 1 − r² (r: Pearson's of f and y), equal when f is already the
 * least-squares line of y on f; a biased or mis-scaled f leaves more.
 */
export function residualShare(fy: readonly (readonly [number, number])[]): number {
  const n = fy.length;
  let my = 0;
  for (const [, y] of fy) my += y / n;
  let sse = 0;
  let ss = 0;
  for (const [f, y] of fy) {
    sse += (y - f) ** 2;
    ss += (y - my) ** 2;
  }
  return sse / ss;
}
