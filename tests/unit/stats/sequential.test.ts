import { describe, expect, it } from "vitest";
import { normalCdf } from "../../../lib/stats/normal.ts";
import { seededRng, type Rng } from "../../../lib/stats/random.ts";
import {
  SequentialRecursion,
  parseSpending,
  sequentialBoundaries,
  spendingFunction,
  spendingName,
  type TSpending,
} from "../../../lib/stats/sequential.ts";

/**
 * Reference: the R package gsDesign, github.com/keaven/gsDesign at commit
 * 2a5688846651a56f469cdb0997c2adf325c1b7d6 (fetched and read there).
 */
const GSDESIGN = "keaven/gsDesign@2a5688846651a56f469cdb0997c2adf325c1b7d6";

describe("the normal CDF in double precision (Hart 1968, West 2005)", () => {
  it("matches the tail areas to 1e-13 relative up to z = 3 and 1e-9 at z = 5", () => {
    // Φ(−1.96) = 0.024997895148220435, Φ(−3) = 0.0013498980316300946, Φ(−5) = 2.866515718791939e-7
    // (erfc(z/√2)/2 to 16 digits).
    expect(Math.abs(normalCdf(-1.96) / 0.024997895148220435 - 1)).toBeLessThan(1e-13);
    expect(Math.abs(normalCdf(-3) / 0.0013498980316300946 - 1)).toBeLessThan(1e-13);
    expect(Math.abs(normalCdf(-5) / 2.866515718791939e-7 - 1)).toBeLessThan(1e-9);
    expect(normalCdf(1.96) + normalCdf(-1.96)).toBeCloseTo(1, 15);
  });
});

describe("spending functions (Lan & DeMets 1983; Hwang, Shih & DeCani 1990)", () => {
  it("spends as derived by hand", () => {
    // Pocock type, α = 0.05, t = 0.5: 0.05 · ln(1 + (e − 1)/2) = 0.05 · ln(1.8591409) = 0.05 · 0.6201145 = 0.0310057.
    expect(spendingFunction({ family: "pocock" }, 0.05, 0.5)).toBeCloseTo(0.0310057, 7);
    // HSD γ = −4, α = 0.05, t = 0.2: 0.05 · (1 − e^0.8) / (1 − e^4) = 0.05 · (−1.2255409) / (−53.5981500) = 0.0011433;
    // half of it per side, 0.0005716: gsDesign's "Spend 0.0006" at analysis 1 (print.gsDesign snapshot).
    expect(spendingFunction({ family: "hsd", gamma: -4 }, 0.05, 0.2)).toBeCloseTo(0.0011433, 7);
    // γ = 0 is uniform spending: α t.
    expect(spendingFunction({ family: "hsd", gamma: 0 }, 0.05, 0.3)).toBeCloseTo(0.015, 12);
    // O'Brien–Fleming type, each side at α/2 = 0.025: 2 − 2Φ(z_{0.9875} / √0.5) = 2 − 2Φ(2.2414027 / 0.7071068)
    // = 2Φ(−3.1698) = 0.0015254 per side, 0.0030508 in all.
    expect(spendingFunction({ family: "obf" }, 0.05, 0.5)).toBeCloseTo(0.0030508, 6);
    for (const s of [{ family: "obf" }, { family: "pocock" }, { family: "hsd", gamma: -2 }] as TSpending[]) {
      expect(spendingFunction(s, 0.05, 0)).toBe(0);
      expect(spendingFunction(s, 0.05, 1)).toBe(0.05);
    }
  });
  it("names and parses the families", () => {
    expect(parseSpending("OBF")).toEqual({ family: "obf" });
    expect(parseSpending("pocock")).toEqual({ family: "pocock" });
    expect(parseSpending("hsd(-4)")).toEqual({ family: "hsd", gamma: -4 });
    expect(parseSpending("hsd:-2")).toEqual({ family: "hsd", gamma: -2 });
    expect(parseSpending("hsd(-2")).toBeNull();
    expect(parseSpending("bonferroni")).toBeNull();
    expect(spendingName({ family: "hsd", gamma: -4 })).toBe("hsd(-4)");
  });
});

