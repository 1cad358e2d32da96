/**
 * The geometric mean trec_eval uses for gm_map and gm_bpref (meas_avg.c, te_calc_avg_meas_s_gm):
 * exp of the mean of log(max(value, MIN_GEO_MEAN)) over the averaged queries.
 */
export const MIN_GEO_MEAN = 0.00001;

export function geometricMean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += Math.log(Math.max(v, MIN_GEO_MEAN));
  return Math.exp(sum / values.length);
}
