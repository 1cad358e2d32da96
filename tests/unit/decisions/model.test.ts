import { describe, expect, it } from "vitest";
import { normalCdf } from "../../../lib/stats/normal.ts";
import {
  decisionResidualScale,
  decisionState,
  residualScale,
  type TSystemValues,
} from "../../../lib/decisions/model.ts";
import {
  calibration,
  discriminatingChunks,
  knownGrade,
  questionUncertainty,
  rankWeighting,
} from "../../../lib/decisions/design.ts";
import { planQuestions } from "../../../lib/decisions/plan.ts";

/** Student's t CDF with 3 degrees of freedom in closed form (independent of lib/stats/student-t.ts). */
const studentT3Cdf = (t: number) =>
  0.5 + (t / (Math.sqrt(3) * (1 + (t * t) / 3)) + Math.atan(t / Math.sqrt(3))) / Math.PI;

const values = (system: string, predicted: [number, number][], human: [number, number | null][]): TSystemValues => ({
  system,
  predicted: new Map(predicted),
  human: new Map(human),
});

describe("decisionState", () => {
  // Differences A − B: q1 certain with human 0.2; q2–q4 predicted 0.1 each, offered with p 0.5 per batch.
  const A = values(
    "A",
    [
      [1, 0.7],
      [2, 0.6],
      [3, 0.6],
      [4, 0.6],
    ],
    [
      [1, 0.7],
      [2, 0.8],
      [3, 0.9],
      [4, null],
    ],
  );
  const B = values(
    "B",
    [
      [1, 0.5],
      [2, 0.5],
      [3, 0.5],
      [4, 0.5],
    ],
    [
      [1, 0.5],
      [2, 0.5],
      [3, 0.5],
      [4, null],
    ],
  );
  const population = [
    { queryId: 1, uncertainty: 0, certain: true },
    ...[2, 3, 4].map((q) => ({ queryId: q, uncertainty: 1, certain: false })),
  ];
  const batch = (look: number, drawn: number[]) => ({
    look,
    budget: 1,
    tau: 0.5,
    probabilities: { "2": 0.5, "3": 0.5, "4": 0.5 },
    drawn,
  });
  const state = (batches: ReturnType<typeof batch>[]) =>
    decisionState(
      { systems: ["A", "B"], margin: 0, level: 0.95, population, batches, lambda: 1, spending: { family: "obf" } },
      [A, B],
    );

  it("combines a certain question, a drawn one and undrawn ones as derived by hand, at the first look's boundary", () => {
    // Look 1: q2 drawn (human 0.3). Terms: 0.2; 0.1 + (0.3 − 0.1)/0.5 = 0.5; 0.1; 0.1 → mean 0.225;
    // deviations −0.025, 0.275, −0.125, −0.125, Σ² 0.1075, std √(0.1075/4) = 0.163936, se 0.081968.
    // Information fraction t = (1 certain + 1 drawn) / 4 = 0.5. O'Brien–Fleming-type spending (named
    // here), each side 2 − 2Φ(z_{0.9875}/√0.5) = 2Φ(−3.169846) = 0.0015253; a first look's boundary
    // is the plain quantile: z₁ = Φ⁻¹(1 − 0.0015253) = 2.962588. The half-width is Student's at that
    // nominal level with N − 1 = 3 degrees of freedom, times √(4/3): t₃ with upper tail 0.0015253 is
    // 8.840482 (t₃'s closed-form CDF, checked below), × 1.154701 = 10.208106 → 0.225 ± 0.836738 =
    // [−0.611738, 1.061738]: open (at a fixed 95% normal interval it would have settled:
    // 0.225 − 1.96·0.081968 = 0.0643 > 0).
    const s = state([batch(1, [2])]);
    const e = s.pairs[0].estimate!;
    expect(e.estimate).toBeCloseTo(0.225, 10);
    expect(e.se).toBeCloseTo(0.081968, 6);
    expect(s.looks[0].t).toBe(0.5);
    expect(s.looks[0].spent).toBeCloseTo(2 * 0.0015253, 6);
    expect(s.looks[0].z).toBeCloseTo(2.962588, 5);
    expect(e.z).toBeCloseTo(10.208106, 5);
    expect(1 - studentT3Cdf(e.z / Math.sqrt(4 / 3))).toBeCloseTo(normalCdf(-s.looks[0].z), 10);
    expect(e.low).toBeCloseTo(-0.611738, 5);
    expect(e.high).toBeCloseTo(1.061738, 5);
    expect(s.status).toBe("open");
    expect(s.spending).toBe("obf");
  });

  it("settles at a later look whose boundary spends only its own increment", () => {
    // Look 2 draws q3: t = 3/4. Spent by then 4Φ(−2.241403/√0.75) = 0.0192986, of which look 2
    // spends 0.0192986 − 0.0030506 = 0.0162480. z₂ solves P(|Z₁| < z₁, |Z₂| ≥ z₂) = 0.0162480 with
    // Corr(Z₁, Z₂) = √(0.5/0.75): checked here by an independent integral (Simpson, 4000 steps, of
    // φ(x) · [Φ(−(z₂ − ρx)/√(1−ρ²)) + Φ(−(z₂ + ρx)/√(1−ρ²))] over |x| < z₁).
    const s = state([batch(1, [2]), batch(2, [3])]);
    expect(s.look).toBe(2);
    expect(s.looks[0].z).toBeCloseTo(2.962588, 5); // look 1's boundary is kept
    const z1 = s.looks[0].z;
    const z2 = s.looks[1].z;
    const rho = Math.sqrt(0.5 / 0.75);
    const sd = Math.sqrt(1 - rho * rho);
    const steps = 4000;
    const h = (2 * z1) / steps;
    let p = 0;
    for (let i = 0; i <= steps; i++) {
      const x = -z1 + i * h;
      const f =
        (Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI)) *
        (normalCdf(-(z2 - rho * x) / sd) + normalCdf(-(z2 + rho * x) / sd));
      p += (i === 0 || i === steps ? 1 : i % 2 ? 4 : 2) * f;
    }
    p *= h / 3;
    expect(s.looks[1].increment).toBeCloseTo(0.016248, 6);
    expect(p).toBeCloseTo(s.looks[1].increment, 7);
    // Terms: 0.2; q2 and q3 drawn with π = 1 − 0.5² = 0.75: 0.1 + 0.2/0.75 = 0.366667, 0.1 + 0.3/0.75 = 0.5;
    // q4 0.1 → mean 0.291667, se 0.076716; the half-width is Student's with 3 degrees of freedom at
    // z₂'s nominal level (checked by t₃'s closed-form CDF), 5.42 for z₂ = 2.36: open with 4 questions.
    const e = s.pairs[0].estimate!;
    expect(e.estimate).toBeCloseTo(0.291667, 6);
    expect(1 - studentT3Cdf(e.z / Math.sqrt(4 / 3))).toBeCloseTo(normalCdf(-z2), 10);
    expect(e.low).toBeCloseTo(0.291667 - e.z * 0.0767165, 5);
    expect(s.status).toBe("open");
    // The same looks with the drawn questions' human values closer to the others': q2 and q3 Y = 0.175,
    // terms 0.2, 0.1 + 0.075/0.75 = 0.2, 0.2, 0.1 → mean 0.175, deviations 0.025 (×3), −0.075,
    // Σ² 0.0075, std √(0.0075/4) = 0.0433013, se 0.0216506; 0.175 − e.z · 0.0216506 > 0: A is better.
    const close = values(
      "A",
      [...A.predicted],
      [
        [1, 0.7],
        [2, 0.675],
        [3, 0.675],
        [4, null],
      ],
    );
    const settled = decisionState(
      {
        systems: ["A", "B"],
        margin: 0,
        level: 0.95,
        population,
        batches: [batch(1, [2]), batch(2, [3])],
        lambda: 1,
        spending: { family: "obf" },
      },
      [close, B],
    );
    const f = settled.pairs[0].estimate!;
    expect(f.estimate).toBeCloseTo(0.175, 10);
    expect(f.se).toBeCloseTo(0.0216506, 6);
    expect(f.z).toBeCloseTo(e.z, 10);
    expect(f.low).toBeCloseTo(0.175 - f.z * 0.0216506, 5);
    expect(f.low).toBeGreaterThan(0);
    expect(settled.status).toBe("settled");
    expect(settled.outcome).toBe("A");
    // A batch that draws nothing new is the same look: no new spending, the same boundary.
    const again = state([batch(1, [2]), batch(2, [3]), batch(3, [2])]);
    expect(again.look).toBe(2);
    expect(again.level).toBe(s.level);
  });

  it("waits while a drawn question is not complete, and has no basis before the first batch", () => {
    const A = values(
      "A",
      [
        [1, 0.7],
        [2, 0.6],
      ],
      [
        [1, null],
        [2, null],
      ],
    );
    const B = values(
      "B",
      [
        [1, 0.5],
        [2, 0.5],
      ],
      [
        [1, null],
        [2, null],
      ],
    );
    const population = [1, 2].map((q) => ({ queryId: q, uncertainty: 1, certain: false }));
    expect(decisionState({ systems: ["A", "B"], margin: 0, level: 0.95, population, batches: [] }, [A, B]).status).toBe(
      "no_basis",
    );
    const s = decisionState(
      {
        systems: ["A", "B"],
        margin: 0,
        level: 0.95,
        population,
        batches: [{ look: 1, budget: 1, tau: 0.5, probabilities: { "1": 0.5, "2": 0.5 }, drawn: [1] }],
      },
      [A, B],
    );
    expect(s.status).toBe("labelling");
    expect(s.pending).toBe(1);
    expect(s.pairs[0].verdict).toBe("open");
  });
});

