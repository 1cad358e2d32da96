import { describe, expect, it } from "vitest";
import {
  activeMean,
  studentMultiplier,
  combinedInclusion,
  differenceUncertainty,
  inclusionProbabilities,
  labelsToSettle,
  systematicSample,
  tunedLambda,
  verdict,
  type TActiveUnit,
} from "../../../lib/stats/active.ts";
import { seededRng, type Rng } from "../../../lib/stats/random.ts";
import { sequentialBoundaries } from "../../../lib/stats/sequential.ts";

describe("power tuning (PPI++, Angelopoulos, Duchi & Zrnic 2023)", () => {
  // Four questions, π = 0.5 each, the first two labelled. a = Y·ξ/π, b = f·(1 − ξ/π).
  const base = (f1: number, y1: number, f2: number, y2: number): TActiveUnit[] => [
    { prediction: f1, human: y1, probability: 0.5 },
    { prediction: f2, human: y2, probability: 0.5 },
    { prediction: 2, human: null, probability: 0.5 },
    { prediction: 0, human: null, probability: 0.5 },
  ];

  it("estimates λ̂ = −S_ab / S_bb, derived by hand", () => {
    // (f, Y) = (1, 1), (−1, 0); f = 2, 0 unlabelled.
    //   a = [2, 0, 0, 0], mean 0.5;  b = [1·(1−2), −1·(1−2), 2, 0] = [−1, 1, 2, 0], mean 0.5
    //   S_ab = 1.5·(−1.5) + (−0.5)·0.5 + (−0.5)·1.5 + (−0.5)·(−0.5) = −3;  S_bb = 2.25+0.25+2.25+0.25 = 5
    //   λ̂ = 3/5 = 0.6;  t = a + 0.6·b = [1.4, 0.6, 1.2, 0], mean 0.8
    //   deviations 0.6, −0.2, 0.4, −0.8: Σ² = 1.2, std (divisor 4) = √0.3, se = √0.3 / 2 = 0.2738613
    //   (se² at λ = 1: (S_aa + 2S_ab + S_bb)/N² = (3 − 6 + 5)/16 = 0.125; at λ = 0: 3/16; at λ̂: 1.2/16 = 0.075)
    const units = base(1, 1, -1, 0);
    expect(tunedLambda(units)).toBeCloseTo(0.6, 12);
    const r = activeMean(units, { lambda: "tuned" })!;
    expect(r.lambda).toBeCloseTo(0.6, 12);
    expect(r.estimate).toBeCloseTo(0.8, 12);
    expect(r.se).toBeCloseTo(0.2738613, 6);
    expect(activeMean(units, { lambda: 1 })!.se).toBeCloseTo(Math.sqrt(0.125), 12);
    expect(activeMean(units, { lambda: 0 })!.se).toBeCloseTo(Math.sqrt(3 / 16), 12);
  });

  it("clips λ̂ to [0, 1]: a judge against people gives the weighted human mean alone", () => {
    // (f, Y) = (−1, 1), (1, 0): b = [1, −1, 2, 0], mean 0.5; S_ab = 1.5·0.5 + (−0.5)(−1.5) + (−0.5)(1.5)
    // + (−0.5)(−0.5) = 1 → λ̂ = −1/5 → 0; the estimate is mean(Y·ξ/π) = (1/0.5 + 0)/4 = 0.5.
    const against = base(-1, 1, 1, 0);
    expect(tunedLambda(against)).toBe(0);
    expect(activeMean(against, { lambda: "tuned" })!.estimate).toBeCloseTo(0.5, 12);
    // (f, Y) = (1, 2), (−1, −2): a = [4, −4, 0, 0], mean 0; b = [−1, 1, 2, 0]; S_ab = 4·(−1.5) + (−4)·0.5
    // = −8 → λ̂ = 8/5 → 1.
    expect(tunedLambda(base(1, 2, -1, -2))).toBe(1);
    // Every question labelled with π = 1: b ≡ 0, λ changes nothing and is reported as 1.
    expect(tunedLambda([1, 0].map((y) => ({ prediction: 0.3, human: y, probability: 1 })))).toBe(1);
  });

  it("with λ = 1 is exactly the estimator without power tuning", () => {
    const rng = seededRng(5);
    const units = Array.from({ length: 50 }, () => ({
      prediction: rng.next() - 0.5,
      human: rng.next() < 0.4 ? rng.next() - 0.5 : null,
      probability: 0.2 + 0.8 * rng.next(),
    }));
    expect(activeMean(units, { lambda: 1 })).toEqual(activeMean(units));
  });

  it("gives the smallest reported se over λ in [0, 1]", () => {
    const rng = seededRng(6);
    for (let k = 0; k < 20; k++) {
      const units = Array.from({ length: 30 }, () => {
        const y = rng.next() - 0.5;
        return {
          prediction: (rng.next() - 0.5) * 0.6 + y * (k / 20),
          human: rng.next() < 0.5 ? y : null,
          probability: 0.3 + 0.7 * rng.next(),
        };
      });
      const tuned = activeMean(units, { lambda: "tuned" })!.se;
      for (let l = 0; l <= 1; l += 0.05)
        expect(tuned).toBeLessThanOrEqual(activeMean(units, { lambda: l })!.se + 1e-12);
    }
  });

  it("agrees with ppi_py's mean estimator with uniform π", () => {
    // Reference: github.com/aangelopoulos/ppi_py at commit bd90caada03a1a3473eea62c53e39123371dedb8,
    // ppi_py/ppi.py ppi_mean_pointestimate / ppi_mean_ci / _calc_lam_glm run verbatim (extracted with
    // Python's ast) with numpy 2.4.6 and scipy 1.17.1 (statsmodels' two-sided _zconfint_generic ported:
    // mean ± norm.ppf(1 − α/2)·std) on Y = the 4 labelled values, Yhat = their f, Yhat_unlabeled = f of
    // all N = 10 questions:
    //   lam=None: λ̂ 0.2047244094488189, point estimate 0.07602362204724408,
    //             95% interval [0.002082343445410556, 0.1499649006490776]
    //   lam=0: 0.075;  lam=1: 0.08000000000000002;  lam=0.4054752066115702 (our λ̂): 0.07702737603305784
    // For a given λ the point estimate with π = n/N = 0.4 is ppi_py's. The λ̂ differ by design (module
    // comment of lib/stats/active.ts): ppi_py's takes the unlabelled predictions as an independent second
    // sample, ours minimises the variance of the IPW mean over the N questions (Poisson sampling), and
    // so do the intervals (ours: std(t)/√N = 0.04100466266825262 at our λ̂, by numpy in the same script).
    const f = [0.3, -0.1, 0.25, 0.05, 0.4, -0.2, 0.15, 0.0, 0.35, 0.1];
    const Y = [0.2, 0.05, 0.1, -0.05];
    const units = f.map((fi, i) => ({ prediction: fi, human: i < Y.length ? Y[i] : null, probability: 0.4 }));
    expect(activeMean(units, { lambda: 0.2047244094488189 })!.estimate).toBeCloseTo(0.07602362204724408, 14);
    expect(activeMean(units, { lambda: 0 })!.estimate).toBeCloseTo(0.075, 14);
    expect(activeMean(units, { lambda: 1 })!.estimate).toBeCloseTo(0.08, 14);
    const tuned = activeMean(units, { lambda: "tuned" })!;
    expect(tuned.lambda).toBeCloseTo(0.4054752066115702, 13);
    expect(tuned.estimate).toBeCloseTo(0.07702737603305784, 14);
    expect(tuned.se).toBeCloseTo(0.04100466266825262, 14);
  });
});

