import { describe, expect, it } from "vitest";
import {
  afterMerge,
  afterSplit,
  defaultSplitAt,
  firstUnlabelled,
  initialAnswerForm,
  labelClaim,
  moveCursor,
} from "../../components/answers/form.ts";

/** The answer task's form (components/answers/form.ts): cursor over claims then the relevance step, relabelling after a merge or split. */
describe("the answer form", () => {
  const answer = { claimVersion: 1, claims: ["a", "b", "c"], own: null };

  it("labels claim by claim and reaches the relevance step after the last", () => {
    let f = initialAnswerForm(answer);
    expect(f).toEqual({ claimVersion: 1, labels: [null, null, null], relevance: null, cursor: 0, notes: "" });
    f = labelClaim(labelClaim(f, "s"), "p");
    expect([f.labels, f.cursor, firstUnlabelled(f)]).toEqual([["s", "p", null], 2, 2]);
    f = labelClaim(f, "x");
    expect([f.cursor, firstUnlabelled(f)]).toEqual([3, -1]);
    // At the relevance step a label key changes nothing; the cursor stays within 0..3.
    expect(labelClaim(f, "n")).toBe(f);
    expect(moveCursor(f, 1).cursor).toBe(3);
    expect(moveCursor(moveCursor(f, -1), -5).cursor).toBe(0);
  });

  it("opens on the own label when it is on the version shown, at the relevance step", () => {
    const f = initialAnswerForm({
      ...answer,
      own: { claimVersion: 1, claimLabels: ["s", "n", "x"], relevance: 2, notes: "mine" },
    });
    expect(f).toEqual({ claimVersion: 1, labels: ["s", "n", "x"], relevance: 2, cursor: 3, notes: "mine" });
  });

  it("a merge of claims 1 and 2 leaves one unlabelled claim in their place; a split two", () => {
    const f = {
      claimVersion: 1,
      labels: ["s" as const, "p" as const, "n" as const],
      relevance: 1,
      cursor: 3,
      notes: "",
    };
    expect(afterMerge(f, 0, 2)).toEqual({ ...f, claimVersion: 2, labels: [null, "n"], cursor: 0 });
    expect(afterSplit(f, 2, 2)).toEqual({ ...f, claimVersion: 2, labels: ["s", "p", null, null], cursor: 2 });
  });

  it("starts a split at the space nearest the middle", () => {
    // "Alpha beta gamma": length 16, middle 8 (in "beta"); the nearest spaces are 5 and 10: 10 is 2 away, 5 is 3.
    expect(defaultSplitAt("Alpha beta gamma")).toBe(10);
    expect(defaultSplitAt("abcdef")).toBe(3);
  });
});
