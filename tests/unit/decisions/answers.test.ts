import { describe, expect, it } from "vitest";
import {
  answerPopulation,
  answerSystemValues,
  answerValue,
  comparedAnswers,
  judgeErrorByBin,
  pickAnswerJudge,
} from "../../../lib/decisions/answers.ts";
import type { TAnswer, TLabels } from "../../../lib/dashboard/load/answers.ts";

const answer = (id: string, system: string, queryId: number): TAnswer => ({
  id,
  system,
  queryId,
  qid: `q${queryId}`,
  context: [],
});

/**
 * Three questions. q1: both generators answered, both answers labelled by people; q2: both
 * answered, nobody labelled; q3: only A answered (left out of the decision).
 *   A1 human s s n (faithfulness 2/3), judge s s s (1)
 *   B1 human s n n (1/3),              judge s n n (1/3)
 *   A2 judge s p (0.75; strict 0.5),   B2 no judge label
 *   A3 judge s
 */
const answers = [
  answer("A1", "A", 1),
  answer("B1", "B", 1),
  answer("A2", "A", 2),
  answer("B2", "B", 2),
  answer("A3", "A", 3),
];
const human = (claimLabels: ("s" | "p" | "n" | "x")[], relevance = 2) => ({ claimVersion: 1, claimLabels, relevance });
const labels: TLabels = {
  human: new Map([
    ["A1", human(["s", "s", "n"])],
    ["B1", human(["s", "n", "n"])],
  ]),
  judges: new Map([
    [
      "j",
      new Map([
        ["A1", { claimVersion: 1, claimLabels: ["s", "s", "s"], relevance: 3 }],
        ["B1", { claimVersion: 1, claimLabels: ["s", "n", "n"], relevance: null }],
        ["A2", { claimVersion: 1, claimLabels: ["s", "p"], relevance: 2 }],
        ["A3", { claimVersion: 1, claimLabels: ["s"], relevance: 1 }],
      ]),
    ],
  ]),
};

describe("an answer's value on a decision's measure", () => {
  it("is faithfulness with partial support at 0.5 or 0, or the relevance grade", () => {
    expect(answerValue({ claimLabels: ["s", "p", "n", "x"], relevance: 2 }, "faithfulness")).toBe(1.5 / 4);
    expect(answerValue({ claimLabels: ["s", "p", "n", "x"], relevance: 2 }, "faithfulness_strict")).toBe(1 / 4);
    expect(answerValue({ claimLabels: ["s"], relevance: 2 }, "relevance")).toBe(2);
  });
  it("counts an answer without claims as faithful, and has no value where the label lacks the part", () => {
    expect(answerValue({ claimLabels: [], relevance: 0 }, "faithfulness")).toBe(1);
    expect(answerValue({ claimLabels: null, relevance: 2 }, "faithfulness")).toBeNull();
    expect(answerValue({ claimLabels: ["s"], relevance: null }, "relevance")).toBeNull();
  });
});

describe("the judge's expected squared error by bin", () => {
  it("averages (human − judge)² in the judge's bin with one pseudo-answer at the prior (max/2)²", () => {
    // Faithfulness (max 1, prior 0.25). Bin [0.75, 1]: judge 1 vs human 2/3 → (1/3)² = 1/9, and
    // judge 0.8 vs human 0.8 → 0: (0.25 + 1/9 + 0) / 3. Bin [0.25, 0.5): judge 1/3 vs human 1/3 → 0:
    // (0.25 + 0) / 2. An empty bin: the prior alone. No judge value: the prior for each, (0.25 + 0.25) / 2.
    const e = judgeErrorByBin(
      [
        { human: 2 / 3, judge: 1 },
        { human: 0.8, judge: 0.8 },
        { human: 1 / 3, judge: 1 / 3 },
        { human: 0.5, judge: null },
      ],
      "faithfulness",
    );
    expect(e(0.9)).toBeCloseTo((0.25 + 1 / 9) / 3, 12);
    expect(e(0.3)).toBeCloseTo(0.125, 12);
    expect(e(0.1)).toBe(0.25);
    expect(e(null)).toBe(0.25);
    // Relevance (max 3, prior 2.25): bins are the grades.
    const r = judgeErrorByBin([{ human: 1, judge: 3 }], "relevance");
    expect(r(3)).toBeCloseTo((2.25 + 4) / 2, 12);
    expect(r(2)).toBe(2.25);
  });
});

describe("a decision between generators", () => {
  it("is about the questions every compared system answered", () => {
    expect([...comparedAnswers(answers, ["A", "B"])]).toEqual([
      [1, ["A1", "B1"]],
      [2, ["A2", "B2"]],
    ]);
    expect(() => comparedAnswers(answers, ["A", "C"], { strict: true })).toThrow(/no answers of system "C".*A, B/);
    // A stored decision whose answers were since deleted: no question left, no error (the report counts them missing).
    expect(comparedAnswers(answers, ["A", "C"])).toEqual(new Map());
  });

  it("picks the judge named, or the first", () => {
    expect(pickAnswerJudge(labels, undefined)).toBe("j");
    expect(() => pickAnswerJudge(labels, "k")).toThrow(/no answer judge named "k"; answer judges: j/);
    expect(pickAnswerJudge({ human: new Map(), judges: new Map() }, undefined)).toBeNull();
  });

  it("freezes q1 as certain and q2 with the root of its answers' expected squared errors", () => {
    const population = answerPopulation(answers, labels, ["A", "B"], "faithfulness", "j");
    // Calibration pairs (human, judge): A1 (2/3, 1) in bin 3, B1 (1/3, 1/3) in bin 1.
    // q2: A2's judge value 0.75 is in bin 3: (0.25 + 1/9) / 2; B2 has no judge value: the prior 0.25.
    const u = Math.sqrt((0.25 + 1 / 9) / 2 + 0.25);
    expect(population).toEqual([
      { queryId: 1, uncertainty: 0, certain: true },
      { queryId: 2, uncertainty: expect.closeTo(u, 12) as number, certain: false },
    ]);
  });

  it("predicts with the judge (a missing label by its system's mean) and takes people's values where all are labelled", () => {
    const population = answerPopulation(answers, labels, ["A", "B"], "faithfulness", "j");
    const [a, b] = answerSystemValues(answers, labels, {
      systems: ["A", "B"],
      measure: "faithfulness",
      judge: "j",
      population,
    });
    // q1 is certain: its prediction is the human value. q2: A2's judge value 0.75; B2 unjudged,
    // predicted by B's judged mean, B1's 1/3.
    expect(a.predicted).toEqual(
      new Map([
        [1, 2 / 3],
        [2, 0.75],
      ]),
    );
    expect(b.predicted).toEqual(
      new Map([
        [1, 1 / 3],
        [2, 1 / 3],
      ]),
    );
    expect(a.human).toEqual(
      new Map([
        [1, 2 / 3],
        [2, null],
      ]),
    );
    expect(b.human).toEqual(
      new Map([
        [1, 1 / 3],
        [2, null],
      ]),
    );
  });
});