describe("activeMean (Zrnic & Candès 2024, the notebook's active estimator)", () => {
  it("matches the estimator derived by hand", () => {
    // t = f + (Y − f)·ξ/π:
    //   (f 0.5, Y 1,   π 0.5)  → 0.5 + 0.5/0.5 = 1.5
    //   (f 0.2, —,     π 0.5)  → 0.2
    //   (f 0,   Y 0.4, π 1)    → 0.4
    //   (f 0.3, —,     π 0.25) → 0.3
    // mean = 2.4 / 4 = 0.6; deviations 0.9, −0.4, −0.2, −0.3; Σ² = 1.10; std (divisor 4) = √0.275 =
    // 0.5244044; se = 0.5244044 / √4 = 0.2622022; z₀.₉₇₅ = 1.959964 → half-width 0.5139068.
    const units: TActiveUnit[] = [
      { prediction: 0.5, human: 1, probability: 0.5 },
      { prediction: 0.2, human: null, probability: 0.5 },
      { prediction: 0, human: 0.4, probability: 1 },
      { prediction: 0.3, human: null, probability: 0.25 },
    ];
    const r = activeMean(units);
    expect(r).not.toBeNull();
    expect(r!.estimate).toBeCloseTo(0.6, 12);
    expect(r!.se).toBeCloseTo(0.2622022, 6);
    expect(r!.low).toBeCloseTo(0.6 - 0.5139068, 6);
    expect(r!.high).toBeCloseTo(0.6 + 0.5139068, 6);
    expect(r!.labelled).toBe(2);
    expect(r!.questions).toBe(4);
  });

  it("is the classical mean and interval of the human values when every question is labelled", () => {
    // π ≡ 1 ⇒ t = Y: values 1, 0, 0.5 → mean 0.5, std (divisor 3) √(0.5/3) = 0.4082483, se 0.2357023.
    const r = activeMean([1, 0, 0.5].map((y) => ({ prediction: 0.9, human: y, probability: 1 })));
    expect(r!.estimate).toBeCloseTo(0.5, 12);
    expect(r!.se).toBeCloseTo(0.2357023, 6);
  });

  it("refuses a probability outside (0, 1] and answers null without questions", () => {
    expect(() => activeMean([{ prediction: 0, human: 1, probability: 0 }])).toThrow(/\(0, 1\]/);
    expect(activeMean([])).toBeNull();
  });
});

