import { describe, expect, it } from "vitest";
import { median } from "../../../lib/stats/median.ts";

// numpy.median's definition: the middle value, or the mean of the two middle values for an even
// count. Values worked by hand.
describe("median", () => {
  it("is null for no values, the middle one for an odd count, the mean of the middle two for an even one", () => {
    expect(median([])).toBeNull();
    expect(median([7])).toBe(7);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it("orders numerically, not as text, and leaves its input as it was", () => {
    const xs = [10, 9, 100, 2];
    expect(median(xs)).toBe(9.5);
    expect(xs).toEqual([10, 9, 100, 2]);
  });
});
