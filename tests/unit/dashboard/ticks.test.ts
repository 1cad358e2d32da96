import { describe, expect, it } from "vitest";
import { niceScale } from "../../../lib/dashboard/ticks.ts";

describe("niceScale", () => {
  it("κ axis [−0.2, 1]: steps of 0.2 (1.2 / 6 = 0.2), zero among the ticks", () => {
    expect(niceScale(-0.2, 1)).toEqual({ domain: [-0.2, 1], ticks: [-0.2, 0, 0.2, 0.4, 0.6, 0.8, 1] });
  });
  it("[0, 1]: 1 / 6 = 0.167 rounds up to the step 0.2", () => {
    expect(niceScale(0, 1).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
  it("[0, 150] seconds: 150 / 6 = 25, a step of 2.5 × 10", () => {
    expect(niceScale(0, 150).ticks).toEqual([0, 25, 50, 75, 100, 125, 150]);
  });
  it("widens an odd maximum to a whole step: [0, 37.3] → 37.3 / 6 = 6.2 → step 10, domain [0, 40]", () => {
    expect(niceScale(0, 37.3)).toEqual({ domain: [0, 40], ticks: [0, 10, 20, 30, 40] });
  });
  it("an empty range still gives an axis", () => {
    expect(niceScale(0, 0)).toEqual({ domain: [0, 1], ticks: [0, 1] });
  });
});