describe("studentMultiplier: the small-sample half-width", () => {
  it("makes the interval with every question labelled the paired t-test's, derived by hand", () => {
    // Differences 0.1, 0.3, 0.2, 0.6 (π ≡ 1): mean 0.3, deviations −0.2, 0, −0.1, 0.3, Σ² 0.14;
    // s = √(0.14/3) = 0.2160247, s/√4 = 0.1080123; t₃ at 0.975 = 3.182446 (t₃'s closed-form CDF below)
    // → 0.3 ± 0.3437433 = [−0.0437433, 0.6437433], the paired t-test's 95% interval.
    const units = [0.1, 0.3, 0.2, 0.6].map((d) => ({ prediction: d, human: d, probability: 1 }));
    const e = activeMean(units, { level: 0.95, student: true })!;
    expect(e.low).toBeCloseTo(-0.0437433, 6);
    expect(e.high).toBeCloseTo(0.6437433, 6);
    const t3 = (t: number) => 0.5 + (t / (Math.sqrt(3) * (1 + (t * t) / 3)) + Math.atan(t / Math.sqrt(3))) / Math.PI;
    expect(t3(3.182446)).toBeCloseTo(0.975, 6);
    // Without it: the normal quantile over the divisor-n se, 0.3 ± 1.959964 · 0.0935414.
    const normal = activeMean(units, { level: 0.95 })!;
    expect(normal.high - normal.estimate).toBeCloseTo(1.959964 * 0.0935414, 6);
  });

  it("converts a boundary at its nominal level, and leaves z alone where it cannot apply", () => {
    // t₄₉ at 0.975 = 2.009575 (R: qt(0.975, 49)), × √(50/49) = 1.0101525 → 2.029978.
    expect(studentMultiplier(1.959964, 50)).toBeCloseTo(2.029978, 5);
    // The correction fades with the questions: t₉₉₉ · √(1000/999) is within 0.3% of z.
    expect(studentMultiplier(1.959964, 1000) / 1.959964).toBeLessThan(1.003);
    expect(studentMultiplier(Infinity, 50)).toBe(Infinity);
    expect(studentMultiplier(2.5, 1)).toBe(2.5);
  });
});

