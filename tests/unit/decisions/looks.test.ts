import { describe, expect, it } from "vitest";
import { decisionLooks, informationFractions, plannedFractions } from "../../../lib/decisions/looks.ts";
import { plannedSpread, type TPopulationEntry, type TSystemValues } from "../../../lib/decisions/model.ts";

// Three uncertain questions (1, 2, 3) and one completely labelled before the decision (4); N = 4.
const entries: TPopulationEntry[] = [
  { queryId: 1, uncertainty: 0.2, certain: false },
  { queryId: 2, uncertainty: 0.1, certain: false },
  { queryId: 3, uncertainty: 0.3, certain: false },
  { queryId: 4, uncertainty: 0, certain: true },
];
const half = { "1": 0.5, "2": 0.5, "3": 0.5 };
const batches = [
  { drawn: [1], probabilities: { "1": 0.5, "2": 0.25, "3": 0.5 } },
  { drawn: [1], probabilities: half },
  { drawn: [3], probabilities: half },
  { drawn: [2], probabilities: half },
];

describe("plannedFractions (information time from the design's expected variance)", () => {
  it("follows t = (s²/N) / (s²/N + Σ u²(1/π − 1)/N²), derived by hand", () => {
    // s² = 0.04, so s²/N = 0.01.
    // Batch 1: π = 0.5, 0.25, 0.5; Σ u²(1/π − 1) = 0.04·1 + 0.01·3 + 0.09·1 = 0.16; /16 = 0.01;
    //   t = 0.01 / 0.02 = 0.5.
    // Batch 2 draws no new question: the same look, t = 0.5.
    // Batch 3: π = 1 − 0.5·0.5·0.5 = 0.875, 1 − 0.75·0.5·0.5 = 0.8125, 0.875;
    //   Σ = 0.04·(1/0.875 − 1) + 0.01·(1/0.8125 − 1) + 0.09·(1/0.875 − 1) = 0.0208791;
    //   /16 = 0.00130495; t = 0.01 / 0.01130495 = 0.884569.
    // Batch 4 draws the last uncertain question: t = 1.
    const t = plannedFractions(entries, 0.04, batches);
    expect(t[0]).toBeCloseTo(0.5, 12);
    expect(t[1]).toBe(t[0]);
    expect(t[2]).toBeCloseTo(0.8845686512758203, 12);
    expect(t[3]).toBe(1);
  });

  it("reaches a large fraction early when the judge's errors are small against the questions' spread", () => {
    const sure = entries.map((e) => ({ ...e, uncertainty: e.uncertainty / 10 }));
    const t = plannedFractions(sure, 0.04, batches);
    // Σ u²(1/π − 1) is 100 times smaller at batch 1: 0.0016/16 = 0.0001; t = 0.01/0.0101.
    expect(t[0]).toBeCloseTo(0.01 / 0.0101, 12);
    // The counted fraction of the same batch: (1 certain + 1 drawn) / 4.
    expect(informationFractions(4, 1, batches)[0]).toBe(0.5);
  });

  it("starts at 0 before anything is drawn and is 1 when nothing is uncertain", () => {
    expect(plannedFractions(entries, 0.04, [{ drawn: [], probabilities: half }])).toEqual([0]);
    const known = entries.map((e) => ({ ...e, uncertainty: 0 }));
    expect(plannedFractions(known, 0, [batches[0]])).toEqual([1]);
  });

  it("gives the looks of the spending function at those fractions", () => {
    const looks = decisionLooks(plannedFractions(entries, 0.04, batches), { family: "hsd", gamma: -4 }, 0.05).looks;
    // Three distinct looks (batch 2 is batch 1's), at t = 0.5, 0.884569, 1; all of α spent at t = 1.
    expect(looks.map((l) => l.t)).toEqual([0.5, expect.closeTo(0.884569, 6), 1]);
    expect(looks[2].spent).toBeCloseTo(0.05, 12);
    // HSD(−4) at t = 0.5: 0.05 · (e² − 1)/(e⁴ − 1) = 0.05 · 6.389056/53.598150 = 0.0059601.
    expect(looks[0].spent).toBeCloseTo(0.0059601, 6);
  });
});

describe("plannedSpread", () => {
  it("is the predictions' variance (largest over the pairs) plus mean(u²), derived by hand", () => {
    const values: TSystemValues[] = [
      {
        system: "A",
        predicted: new Map([
          [1, 0.5],
          [2, 0.7],
          [3, 0.4],
          [4, 0.6],
        ]),
        human: new Map(),
      },
      {
        system: "B",
        predicted: new Map([
          [1, 0.3],
          [2, 0.3],
          [3, 0.4],
          [4, 0.2],
        ]),
        human: new Map(),
      },
    ];
    // Differences 0.2, 0.4, 0, 0.4: mean 0.25, variance (0.0025 + 0.0225 + 0.0625 + 0.0225)/4 = 0.0275;
    // mean(u²) = (0.04 + 0.01 + 0.09 + 0)/4 = 0.035; s² = 0.0625.
    expect(plannedSpread(entries, values)).toBeCloseTo(0.0625, 12);
    expect(plannedSpread([], values)).toBe(0);
  });
});
