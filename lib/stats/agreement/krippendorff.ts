/**
 * Krippendorff's alpha (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"), for any
 * number of raters and missing values:
 *
 *   α = 1 − D_o / D_e = 1 − (n − 1) Σ_ck o_ck δ²_ck / Σ_ck n_c n_k δ²_ck
 *
 * where o_ck is the coincidence matrix (each unit with m_u ≥ 2 values adds, for every ordered pair
 * of its values from different raters, 1 / (m_u − 1) to o_ck; units with fewer than two values are
 * not pairable and are dropped), n_c = Σ_k o_ck and n = Σ_c n_c. Metrics:
 *   nominal δ² = [c ≠ k]; interval δ² = (c − k)²;
 *   ordinal δ²_ck = (Σ_{g from c to k} n_g − (n_c + n_k) / 2)², using the ranks of the values
 *   actually used (a grade no one uses has n_g = 0 and changes nothing).
 * Undefined (null) when there is no pairable value or no variation at all (D_e = 0).
 */
export type AlphaMetric = "nominal" | "ordinal" | "interval";

/** units[u][r]: rater r's value for unit u, null when missing. */
export function krippendorffAlpha(units: readonly (readonly (number | null)[])[], metric: AlphaMetric): number | null {
  return alphaFromUnits(
    units.map((u) => u.filter((v): v is number => v !== null)),
    metric,
  );
}

/**
 * α from each unit's values (one per rater who rated it, missing values left out): the same
 * coincidences as krippendorffAlpha without building a units × raters matrix (the dashboard's
 * human panel: 20,000 items, each graded by two of several annotators).
 */
export function alphaFromUnits(units: readonly (readonly number[])[], metric: AlphaMetric): number | null {
  const used = new Set<number>();
  for (const u of units) for (const v of u) used.add(v);
  const values = [...used].sort((a, b) => a - b);
  const index = new Map(values.map((v, i) => [v, i]));
  const V = values.length;
  const o = new Float64Array(V * V);
  for (const present of units) {
    const mu = present.length;
    if (mu < 2) continue;
    for (let a = 0; a < mu; a++)
      for (let b = 0; b < mu; b++) {
        if (a === b) continue;
        o[(index.get(present[a]) as number) * V + (index.get(present[b]) as number)] += 1 / (mu - 1);
      }
  }
  return alphaFromCoincidence(o, values, metric);
}

/** α from a V×V coincidence matrix over the ordered category values. */
export function alphaFromCoincidence(
  o: ArrayLike<number>,
  values: readonly number[],
  metric: AlphaMetric,
): number | null {
  const V = values.length;
  const nc = new Float64Array(V);
  let n = 0;
  for (let c = 0; c < V; c++) {
    for (let k = 0; k < V; k++) nc[c] += o[c * V + k];
    n += nc[c];
  }
  if (n <= 1) return null;
  const delta2 = (c: number, k: number): number => {
    if (c === k) return 0;
    if (metric === "nominal") return 1;
    if (metric === "interval") return (values[c] - values[k]) ** 2;
    const lo = Math.min(c, k);
    const hi = Math.max(c, k);
    let s = 0;
    for (let g = lo; g <= hi; g++) s += nc[g];
    return (s - (nc[c] + nc[k]) / 2) ** 2;
  };
  let dO = 0;
  let dE = 0;
  for (let c = 0; c < V; c++)
    for (let k = 0; k < V; k++) {
      if (c === k) continue;
      const d = delta2(c, k);
      dO += o[c * V + k] * d;
      dE += nc[c] * nc[k] * d;
    }
  if (dE === 0) return null;
  return 1 - ((n - 1) * dO) / dE;
}

/**
 * Two raters, no missing values, as a K×K confusion matrix m (rows: one rater, columns: the
 * other) over the category values: every pair is a unit with m_u = 2, so o = m + mᵀ.
 */
export function alphaFromConfusion(
  m: ArrayLike<number>,
  values: readonly number[],
  metric: AlphaMetric,
): number | null {
  const V = values.length;
  const o = new Float64Array(V * V);
  for (let i = 0; i < V; i++)
    for (let j = 0; j < V; j++) {
      o[i * V + j] += m[i * V + j];
      o[j * V + i] += m[i * V + j];
    }
  return alphaFromCoincidence(o, values, metric);
}
