/**
 * Binary agreement at a relevance threshold: both grades are mapped to relevant (grade ≥ t) or not,
 * then raw agreement, Cohen's kappa and Krippendorff's alpha (nominal; with two categories every
 * metric gives the same alpha) are computed on the 2×2 table. Undefined values are null.
 */
import { K, type Confusion } from "./confusion.ts";
import { alphaFromConfusion } from "./krippendorff.ts";

export type BinaryAgreement = { agreement: number | null; kappa: number | null; alpha: number | null };

export function binaryTable(m: Confusion, threshold: number): Float64Array {
  const b = new Float64Array(4);
  for (let r = 0; r < K; r++)
    for (let c = 0; c < K; c++) {
      const v = m[r * K + c];
      if (v) b[(r >= threshold ? 2 : 0) + (c >= threshold ? 1 : 0)] += v;
    }
  return b;
}

export function binaryAgreement(m: Confusion, threshold: number): BinaryAgreement {
  const b = binaryTable(m, threshold);
  const n = b[0] + b[1] + b[2] + b[3];
  if (n === 0) return { agreement: null, kappa: null, alpha: null };
  const po = (b[0] + b[3]) / n;
  const r1 = (b[2] + b[3]) / n;
  const c1 = (b[1] + b[3]) / n;
  const pe = r1 * c1 + (1 - r1) * (1 - c1);
  const kappa = 1 - pe <= 1e-15 ? null : (po - pe) / (1 - pe);
  return { agreement: po, kappa, alpha: alphaFromConfusion(b, [0, 1], "nominal") };
}
