import { describe, expect, it } from "vitest";
import { agreedGrade, decide, gradesAgree, type TRuleSettings } from "../../../lib/labels/rule.ts";

// Every expected value below is worked out by hand from the rule stated in lib/labels/rule.ts.
const any: TRuleSettings = { disagreementRule: "any_difference", startToleranceSeconds: 15, annotatorsPerItem: 2 };
const dist: TRuleSettings = { ...any, disagreementRule: "distance_two" };
const thr: TRuleSettings = { ...any, disagreementRule: "relevance_threshold" };
const l = (grade: number, startSeconds: number | null = null) => ({ grade, startSeconds });

describe("decide: completeness", () => {
  it("is incomplete with no labels or fewer than annotatorsPerItem", () => {
    expect(decide([], any)).toEqual({ state: "incomplete" });
    expect(decide([l(2, 10)], any)).toEqual({ state: "incomplete" });
    expect(decide([l(2, 10), l(2, 12)], { ...any, annotatorsPerItem: 3 })).toEqual({ state: "incomplete" });
  });
  it("decides a single label when one annotator per item is configured", () => {
    expect(decide([l(3, 42)], { ...any, annotatorsPerItem: 1 })).toEqual({
      state: "agreed",
      grade: 3,
      startSeconds: 42,
      endSeconds: null,
    });
  });
});

describe("decide: any_difference", () => {
  it("agrees on equal grades; start is the mean of the two starts", () => {
    // (100 + 110) / 2 = 105
    expect(decide([l(2, 100), l(2, 110)], any)).toEqual({
      state: "agreed",
      grade: 2,
      startSeconds: 105,
      endSeconds: null,
    });
  });
  it("disagrees on any grade difference", () => {
    expect(decide([l(2, 100), l(3, 100)], any)).toEqual({ state: "disagreed" });
    expect(decide([l(0), l(1, 5)], any)).toEqual({ state: "disagreed" });
  });
  it("treats starts exactly at the tolerance as agreeing, just beyond as disagreeing", () => {
    // |25 − 10| = 15 ≤ 15 → agreed, mean 17.5; |25.5 − 10| = 15.5 > 15 → disagreed
    expect(decide([l(3, 10), l(3, 25)], any)).toEqual({
      state: "agreed",
      grade: 3,
      startSeconds: 17.5,
      endSeconds: null,
    });
    expect(decide([l(3, 10), l(3, 25.5)], any)).toEqual({ state: "disagreed" });
    // float noise: 0.1 + 0.2 vs 15.3 differs by 15.000000000000002 → still within
    expect(decide([l(1, 0.1 + 0.2), l(1, 15.3)], any).state).toBe("agreed");
  });
  it("uses the project's tolerance", () => {
    expect(decide([l(2, 10), l(2, 14)], { ...any, startToleranceSeconds: 3 })).toEqual({ state: "disagreed" });
    expect(decide([l(2, 10), l(2, 13)], { ...any, startToleranceSeconds: 3 })).toEqual({
      state: "agreed",
      grade: 2,
      startSeconds: 11.5,
      endSeconds: null,
    });
  });
  it("ignores starts when both grade 0: agreed 0 with no start", () => {
    expect(decide([l(0, 10), l(0, 500)], any)).toEqual({
      state: "agreed",
      grade: 0,
      startSeconds: null,
      endSeconds: null,
    });
  });
  it("checks nothing when only one start is given; the start is that one", () => {
    expect(decide([l(2, 30), l(2, null)], any)).toEqual({
      state: "agreed",
      grade: 2,
      startSeconds: 30,
      endSeconds: null,
    });
    expect(decide([l(2, null), l(2, null)], any)).toEqual({
      state: "agreed",
      grade: 2,
      startSeconds: null,
      endSeconds: null,
    });
  });
});

describe("decide: distance_two", () => {
  it("agrees when grades differ by at most 1; grade is the lower one", () => {
    expect(decide([l(2, 40), l(3, 50)], dist)).toEqual({
      state: "agreed",
      grade: 2,
      startSeconds: 45,
      endSeconds: null,
    });
    expect(decide([l(1, 40), l(1, 40)], dist)).toEqual({
      state: "agreed",
      grade: 1,
      startSeconds: 40,
      endSeconds: null,
    });
  });
  it("disagrees when grades differ by 2 or more", () => {
    expect(decide([l(1, 40), l(3, 40)], dist)).toEqual({ state: "disagreed" });
    expect(decide([l(0), l(3, 40)], dist)).toEqual({ state: "disagreed" });
  });
  it("0 and 1 agree on 0; the grade-1 annotator's start does not count", () => {
    expect(decide([l(0, 5), l(1, 300)], dist)).toEqual({
      state: "agreed",
      grade: 0,
      startSeconds: null,
      endSeconds: null,
    });
  });
  it("still requires close starts when the agreed grade is relevant", () => {
    expect(decide([l(2, 40), l(3, 100)], dist)).toEqual({ state: "disagreed" });
  });
});