const DCG10 = { kind: "dcg", cutoff: 10 } as const;

describe("questionUncertainty and calibration", () => {
  it("is 0 where both systems rank alike or every pair is known, and grows with the judge's doubt", () => {
    const unsure = () => [0.25, 0.25, 0.25, 0.25];
    const gain = (g: number) => g;
    // B ranks A's three chunks in reverse order.
    const reversed = (dist: (c: number) => number[] | null) =>
      questionUncertainty(
        [
          [1, 2, 3],
          [3, 2, 1],
        ],
        DCG10,
        dist,
        gain,
      );
    expect(
      questionUncertainty(
        [
          [1, 2, 3],
          [1, 2, 3],
        ],
        DCG10,
        unsure,
        gain,
      ),
    ).toBe(0);
    expect(reversed(() => null)).toBe(0);
    const swapped = reversed(unsure);
    expect(swapped).toBeGreaterThan(0);
    // The same expected gain (1.5), so the same ideal DCG: the wider doubt (variance 2.25 against
    // 0.25) gives the larger uncertainty, 3 times larger (√(2.25 / 0.25)).
    expect(reversed(() => [0.5, 0, 0, 0.5]) / reversed(() => [0, 0.5, 0.5, 0])).toBeCloseTo(3, 12);
  });

  it("divides by the ideal DCG of the expected gains, the pool's chunks included, derived by hand", () => {
    // A ranks chunks 1, 2; B ranks 2, 1; the pool also holds chunk 3. Chunk 1 was graded 3 by people
    // (one-hot: expected gain 3, variance 0); chunk 2 is 0 or 3 with probability 1/2 each (expected
    // 1.5, variance 2.25); chunk 3 is surely 0. Ideal DCG of the expected gains, sorted:
    // 3/log₂2 + 1.5/log₂3 + 0 = 3.946395. Chunk 2's weight is 1/log₂3 − 1 = −0.369070 in A − B, so
    // u = 0.369070 · √2.25 / 3.946395 = 0.140281 (chunk 1 is known: it adds nothing).
    const swapped = (dist: (c: number) => number[], pool?: number[]) =>
      questionUncertainty(
        [
          [1, 2],
          [2, 1],
        ],
        DCG10,
        dist,
        (g) => g,
        pool,
      );
    const dist = (c: number) => (c === 1 ? knownGrade(3) : c === 2 ? [0.5, 0, 0, 0.5] : [1, 0, 0, 0]);
    const u = swapped(dist, [1, 2, 3]);
    expect(u).toBeCloseTo(0.1402813001478028, 12);
    // Without the pool's chunk 3 (expected gain 0) the ideal is the same; with a relevant one it grows.
    expect(swapped(dist)).toBeCloseTo(u, 12);
    const richer = (c: number) => (c === 3 ? knownGrade(3) : dist(c));
    expect(swapped(richer, [1, 2, 3])).toBeLessThan(u);
    // Nothing expected to be relevant: 0.
    expect(swapped(() => [1, 0, 0, 0], [1, 2, 3])).toBe(0);
  });

  it("weighs Recall@k's chunks by presence in the top k, divided by the expected number relevant, derived by hand", () => {
    // Recall@2 at grade ≥ 1 (gain 1 or 0). A ranks 1, 2; B ranks 2, 3; the pool also holds 4.
    // Chunk 1: relevant with probability 0.5 (expected gain 0.5, variance 0.25); chunk 2 graded 2 by
    // people (1, variance 0); chunk 3: 0.2 (0.2, 0.16); chunk 4: 0.3 (0.3, 0.21). trec_eval's recall
    // divides by every relevant chunk: the normaliser is 0.5 + 1 + 0.2 + 0.3 = 2. Weights in A − B:
    // chunk 1 +1, chunk 2 0 (in both top 2s), chunk 3 −1, chunk 4 0 (in neither).
    // u = √((1/2)² · 0.25 + (1/2)² · 0.16) = √0.1025 = 0.320156.
    const dist = (c: number) =>
      c === 1 ? [0.5, 0.5, 0, 0] : c === 2 ? knownGrade(2) : c === 3 ? [0.8, 0, 0.2, 0] : [0.7, 0.3, 0, 0];
    const recall = (weighting: { kind: "dcg" | "set"; cutoff: number }) =>
      questionUncertainty(
        [
          [1, 2],
          [2, 3],
        ],
        weighting,
        dist,
        (g) => (g >= 1 ? 1 : 0),
        [1, 2, 3, 4],
      );
    expect(recall({ kind: "set", cutoff: 2 })).toBeCloseTo(Math.sqrt(0.1025), 12);
    // DCG's weights and ideal DCG would say something else (what Recall decisions used before).
    expect(Math.abs(recall({ kind: "dcg", cutoff: 2 }) - Math.sqrt(0.1025))).toBeGreaterThan(0.05);
  });

  it("smooths the calibration by one count per cell", () => {
    // Judge 3 seen with human 3 twice and human 0 once: counts (1+1, 1, 1, 1+2) / 7.
    const c = calibration([
      { human: 3, judge: 3 },
      { human: 3, judge: 3 },
      { human: 0, judge: 3 },
    ]);
    expect(c.given(3)).toEqual([2 / 7, 1 / 7, 1 / 7, 3 / 7]);
    expect(c.given(0)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it("splits a grade's pairs by whether the judge's samples agreed, each cell shrunk to the grade's distribution", () => {
    // Judge 2 with agreeing samples on three pairs people graded 2, with disagreeing samples on two
    // pairs people graded 0 and 3. The grade's distribution: (1+1, 1, 1+3, 1+1) / 9 = (2, 1, 4, 2)/9.
    // Each cell adds STABILITY_PRIOR = 4 pseudo-counts spread as that: (8, 4, 16, 8)/9.
    // Agreeing: (0, 0, 3, 0) + (8, 4, 16, 8)/9 = (8, 4, 43, 8)/9, sum 7 → (8, 4, 43, 8)/63.
    // Disagreeing: (1, 0, 0, 1) + (8, 4, 16, 8)/9 = (17, 4, 16, 17)/9, sum 6 → (17, 4, 16, 17)/54.
    const c = calibration([
      ...[2, 2, 2].map((human) => ({ human, judge: 2, unstable: false })),
      ...[0, 3].map((human) => ({ human, judge: 2, unstable: true })),
    ]);
    const close = (got: number[], want: number[]) => got.forEach((x, i) => expect(x).toBeCloseTo(want[i], 12));
    close(c.given(2), [2 / 9, 1 / 9, 4 / 9, 2 / 9]);
    close(c.given(2, false), [8 / 63, 4 / 63, 43 / 63, 8 / 63]);
    close(c.given(2, true), [17 / 54, 4 / 54, 16 / 54, 17 / 54]);
    // A grade with no pair of that stability: the grade's own distribution.
    close(c.given(1, true), c.given(1));
    // The disagreeing cell is the wider one: variance of the grade 1.497 against 0.662
    // (E[g] 87/54, E[g²] 221/54; E[g] 114/63, E[g²] 248/63).
    const variance = (d: number[]) =>
      d.reduce((s, p, g) => s + p * g * g, 0) - d.reduce((s, p, g) => s + p * g, 0) ** 2;
    expect(variance(c.given(2, true))).toBeCloseTo(221 / 54 - (87 / 54) ** 2, 12);
    expect(variance(c.given(2, false))).toBeCloseTo(248 / 63 - (114 / 63) ** 2, 12);
    expect(variance(c.given(2, true))).toBeGreaterThan(variance(c.given(2, false)));
  });
});

describe("planQuestions", () => {
  it("finds the fewest questions from the design's variance, derived by hand", () => {
    // u = 0.1 on 50 questions, no spread: π = n/50, se²(n) = (1/2500)·50·0.01·(50/n − 1) = 0.0002(50/n − 1);
    // z = Student's 95% half-width over 50 questions (t₄₉ 2.009575 · √(50/49) = 2.029978) + z_0.8
    // 0.841621 = 2.871599. δ 0.05: target (0.05/2.871599)² = 0.00030318 → 50/n ≤ 2.51589 → n ≥ 19.87
    // → 20; δ 0.1: target 0.00121271 → 50/n ≤ 7.06356 → n ≥ 7.079 → 8; δ 0.2: target 0.00485085 →
    // 50/n ≤ 25.2543 → n ≥ 1.980 → 2. Equal u: the active design is the uniform one.
    const u = new Array<number>(50).fill(0.1);
    const rows = planQuestions(u, 0, [0.05, 0.1, 0.2]);
    expect(rows.map((r) => r.uniform)).toEqual([20, 8, 2]);
    expect(rows.map((r) => r.active)).toEqual([20, 8, 2]);
    // A spread of the questions that labels cannot remove: var 0.01 over 4 questions → floor 0.0025 > target.
    expect(planQuestions([0.1, 0.1, 0.1, 0.1], 0.01, [0.05])[0]).toEqual({
      difference: 0.05,
      active: null,
      uniform: null,
    });
  });
  it("needs fewer questions with the active design when the judge's doubt is uneven", () => {
    const u = Array.from({ length: 200 }, (_, i) => (i < 20 ? 0.5 : 0.02));
    const [row] = planQuestions(u, 0.001, [0.03]);
    expect(row.active).not.toBeNull();
    expect(row.uniform).not.toBeNull();
    expect(row.active!).toBeLessThan(row.uniform!);
  });

  it("scales the labels' part by the errors seen (power tuning), derived by hand", () => {
    // ρ = 0.25: se²(n) = 0.25 · 0.0002(50/n − 1) (50 questions, u = 0.1, as above); δ 0.05: target
    // 0.00030318 → 50/n ≤ 7.06356 → n ≥ 7.079 → 8; δ 0.1: target 0.00121271 → 50/n ≤ 25.2543 → n ≥
    // 1.980 → 2 (20 and 8 at ρ = 1 above).
    const rows = planQuestions(new Array<number>(50).fill(0.1), 0, [0.05, 0.1], { residualScale: 0.25 });
    expect(rows.map((r) => r.uniform)).toEqual([8, 2]);
    expect(() => planQuestions([0.1], 0, [0.1], { residualScale: -1 })).toThrow(/residualScale/);
  });
});

describe("residualScale (the planner's ρ with the power-tuned λ̂)", () => {
  // q1–q3 uncertain with u = 0.1, one batch with p = 0.5 each, q1 and q2 drawn.
  // q1: f = 0.6 − 0.5 = 0.1, Y = 0.8 − 0.5 = 0.3; q2: f = 0.7 − 0.5 = 0.2, Y = 0.5 − 0.5 = 0.
  const population = [1, 2, 3].map((queryId) => ({ queryId, uncertainty: 0.1, certain: false }));
  const batches = [{ look: 1, budget: 2, tau: 0.5, probabilities: { 1: 0.5, 2: 0.5, 3: 0.5 }, drawn: [1, 2] }];
  const A = values(
    "A",
    [
      [1, 0.6],
      [2, 0.7],
      [3, 0.4],
    ],
    [
      [1, 0.8],
      [2, 0.5],
      [3, null],
    ],
  );
  const B = values(
    "B",
    [
      [1, 0.5],
      [2, 0.5],
      [3, 0.5],
    ],
    [
      [1, 0.5],
      [2, 0.5],
      [3, null],
    ],
  );

  it("compares the weighted errors seen with the design's u², derived by hand", () => {
    // Σ u²/π = (0.01 + 0.01)/0.5 = 0.04. λ = 1: ((0.3 − 0.1)² + (0 − 0.2)²)/0.5 = 0.16 → ρ = 4.
    // λ = 0.5: ((0.3 − 0.05)² + (0 − 0.1)²)/0.5 = 0.145 → ρ = 3.625.
    expect(residualScale({ population, batches }, A, B, 1)).toBeCloseTo(4, 12);
    expect(residualScale({ population, batches }, A, B, 0.5)).toBeCloseTo(3.625, 12);
    // Nothing labelled yet: 1 (the calibration at its word).
    expect(residualScale({ population, batches: [] }, A, B, 1)).toBe(1);
    expect(
      decisionResidualScale({ systems: ["A", "B"], margin: 0, level: 0.95, population, batches: [] }, [A, B]),
    ).toBe(1);
  });

  it("takes each pair's power-tuned λ̂ for the decision", () => {
    const input = { systems: ["A", "B"], margin: 0, level: 0.95, population, batches };
    const lambda = decisionState(input, [A, B]).pairs[0].estimate!.lambda;
    // Units: q1 t = a + λb with a = 0.3/0.5 = 0.6, b = 0.1·(1 − 2) = −0.1; q2 a = 0, b = −0.2; q3 a = 0,
    // b = −0.1. a mean 0.2, b mean −0.1333: S_ab = 0.4·0.0333 + (−0.2)(−0.0667) + (−0.2)(0.0333) = 0.02;
    // S_bb = 0.00111 + 0.00444 + 0.00111 = 0.00667 → −S_ab/S_bb = −3 → λ̂ = 0.
    expect(lambda).toBe(0);
    // λ = 0: (0.3² + 0²)/0.5 = 0.18 → ρ = 4.5.
    expect(decisionResidualScale(input, [A, B])).toBeCloseTo(4.5, 12);
  });
});

describe("discriminatingChunks (minimal test collection)", () => {
  // A = [1, 2, 3, 4], B = [1, 3, 2, 5] at cutoff 3. DCG@3 weights 1/log2(rank + 1):
  // A: 1→1, 2→1/log2 3, 3→1/2; B: 1→1, 3→1/log2 3, 2→1/2. Chunk 1 weighs 1 in both (it cancels out
  // of DCG_A − DCG_B); 2 and 3 weigh differently; 4 and 5 are below the cutoff in both (weight 0).
  const A = [1, 2, 3, 4];
  const B = [1, 3, 2, 5];
  const pooled = new Set([1, 2, 3, 4, 5]);
  it("keeps the pooled chunks whose DCG weight differs", () => {
    expect(discriminatingChunks([A, B], { kind: "dcg", cutoff: 3 }, pooled)).toEqual([2, 3]);
    // At cutoff 4, 4 is in A's top 4 (1/log2 5) and 5 in B's: both differ as well.
    expect(discriminatingChunks([A, B], { kind: "dcg", cutoff: 4 }, pooled)).toEqual([2, 3, 4, 5]);
  });
  it("for Recall@k only presence in the top k matters", () => {
    // Top 3 sets {1, 2, 3} and {1, 3, 2} are equal: nothing can move the difference of Recall@3.
    expect(discriminatingChunks([A, B], { kind: "set", cutoff: 3 }, pooled)).toEqual([]);
    expect(discriminatingChunks([A, B], { kind: "set", cutoff: 4 }, pooled)).toEqual([4, 5]);
  });
  it("with three systems, a chunk counts when any two weigh it differently; unpooled chunks are left out", () => {
    const C = [1, 2, 3, 9];
    // A and C agree on 1, 2, 3; B moves 2 and 3; chunk 9 (C's 4th) is not pooled.
    expect(discriminatingChunks([A, C], { kind: "dcg", cutoff: 3 }, pooled)).toEqual([]);
    expect(discriminatingChunks([A, B, C], { kind: "dcg", cutoff: 4 }, pooled)).toEqual([2, 3, 4, 5]);
  });
  it("applies to nDCG@k and Recall@k, not to MRR", () => {
    expect(rankWeighting("ndcg_cut_10")).toEqual({ kind: "dcg", cutoff: 10 });
    expect(rankWeighting("recall_5@2")).toEqual({ kind: "set", cutoff: 5 });
    expect(rankWeighting("recip_rank@1")).toBeNull();
  });
});
