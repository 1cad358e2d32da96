import { describe, expect, it } from "vitest";
import { calibrationAdvice } from "../../../lib/dashboard/calibration.ts";

/** Target 150 labels, at least 10 per grade (the project defaults). */
const base = {
  target: 150,
  minPerGrade: 10,
  labelled: 120,
  thinGrades: [3],
  suggestedSample: 30,
  unassigned: 40,
  waiting: 0,
  awaitingAdjudication: 0,
};

describe("calibration advice from the counts", () => {
  it("samples while the pool has unassigned items", () => {
    expect(calibrationAdvice(base)).toEqual({
      action: "sample",
      text: "120 of the 150 human labels the target asks for; fewer than 10 examples of grade 3: sample 30 more items (40 unassigned in the pool).",
    });
  });
  it("names the pool items with an imported label apart from the unassigned ones (the stage counts of assessor status), and samples them when nothing else is left", () => {
    expect(calibrationAdvice({ ...base, regradable: 7 }).text).toMatch(
      /\(40 unassigned in the pool, 7 more with an imported label to re-grade\)\.$/,
    );
    expect(calibrationAdvice({ ...base, unassigned: 0, regradable: 7 })).toMatchObject({
      action: "sample",
      text: expect.stringContaining("(0 unassigned in the pool, 7 more"),
    });
  });
  it("asks to finish the assigned items when nothing is left to sample (the Sample button is disabled then)", () => {
    const a = calibrationAdvice({ ...base, unassigned: 0, suggestedSample: 0, waiting: 12, awaitingAdjudication: 3 });
    expect(a.action).toBe("finish");
    expect(a.text).toContain(
      "finish the 12 assigned items still waiting for grades and adjudicate the 3 disagreements first",
    );
  });
  it("asks to deepen the pool when every pool item is labelled", () => {
    const a = calibrationAdvice({ ...base, unassigned: 0, suggestedSample: 0 });
    expect(a.action).toBe("deepen");
    expect(a.text).toMatch(/^120 of the 150 .*Every pool item is labelled: deepen the pool/);
  });
  it("asks to reopen grading when the lead closed it (nothing can be sampled or graded), adjudication meanwhile", () => {
    expect(calibrationAdvice({ ...base, gradingClosed: true, awaitingAdjudication: 1 })).toEqual({
      action: "reopen",
      text: "120 of the 150 human labels the target asks for; fewer than 10 examples of grade 3. Grading is closed in this project: reopen it (npx assessor project reopen-grading, or Grading on the project page) to sample or finish items; meanwhile, adjudicate the 1 disagreement.",
    });
    expect(calibrationAdvice({ ...base, gradingClosed: true, labelled: 150, thinGrades: [] }).action).toBe("done");
  });
  it("says so when the target and every grade's minimum are reached, whatever the pool", () => {
    expect(calibrationAdvice({ ...base, labelled: 150, thinGrades: [], unassigned: 0 })).toEqual({
      action: "done",
      text: "Calibration target reached: 150 human labels, at least 10 of every grade.",
    });
  });
});