describe("inclusionProbabilities (the notebook's probs)", () => {
  it("mixes the uncertainty rule with the uniform one", () => {
    // b = 2/4 = 0.5, mean u = 2, η = 0.25: π = 0.5·0.25·u + 0.5·0.5 = 0.125u + 0.25.
    expect(inclusionProbabilities([1, 3, 0, 4], 2)).toEqual([0.375, 0.625, 0.25, 0.75]);
  });
  it("clips at 1, keeps every question possible, and is uniform when nothing tells them apart", () => {
    // mean u = 2.5, η = 0.2: π = 0.1u + 0.25 → 0.25, 0.25, 0.25, 1.25 → 1.
    expect(inclusionProbabilities([0, 0, 0, 10], 2)).toEqual([0.25, 0.25, 0.25, 1]);
    expect(inclusionProbabilities([0, 0, 0, 0], 1)).toEqual([0.25, 0.25, 0.25, 0.25]);
    expect(inclusionProbabilities([5, 1], 1, { tau: 1 })).toEqual([0.5, 0.5]);
    expect(() => inclusionProbabilities([1], 1, { tau: 0 })).toThrow(/tau/);
  });
});

describe("systematicSample", () => {
  it("draws each unit with its probability and exactly Σπ units", () => {
    const pi = [0.1, 0.9, 0.5, 0.5, 1, 0.25, 0.75];
    const counts = new Array<number>(pi.length).fill(0);
    const rng = seededRng(7);
    const draws = 20_000;
    for (let d = 0; d < draws; d++) {
      const s = systematicSample(pi, rng);
      expect(s.length).toBe(4); // Σπ = 4
      for (const i of s) counts[i]++;
    }
    counts.forEach((c, i) => expect(Math.abs(c / draws - pi[i])).toBeLessThan(0.012));
  });
});

describe("combinedInclusion, verdict", () => {
  it("combines batches as 1 − Π(1 − p)", () => {
    expect(combinedInclusion([0.5, 0.5])).toBeCloseTo(0.75, 12);
    expect(combinedInclusion([])).toBe(0);
  });
  it("settles on the side the interval lies, or as equivalent inside the margin", () => {
    expect(verdict({ low: 0.01, high: 0.2 })).toBe("better");
    expect(verdict({ low: -0.2, high: -0.01 })).toBe("worse");
    expect(verdict({ low: -0.01, high: 0.2 })).toBe("open");
    expect(verdict({ low: -0.01, high: 0.02 }, 0.03)).toBe("equivalent");
    expect(verdict({ low: 0.01, high: 0.2 }, 0.03)).toBe("open");
  });
});

describe("differenceUncertainty and labelsToSettle", () => {
  it("weighs each pair's grade variance by how differently the systems rank it", () => {
    // √(0.5²·0.8 + 0²·5 + 0.3²·0.1) = √(0.2 + 0.009) = √0.209.
    expect(
      differenceUncertainty([
        { weightDifference: 0.5, variance: 0.8 },
        { weightDifference: 0, variance: 5 },
        { weightDifference: -0.3, variance: 0.1 },
      ]),
    ).toBeCloseTo(Math.sqrt(0.209), 12);
  });
  it("projects the labels from the part of the variance they carry", () => {
    // estimate 0.05, se 0.04 (se² 0.0016), level 0.95 (z 1.959964), N 100, 10 labelled,
    // var(f) 0.01 → floor A = 0.0001, carried R = 0.0015; target (0.05/1.959964)² = 0.00065080;
    // needed m = R·n/(target − A) = 0.0015·10/0.00055080 = 27.23 → 28, i.e. 18 more.
    expect(labelsToSettle({ estimate: 0.05, se: 0.04, level: 0.95, questions: 100, labelled: 10 }, 0.01)).toBe(18);
    // Settled already.
    expect(labelsToSettle({ estimate: 0.2, se: 0.04, level: 0.95, questions: 100, labelled: 10 }, 0.01)).toBe(0);
    // The spread of the questions alone is too wide: labels cannot settle it.
    expect(labelsToSettle({ estimate: 0.05, se: 0.04, level: 0.95, questions: 100, labelled: 10 }, 0.2)).toBeNull();
  });
});