describe("decide: relevance_threshold", () => {
  it("agrees when both are relevant, whatever the grades; grade is the median rounded down", () => {
    // grades 1 and 3 → floor((1 + 3) / 2) = 2; starts 60 and 70 → mean 65
    expect(decide([l(1, 60), l(3, 70)], thr)).toEqual({
      state: "agreed",
      grade: 2,
      startSeconds: 65,
      endSeconds: null,
    });
    // grades 1 and 2 → floor(1.5) = 1
    expect(decide([l(1, 60), l(2, 70)], thr)).toEqual({
      state: "agreed",
      grade: 1,
      startSeconds: 65,
      endSeconds: null,
    });
  });
  it("agrees when both are 0", () => {
    expect(decide([l(0), l(0)], thr)).toEqual({ state: "agreed", grade: 0, startSeconds: null, endSeconds: null });
  });
  it("disagrees when the grade-1 line is crossed", () => {
    expect(decide([l(0), l(1, 60)], thr)).toEqual({ state: "disagreed" });
    expect(decide([l(3, 60), l(0)], thr)).toEqual({ state: "disagreed" });
  });
  it("disagrees on far-apart starts of a relevant item", () => {
    expect(decide([l(2, 0), l(2, 16)], thr)).toEqual({ state: "disagreed" });
  });
});

describe("decide: three annotators", () => {
  it("uses the median (2 of 2, 2, 3) and the mean of all three starts", () => {
    // median of [2, 2, 3] = 2; starts (10 + 12 + 14) / 3 = 12
    expect(decide([l(2, 10), l(3, 12), l(2, 14)], { ...dist, annotatorsPerItem: 3 })).toEqual({
      state: "agreed",
      grade: 2,
      startSeconds: 12,
      endSeconds: null,
    });
  });
});

describe("gradesAgree and agreedGrade", () => {
  it("match the definitions", () => {
    expect(gradesAgree([], "any_difference")).toBe(true);
    expect(gradesAgree([3, 3, 3], "any_difference")).toBe(true);
    expect(gradesAgree([1, 2, 2], "distance_two")).toBe(true);
    expect(gradesAgree([1, 2, 3], "distance_two")).toBe(false);
    expect(gradesAgree([1, 2, 3], "relevance_threshold")).toBe(true);
    expect(agreedGrade([3, 1])).toBe(2); // floor((1 + 3) / 2)
    expect(agreedGrade([2, 3])).toBe(2); // floor(2.5)
    expect(agreedGrade([0, 3, 3])).toBe(3); // odd count: the middle value
  });
});

describe("decide: answer ends", () => {
  const e = (grade: number, startSeconds: number | null, endSeconds: number | null) => ({
    grade,
    startSeconds,
    endSeconds,
  });
  it("an agreed end is the mean of the ends the relevant labels marked; ends never make a disagreement", () => {
    // Starts 10 and 20 (within 15): mean 15. Ends 40 and 100: far apart, still agreed; mean 70.
    expect(decide([e(3, 10, 40), e(3, 20, 100)], any)).toEqual({
      state: "agreed",
      grade: 3,
      startSeconds: 15,
      endSeconds: 70,
    });
    // One end marked: that end.
    expect(decide([e(2, 10, 30), e(2, 12, null)], any)).toEqual({
      state: "agreed",
      grade: 2,
      startSeconds: 11,
      endSeconds: 30,
    });
  });
  it("a grade-0 agreement has no end; a grade-0 label's end does not count (distance_two: 0 and 1 agree on 0)", () => {
    expect(decide([e(0, 10, 20), e(0, null, null)], any)).toEqual({
      state: "agreed",
      grade: 0,
      startSeconds: null,
      endSeconds: null,
    });
    expect(decide([e(0, 5, 9), e(1, 5, 9)], dist)).toEqual({
      state: "agreed",
      grade: 0,
      startSeconds: null,
      endSeconds: null,
    });
  });
});
