/**
 * 11pt_avg (trec_eval m_11pt_avg.c): the mean of the interpolated precisions at the given recall
 * fractions (default the 11 points 0, 0.1, …, 1; `-m 11pt_avg..25,.5` averages those two and is
 * printed 11pt_avg_.25,.5). Obsolete in TREC, kept for comparisons with old runs.
 */
export const ELEVEN_PT_DEFAULTS = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/** The mean of the interpolated precisions (interpolated.ts) at the `count` recall points, summed from the last as trec_eval does. */
export function elevenPtAvg(interpolated: readonly number[], count: number): number {
  let sum = 0;
  for (let i = interpolated.length - 1; i >= 0; i--) sum += interpolated[i];
  return sum / count;
}