/**
 * Coverage under the active design, sequentially, on collections unkind to the judge: per-question
 * differences that are mostly 0 (both systems alike) with heavy tails, a judge whose error is
 * biased and heteroscedastic, and an uncertainty score that is only roughly right.
 */
function normal(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

function collection(rng: Rng, n: number, delta: number) {
  const y: number[] = [];
  const f: number[] = [];
  const u: number[] = [];
  for (let i = 0; i < n; i++) {
    const same = rng.next() < 0.4; // both systems rank this question's chunks alike
    const yi = same ? 0 : delta / 0.6 + 0.25 * normal(rng) * (rng.next() < 0.1 ? 3 : 1);
    const s = same ? 0.01 : 0.03 + 0.3 * rng.next();
    y.push(yi);
    f.push(yi + 0.04 + s * normal(rng)); // biased by +0.04
    u.push(s * Math.exp(0.5 * normal(rng))); // the designer's guess of the error, off by a lognormal factor
  }
  return { y, f, u };
}

describe("the active design's intervals stay honest", () => {
  it("covers the true difference in ≥ 94% of 1,000 collections at every look (repeated confidence intervals)", () => {
    const rng = seededRng(2024);
    const delta = 0.05;
    const trials = 1000;
    const batches = 3;
    let covered = 0;
    let coveredOnce = 0;
    // The looks' boundaries: O'Brien–Fleming-type spending at t = questions drawn / 300 (lib/stats/sequential.ts).
    const boundaryCache = new Map<string, number[]>();
    let widthActive = 0;
    let widthUniform = 0;
    for (let trial = 0; trial < trials; trial++) {
      const { y, f, u } = collection(rng, 300, delta);
      const offered: number[][] = y.map(() => []);
      const labelled = new Set<number>();
      const ts: number[] = [];
      let allCovered = true;
      for (let k = 1; k <= batches; k++) {
        const p = inclusionProbabilities(u, 20);
        p.forEach((pi, i) => offered[i].push(pi));
        for (const i of systematicSample(p, rng)) labelled.add(i);
        const units = y.map((yi, i) => ({
          prediction: f[i],
          human: labelled.has(i) ? yi : null,
          probability: combinedInclusion(offered[i]),
        }));
        if (!ts.length || labelled.size / 300 > ts[ts.length - 1]) ts.push(labelled.size / 300);
        const key = ts.join(",");
        if (!boundaryCache.has(key))
          boundaryCache.set(
            key,
            sequentialBoundaries(ts, { family: "obf" }, 0.05).map((l) => l.z),
          );
        const z = boundaryCache.get(key)!;
        const r = activeMean(units, { z: z[z.length - 1] })!;
        if (!(r.low <= delta && delta <= r.high)) allCovered = false;
      }
      if (allCovered) covered++;
      // One batch of 60 questions at 95%: the active design against uniform sampling.
      const oneShot = (tau: number) => {
        const p = inclusionProbabilities(u, 60, { tau });
        const s = new Set(systematicSample(p, rng));
        const r = activeMean(y.map((yi, i) => ({ prediction: f[i], human: s.has(i) ? yi : null, probability: p[i] })))!;
        return { width: r.high - r.low, covers: r.low <= delta && delta <= r.high };
      };
      const active = oneShot(0.5);
      if (active.covers) coveredOnce++;
      widthActive += active.width;
      widthUniform += oneShot(1).width;
    }
    // Tolerance: with 1,000 collections the binomial standard error at 95% is 0.7 points.
    console.log(
      `active design, 3 looks: simultaneous coverage ${(covered / trials).toFixed(3)}; one batch of 60 at 95%: coverage ${(coveredOnce / trials).toFixed(3)}; mean 95% width with 60 labels: active ${(widthActive / trials).toFixed(4)}, uniform ${(widthUniform / trials).toFixed(4)}`,
    );
    expect(covered / trials).toBeGreaterThanOrEqual(0.94);
    expect(coveredOnce / trials).toBeGreaterThanOrEqual(0.94);
    // The design earns its keep: narrower than uniform sampling of as many questions.
    expect(widthActive / trials).toBeLessThan(widthUniform / trials);
  });
});
