import { describe, expect, it } from "vitest";
import { pearson, residualShare } from "../../../lib/stats/correlation.ts";

describe("pearson and residualShare", () => {
  it("match values derived by hand", () => {
    // (1, 1), (2, 3), (3, 2): means 2 and 2; Σ(x − x̄)(y − ȳ) = 1 + 0 + 0 = 1, Σ(x − x̄)² = 2,
    // Σ(y − ȳ)² = 2, so r = 1 / √4 = 0.5.
    const xy: [number, number][] = [
      [1, 1],
      [2, 3],
      [3, 2],
    ];
    expect(pearson(xy)).toBeCloseTo(0.5, 12);
    expect(pearson(xy.map(([x]) => [x, 2 * x + 1] as [number, number]))).toBeCloseTo(1, 12);
    // f = x as the prediction of y: squared errors 0 + 1 + 1 = 2 over Σ(y − ȳ)² = 2: the share 1.
    expect(residualShare(xy)).toBeCloseTo(1, 12);
    // The least-squares line of y on x, y = 1 + 0.5x, predicts 1.5, 2, 2.5: errors 0.25 + 1 + 0.25
    // = 1.5 over 2 = 0.75 = 1 − r².
    expect(residualShare(xy.map(([x, y]) => [1 + 0.5 * x, y] as [number, number]))).toBeCloseTo(0.75, 12);
  });
});
