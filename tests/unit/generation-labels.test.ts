import { describe, expect, it } from "vitest";
import { decideAnswer, finalAnswerLabel, parseClaimLabels, type TAnswerLabelInput } from "../../lib/answers/labels.ts";
import type { TRuleSettings } from "../../lib/labels/rule.ts";

const any: TRuleSettings = { disagreementRule: "any_difference", startToleranceSeconds: 15, annotatorsPerItem: 2 };
const near: TRuleSettings = { ...any, disagreementRule: "distance_two" };
const l = (claimLabels: TAnswerLabelInput["claimLabels"], relevance: number, claimVersion = 1): TAnswerLabelInput => ({
  claimVersion,
  claimLabels,
  relevance,
});

describe("answer labels: the rule", () => {
  it("waits for the required number of labels", () => {
    expect(decideAnswer([], any)).toEqual({ state: "incomplete" });
    expect(decideAnswer([l(["s"], 3)], any)).toEqual({ state: "incomplete" });
  });
  it("agrees when every claim label and the relevance agree", () => {
    expect(decideAnswer([l(["s", "n"], 2), l(["s", "n"], 2)], any)).toEqual({
      state: "agreed",
      claimVersion: 1,
      claimLabels: ["s", "n"],
      relevance: 2,
    });
  });
  it("claim labels are categories: any difference disagrees, under every rule", () => {
    expect(decideAnswer([l(["s", "p"], 2), l(["s", "s"], 2)], near)).toEqual({ state: "disagreed" });
    expect(decideAnswer([l(["n"], 2), l(["x"], 2)], near)).toEqual({ state: "disagreed" });
  });
  it("relevance follows the project's disagreement rule; the agreed relevance is the median rounded down", () => {
    expect(decideAnswer([l(["s"], 2), l(["s"], 3)], any)).toEqual({ state: "disagreed" });
    // distance_two: |2 − 3| = 1 agrees, floor((2 + 3) / 2) = 2.
    expect(decideAnswer([l(["s"], 2), l(["s"], 3)], near)).toEqual({
      state: "agreed",
      claimVersion: 1,
      claimLabels: ["s"],
      relevance: 2,
    });
    expect(decideAnswer([l(["s"], 1), l(["s"], 3)], near)).toEqual({ state: "disagreed" });
  });
  it("labels of different claim versions (an annotator merged or split a claim) disagree", () => {
    expect(decideAnswer([l(["s", "s"], 3, 1), l(["s", "s"], 3, 2)], any)).toEqual({ state: "disagreed" });
  });
  it("an adjudication wins; a disputed answer has no final label until adjudicated", () => {
    const labels = [l(["s"], 3), l(["s"], 3)];
    expect(finalAnswerLabel({ labels, adjudication: null, disputed: true }, any)).toBeNull();
    expect(finalAnswerLabel({ labels, adjudication: null, disputed: false }, any)).toEqual({
      claimVersion: 1,
      claimLabels: ["s"],
      relevance: 3,
      status: "agreed",
    });
    expect(finalAnswerLabel({ labels, adjudication: l(["p"], 1, 2), disputed: true }, any)).toEqual({
      claimVersion: 2,
      claimLabels: ["p"],
      relevance: 1,
      status: "adjudicated",
    });
  });
  it("parses stored labels strictly", () => {
    expect(parseClaimLabels('["s","p","n","x"]')).toEqual(["s", "p", "n", "x"]);
    expect(() => parseClaimLabels('["y"]')).toThrow();
  });
});
