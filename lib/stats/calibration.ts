/**
 * Calibration of a judge's confidence against the human reference, at one relevance threshold t
 * (grade ≥ 1, grade ≥ 2): the event is "the human reference grade is ≥ t", the forecast is the
 * judge's probability of that event.
 *
 * - Confidence per pair: with several samples per pair (`judge run --samples N`), the share of the
 *   pair's graded samples at grade ≥ t (`sampleConfidence`); a pair with no graded sample has none.
 * - Brier score (Brier 1950): mean over pairs of (p − y)², y ∈ {0, 1}; the definition of
 *   scikit-learn's `sklearn.metrics.brier_score_loss` (scikit-learn/scikit-learn@004db5278cc3,
 *   sklearn/metrics/_classification.py; its docstring example y = [0, 1, 1, 0],
 *   p = [0.1, 0.9, 0.8, 0.3] gives 0.0375, tests/unit/stats/calibration.test.ts).
 * - Expected calibration error (Naeini, Cooper & Hauskrecht 2015; Guo et al. 2017 §2): the pairs
 *   are put into M equal-width bins of confidence, and ECE = Σ_b (n_b / N) · |acc_b − conf_b|, with
 *   acc_b the share of the bin's pairs whose event happened and conf_b the bin's mean confidence;
 *   M = 10 by default. This is the binary ("positive class") form of torchmetrics'
 *   `binary_calibration_error(preds, target, n_bins, norm="l1")` (Lightning-AI/torchmetrics@dab0333,
 *   src/torchmetrics/functional/classification/calibration_error.py: confidences = preds,
 *   accuracies = target; its docstring example gives 0.29 with 2 bins, tested here). Bins are
 *   [k/M, (k+1)/M) and the last one [(M−1)/M, 1] closed: torchmetrics' `bucketize(right=True)` puts a
 *   confidence of exactly 1 in a bin of its own; the two agree unless a bin holds both 1 and
 *   confidences in [(M−1)/M, 1), which shares of at most M − 1 samples never do.
 * - Reliability diagram: per non-empty bin, its mean confidence, its accuracy and its count.
 */

export type TCalibrationPair = { confidence: number; outcome: boolean };
export type TReliabilityBin = { low: number; high: number; confidence: number; accuracy: number; count: number };
export type TCalibration = {
  n: number;
  /** Share of pairs whose event happened (the human base rate at this threshold). */
  baseRate: number | null;
  brier: number | null;
  ece: number | null;
  bins: TReliabilityBin[];
};

export const DEFAULT_BINS = 10;

/** The share of a pair's graded samples at grade ≥ t; null when none is graded. */
export function sampleConfidence(grades: readonly (number | null)[], t: number): number | null {
  let graded = 0;
  let at = 0;
  for (const g of grades) {
    if (g === null) continue;
    graded++;
    if (g >= t) at++;
  }
  return graded ? at / graded : null;
}

/** Brier score: mean of (p − y)² (sklearn.metrics.brier_score_loss); null without pairs. */
export function brierScore(pairs: readonly TCalibrationPair[]): number | null {
  if (pairs.length === 0) return null;
  let s = 0;
  for (const p of pairs) s += (p.confidence - (p.outcome ? 1 : 0)) ** 2;
  return s / pairs.length;
}

/** The bin of a confidence in M equal-width bins over [0, 1], the last one closed. */
export function binOf(confidence: number, bins: number): number {
  if (!(confidence >= 0 && confidence <= 1)) throw new RangeError(`confidence ${confidence} is not in [0, 1]`);
  return Math.min(bins - 1, Math.floor(confidence * bins));
}

/** Reliability diagram points: per non-empty bin, mean confidence, accuracy and count. */
export function reliabilityBins(pairs: readonly TCalibrationPair[], bins = DEFAULT_BINS): TReliabilityBin[] {
  if (!Number.isInteger(bins) || bins < 1) throw new RangeError(`bins: expected a whole number ≥ 1, got ${bins}`);
  const count = new Array<number>(bins).fill(0);
  const conf = new Array<number>(bins).fill(0);
  const hits = new Array<number>(bins).fill(0);
  for (const p of pairs) {
    const b = binOf(p.confidence, bins);
    count[b]++;
    conf[b] += p.confidence;
    if (p.outcome) hits[b]++;
  }
  const out: TReliabilityBin[] = [];
  for (let b = 0; b < bins; b++)
    if (count[b])
      out.push({
        low: b / bins,
        high: (b + 1) / bins,
        confidence: conf[b] / count[b],
        accuracy: hits[b] / count[b],
        count: count[b],
      });
  return out;
}

/** ECE = Σ_b (n_b / N)·|acc_b − conf_b| over equal-width bins; null without pairs. */
export function expectedCalibrationError(pairs: readonly TCalibrationPair[], bins = DEFAULT_BINS): number | null {
  if (pairs.length === 0) return null;
  let s = 0;
  for (const b of reliabilityBins(pairs, bins)) s += (b.count / pairs.length) * Math.abs(b.accuracy - b.confidence);
  return s;
}

export function calibration(pairs: readonly TCalibrationPair[], bins = DEFAULT_BINS): TCalibration {
  const n = pairs.length;
  return {
    n,
    baseRate: n ? pairs.filter((p) => p.outcome).length / n : null,
    brier: brierScore(pairs),
    ece: expectedCalibrationError(pairs, bins),
    bins: reliabilityBins(pairs, bins),
  };
}
