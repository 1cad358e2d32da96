import { describe, expect, it } from "vitest";
import { checkAccuracy, wilsonInterval, type TCheckGrade } from "../../../lib/stats/annotators-checks.ts";

describe("accuracy on hidden check items", () => {
  it("gives Wilson's score interval (hand derivation)", () => {
    // 8 of 10, z = 1.959964 (z² = 3.841459): centre = (0.8 + z²/20) / (1 + z²/10) = 0.992073 / 1.384146
    // = 0.716741; half = z / 1.384146 · √(0.8·0.2/10 + z²/400) = 1.416012 · 0.160011 = 0.226578
    // → [0.490163, 0.943318] (the interval usually quoted for 8/10, e.g. Newcombe 1998's method 3).
    const w = wilsonInterval(8, 10);
    expect(w.low).toBeCloseTo(0.490163, 5);
    expect(w.high).toBeCloseTo(0.943318, 5);
    // 11 of 11: centre = (1 + z²/22) / (1 + z²/11) = 1.174612 / 1.349224 = 0.870584; half = z / 1.349224 ·
    // √(z²/484) = 1.452660 · 0.089089 = 0.129417 → [0.741167, 1].
    const all = wilsonInterval(11, 11);
    expect(all.low).toBeCloseTo(0.741167, 5);
    expect(all.high).toBe(1);
    // 0 of 11: the mirror image.
    const none = wilsonInterval(0, 11);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(1 - 0.741167, 5);
  });

  it("gives exact agreement and the mean signed difference per annotator, and no number under the minimum", () => {
    const grades: TCheckGrade[] = [];
    // "a": 10 checks on 5 questions; grades equal the reference on 8, one above by 1, one below by 2.
    for (let i = 0; i < 10; i++)
      grades.push({ annotator: "a", qid: `q${i % 5}`, reference: 2, grade: i === 0 ? 3 : i === 1 ? 0 : 2 });
    // "b": 9 checks, one short of the default minimum of 10.
    for (let i = 0; i < 9; i++) grades.push({ annotator: "b", qid: "q1", reference: 1, grade: 1 });
    const rows = checkAccuracy(grades);
    expect(rows.map((r) => r.annotator)).toEqual(["a", "b"]);
    const a = rows[0];
    if ("reason" in a) throw new Error(a.reason);
    expect(a).toMatchObject({ n: 10, questions: 5, exact: 0.8 });
    // (+1 − 2 + 8 · 0) / 10 = −0.1
    expect(a.meanSignedDifference).toBeCloseTo(-0.1, 12);
    expect(a.exactInterval.low).toBeCloseTo(0.490163, 5);
    expect(rows[1]).toEqual({ annotator: "b", n: 9, questions: 1, reason: "9 check grades: fewer than 10" });
    // With a lower minimum, b gets a number.
    expect(checkAccuracy(grades, { minChecks: 5 })[1]).toMatchObject({ n: 9, exact: 1, meanSignedDifference: 0 });
    expect(checkAccuracy([])).toEqual([]);
  });
});
