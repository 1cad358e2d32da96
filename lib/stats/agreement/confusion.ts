/**
 * The 4×4 confusion matrix of two raters on the fixed 0–3 scale (rows: reference, columns: the
 * other) and the descriptive statistics read off it. Every agreement statistic of the report is a
 * function of this matrix, which is what makes resampling whole queries cheap.
 */
export const GRADES = [0, 1, 2, 3] as const;
export const K = GRADES.length;

/** Row-major K×K counts: m[r * K + c] = pairs with reference r and other c. */
export type Confusion = Float64Array;

export function emptyConfusion(): Confusion {
  return new Float64Array(K * K);
}

export function confusionOf(pairs: Iterable<{ reference: number; other: number }>): Confusion {
  const m = emptyConfusion();
  for (const p of pairs) {
    if (
      !Number.isInteger(p.reference) ||
      !Number.isInteger(p.other) ||
      p.reference < 0 ||
      p.reference >= K ||
      p.other < 0 ||
      p.other >= K
    )
      throw new RangeError(`grade outside 0–3: ${p.reference} / ${p.other}`);
    m[p.reference * K + p.other]++;
  }
  return m;
}

/** Sum of the cells, left to right (a loop: called for every bootstrap resample). */
export function total(m: Confusion): number {
  let n = 0;
  for (let i = 0; i < m.length; i++) n += m[i];
  return n;
}

export function toRows(m: Confusion): number[][] {
  return GRADES.map((r) => GRADES.map((c) => m[r * K + c]));
}

/** Share of pairs with the same grade; null without pairs. */
export function rawAgreement(m: Confusion): number | null {
  const n = total(m);
  if (n === 0) return null;
  let same = 0;
  for (let g = 0; g < K; g++) same += m[g * K + g];
  return same / n;
}

/** Share of pairs whose grades differ by at most one; null without pairs. */
export function withinOne(m: Confusion): number | null {
  const n = total(m);
  if (n === 0) return null;
  let ok = 0;
  for (let r = 0; r < K; r++) for (let c = 0; c < K; c++) if (Math.abs(r - c) <= 1) ok += m[r * K + c];
  return ok / n;
}

/** mean(other − reference): positive when the other rater grades more generously. */
export function leniency(m: Confusion): number | null {
  const n = total(m);
  if (n === 0) return null;
  let s = 0;
  for (let r = 0; r < K; r++) for (let c = 0; c < K; c++) s += (c - r) * m[r * K + c];
  return s / n;
}

export type GradeScores = { precision: number | null; recall: number | null; support: number };

/**
 * Per-grade precision and recall with the reference as truth (as scikit-learn's
 * precision_recall_fscore_support(reference, other, labels=[0,1,2,3])): precision = pairs the other
 * rater put in grade g that the reference also put there ÷ all the other rater put in g; recall =
 * the same ÷ all the reference put in g; support = reference count of g. Where the divisor is 0 the
 * value is undefined and reported as null (scikit-learn reports 0 with a warning).
 */
export function perGrade(m: Confusion): Record<string, GradeScores> {
  const out: Record<string, GradeScores> = {};
  for (const g of GRADES) {
    let row = 0;
    let col = 0;
    for (let k = 0; k < K; k++) {
      row += m[g * K + k];
      col += m[k * K + g];
    }
    const tp = m[g * K + g];
    out[String(g)] = { precision: col === 0 ? null : tp / col, recall: row === 0 ? null : tp / row, support: row };
  }
  return out;
}