describe(`boundaries against gsDesign (${GSDESIGN})`, () => {
  it("reproduces gsBound's bounds for given crossing probabilities (the recursion itself)", () => {
    // tests/testthat/test-normal-density-constant-regression.R, "gsBound is stable for representative inputs":
    // gsBound(I = c(0.25, 0.5, 0.75, 1), trueneg = c(0.01, 0.02, 0.03, 0.04),
    //         falsepos = c(0.005, 0.01, 0.015, 0.02), tol = 1e-8, r = 18)
    const a = [-2.32634787404084, -1.96818185313167, -1.67671154533665, -1.41871200118752];
    const b = [2.5758293035489, 2.25986082564025, 2.00956238688048, 1.79397591800809];
    const r = new SequentialRecursion();
    [0.25, 0.5, 0.75, 1].forEach((t, k) => {
      const bound = r.look(t, [0.01, 0.02, 0.03, 0.04][k], [0.005, 0.01, 0.015, 0.02][k]);
      // gsDesign solves to tol 1e-8; the grid is the same (r = 18).
      expect(Math.abs(bound.a - a[k])).toBeLessThan(2e-8);
      expect(Math.abs(bound.b - b[k])).toBeLessThan(2e-8);
    });
  });

  it("reproduces the one-sided HSD(γ = −4) design, α = 0.025, five equally spaced analyses", () => {
    // tests/testthat/_snaps/independent-test-gsBoundSummary.md (gsDesign(k = 5, test.type = 1, n.fix = 1),
    // the default sfHSD with γ = −4): Efficacy Z 3.2527, 2.9860, 2.6917, 2.3737, 2.0253.
    const expected = [3.2527, 2.986, 2.6917, 2.3737, 2.0253];
    const r = new SequentialRecursion();
    let spent = 0;
    [0.2, 0.4, 0.6, 0.8, 1].forEach((t, k) => {
      const now = spendingFunction({ family: "hsd", gamma: -4 }, 0.05, t) / 2; // one side: α = 0.025
      const { a, b } = r.look(t, 0, now - spent);
      spent = now;
      expect(a).toBe(-Infinity);
      expect(Math.abs(b - expected[k])).toBeLessThan(5e-5);
    });
  });

  it("reproduces the symmetric two-sided HSD(γ = −4) design, α = 0.05 in all", () => {
    // tests/testthat/_snaps/independent-test-print.gsDesign.md, "checking for test.type=2,n.fix=1"
    // (gsDesign(k = 5, test.type = 2, n.fix = 1)): Z 3.25, 2.99, 2.69, 2.37, 2.03.
    const looks = sequentialBoundaries([0.2, 0.4, 0.6, 0.8, 1], { family: "hsd", gamma: -4 }, 0.05);
    looks.forEach((l, k) => expect(Math.abs(l.z - [3.25, 2.99, 2.69, 2.37, 2.03][k])).toBeLessThan(0.005));
    expect(looks[4].spent).toBe(0.05);
  });

  it("gives the tabulated O'Brien–Fleming-type bounds, K = 5, two-sided α = 0.05", () => {
    // DeMets & Lan, "Interim analysis: the alpha spending function approach", Statistics in Medicine 13
    // (1994) 1341–1352, Table I (the Lan–DeMets O'Brien–Fleming-type function, each side at α/2 as gsDesign's
    // sfLDOF and the ldbounds package do): 4.877, 3.357, 2.680, 2.290, 2.031.
    const looks = sequentialBoundaries([0.2, 0.4, 0.6, 0.8, 1], { family: "obf" }, 0.05);
    looks.forEach((l, k) => expect(Math.abs(l.z - [4.877, 3.357, 2.68, 2.29, 2.031][k])).toBeLessThan(6e-4));
  });

  it("keeps earlier looks' boundaries when a later look is added, and spends each increment once", () => {
    const three = sequentialBoundaries([0.3, 0.5, 0.9], { family: "pocock" }, 0.05);
    const four = sequentialBoundaries([0.3, 0.5, 0.9, 1], { family: "pocock" }, 0.05);
    three.forEach((l, k) => expect(four[k].z).toBe(l.z));
    expect(four.reduce((s, l) => s + l.increment, 0)).toBeCloseTo(0.05, 15);
    expect(() => sequentialBoundaries([0.5, 0.5], { family: "obf" }, 0.05)).toThrow(/exceed the last one/);
    expect(() => sequentialBoundaries([0.5, 1.2], { family: "obf" }, 0.05)).not.toThrow(); // t is capped at 1
  });
});

function normal(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

describe("overall type I error on Brownian-motion looks (Monte Carlo, fixed seed)", () => {
  it("rejects H0 at some look in α(t_K) of the paths, within 4 binomial standard errors", () => {
    // Z_k = S(t_k)/√t_k with S a standard Brownian motion: Cov(Z_j, Z_k) = √(t_j/t_k); unequal looks.
    const ts = [0.12, 0.3, 0.45, 0.7, 0.85, 1];
    const paths = 100_000;
    const families: TSpending[] = [
      { family: "obf" },
      { family: "pocock" },
      { family: "hsd", gamma: -4 },
      { family: "hsd", gamma: 0 },
    ];
    const rng = seededRng(1983);
    for (const spending of families) {
      const z = sequentialBoundaries(ts, spending, 0.05).map((l) => l.z);
      let rejected = 0;
      for (let p = 0; p < paths; p++) {
        let s = 0;
        let prev = 0;
        for (let k = 0; k < ts.length; k++) {
          s += Math.sqrt(ts[k] - prev) * normal(rng);
          prev = ts[k];
          if (Math.abs(s / Math.sqrt(ts[k])) >= z[k]) {
            rejected++;
            break;
          }
        }
      }
      // Binomial se at α = 0.05 with 100,000 paths: √(0.05 · 0.95 / 100000) = 0.00069; tolerance 4 se = 0.0028.
      expect(Math.abs(rejected / paths - 0.05), spendingName(spending)).toBeLessThan(0.0028);
    }
  });
});
