import { describe, expect, it } from "vitest";
import {
  binOf,
  brierScore,
  calibration,
  expectedCalibrationError,
  reliabilityBins,
  sampleConfidence,
} from "../../../lib/stats/calibration.ts";

const pairs = (p: number[], y: number[]) => p.map((confidence, i) => ({ confidence, outcome: y[i] === 1 }));

describe("confidence from samples", () => {
  it("is the share of graded samples at grade ≥ t, ungraded samples left out", () => {
    expect(sampleConfidence([0, 1, 2], 1)).toBeCloseTo(2 / 3, 12); // 1 and 2 are ≥ 1
    expect(sampleConfidence([0, 1, 2], 2)).toBeCloseTo(1 / 3, 12); // only 2
    expect(sampleConfidence([3, null, 0], 2)).toBe(0.5); // one of the two graded
    expect(sampleConfidence([null, null], 1)).toBeNull();
  });
});

describe("Brier score", () => {
  it("is the mean squared difference (scikit-learn's docstring example)", () => {
    // sklearn.metrics.brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]) = 0.0375:
    // (0.1² + 0.1² + 0.2² + 0.3²) / 4 = (0.01 + 0.01 + 0.04 + 0.09) / 4 = 0.15 / 4.
    expect(brierScore(pairs([0.1, 0.9, 0.8, 0.3], [0, 1, 1, 0]))).toBeCloseTo(0.0375, 12);
    expect(brierScore([])).toBeNull();
  });
});

describe("expected calibration error", () => {
  it("matches torchmetrics' binary_calibration_error docstring example (2 bins, l1)", () => {
    // Bin [0, 0.5): 0.25, 0.25 → confidence 0.25, accuracy 0 → |0 − 0.25|·2/5 = 0.1.
    // Bin [0.5, 1]: 0.55, 0.75, 0.75 → confidence 0.68333, accuracy 1 → 0.31667·3/5 = 0.19. ECE = 0.29.
    const p = pairs([0.25, 0.25, 0.55, 0.75, 0.75], [0, 0, 1, 1, 1]);
    expect(expectedCalibrationError(p, 2)).toBeCloseTo(0.29, 12);
    const bins = reliabilityBins(p, 2);
    expect(bins).toHaveLength(2);
    expect(bins[1].confidence).toBeCloseTo(2.05 / 3, 12);
    expect(bins[1]).toMatchObject({ low: 0.5, high: 1, accuracy: 1, count: 3 });
  });

  it("on three-sample shares in 10 bins: a hand derivation", () => {
    // Confidences from 3 samples: 0, 1/3, 2/3, 1 fall in bins 0, 3, 6, 9.
    // Pairs: (0, no) (0, yes) | (1/3, no) (1/3, no) (1/3, yes) | (2/3, yes) | (1, yes) (1, no)
    // bin 0: conf 0, acc 1/2, |·| = 0.5, weight 2/8 → 0.125
    // bin 3: conf 1/3, acc 1/3, 0
    // bin 6: conf 2/3, acc 1, 1/3 · 1/8 = 0.041667
    // bin 9: conf 1, acc 1/2, 0.5 · 2/8 = 0.125
    // ECE = 0.125 + 0.041667 + 0.125 = 0.291667
    // Brier: (0 + 1 + 1/9 + 1/9 + 4/9 + 1/9 + 0 + 1) / 8 = (2 + 7/9) / 8 = 25/72
    const p = pairs([0, 0, 1 / 3, 1 / 3, 1 / 3, 2 / 3, 1, 1], [0, 1, 0, 0, 1, 1, 1, 0]);
    const c = calibration(p);
    expect(c.ece).toBeCloseTo(0.125 + 1 / 24 + 0.125, 12);
    expect(c.brier).toBeCloseTo(25 / 72, 12);
    expect(c.baseRate).toBe(0.5);
    expect(c.bins.map((b) => [b.low, b.count])).toEqual([
      [0, 2],
      [0.3, 3],
      [0.6, 1],
      [0.9, 2],
    ]);
  });

  it("a perfectly calibrated forecaster has ECE 0; bins are [k/M, (k+1)/M) with 1 in the last", () => {
    expect(expectedCalibrationError(pairs([0.5, 0.5, 1, 0], [1, 0, 1, 0]))).toBe(0);
    expect(binOf(0.1, 10)).toBe(1);
    expect(binOf(0.0999, 10)).toBe(0);
    expect(binOf(1, 10)).toBe(9);
    expect(() => binOf(1.2, 10)).toThrow(RangeError);
    expect(calibration([])).toEqual({ n: 0, baseRate: null, brier: null, ece: null, bins: [] });
  });
});
