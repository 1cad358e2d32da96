import { describe, expect, it } from "vitest";
import { abilityModel } from "../../../lib/stats/annotators-model.ts";
import type { TAnnotatedItem } from "../../../lib/stats/annotators.ts";
import { seededRng } from "../../../lib/stats/random.ts";

const judgement = (annotator: string, grade: number) => ({ annotator, grade, startSeconds: null, timeSpentMs: null });

describe("the annotator-ability model", () => {
  it("finds no bias and full reliability when everyone always agrees", () => {
    // Every item graded alike by both: the EM's error matrices are the identity, so
    // bias = Σ p_j (j − j) = 0 and reliability = Σ p_j · 1 = 1 exactly.
    const items: TAnnotatedItem[] = Array.from({ length: 40 }, (_, i) => {
      const g = i % 4;
      return {
        qid: `q${i % 8}`,
        docid: `d${i}`,
        judgements: [judgement("A", g), judgement("B", g)],
        adjudication: null,
        final: { grade: g, startSeconds: null },
      };
    });
    const m = abilityModel(items, { resamples: 50 })!;
    expect(m.marginals).toEqual([0.25, 0.25, 0.25, 0.25]);
    for (const a of m.annotators) {
      expect(a.bias).toBe(0);
      expect(a.reliability).toBe(1);
    }
    expect(m.vsReference).toMatchObject({ n: 40, linear: 1, quadratic: 1 });
    expect(m.vsAdjudicated).toMatchObject({ n: 0, reason: "0 pairs: fewer than 10" });
  });

  it("tells a lenient annotator from careful ones, with intervals that hold the simulated truth", () => {
    // 60 questions × 8 items, true grades mostly 0 and 3 (as real pools); three annotators, two per
    // item in rotation: C1 and C2 give the true grade 90% of the time (else a neighbour),
    // L gives one grade more than the truth 60% of the time (capped at 3).
    const rng = seededRng(7);
    const truthOf = () => {
      const u = rng.next();
      return u < 0.6 ? 0 : u < 0.7 ? 1 : u < 0.8 ? 2 : 3;
    };
    const careful = (g: number) => (rng.next() < 0.9 ? g : Math.max(0, Math.min(3, g + (rng.next() < 0.5 ? -1 : 1))));
    const lenient = (g: number) => (rng.next() < 0.6 ? Math.min(3, g + 1) : g);
    const pairs: [string, string][] = [
      ["C1", "C2"],
      ["C1", "L"],
      ["C2", "L"],
    ];
    const items: TAnnotatedItem[] = [];
    let bias = 0;
    let n = 0;
    for (let q = 0; q < 60; q++)
      for (let d = 0; d < 8; d++) {
        const g = truthOf();
        const who = pairs[(q * 8 + d) % 3];
        const judgements = who.map((a) => judgement(a, a === "L" ? lenient(g) : careful(g)));
        for (const j of judgements)
          if (j.annotator === "L") {
            bias += j.grade - g;
            n++;
          }
        items.push({
          qid: `q${q}`,
          docid: `q${q}d${d}`,
          judgements,
          adjudication: null,
          final: { grade: g, startSeconds: null },
        });
      }
    const m = abilityModel(items, { resamples: 100 })!;
    const by = new Map(m.annotators.map((a) => [a.annotator, a]));
    const L = by.get("L")!;
    // The simulated leniency: mean (L's grade − truth) over L's grades.
    const trueBias = bias / n;
    expect(trueBias).toBeGreaterThan(0.3);
    expect(L.biasInterval!.low).toBeGreaterThan(0);
    expect(L.biasInterval!.low).toBeLessThanOrEqual(trueBias);
    expect(L.biasInterval!.high).toBeGreaterThanOrEqual(trueBias);
    for (const c of ["C1", "C2"]) {
      const a = by.get(c)!;
      expect(Math.abs(a.bias)).toBeLessThan(0.15);
      expect(a.reliability).toBeGreaterThan(L.reliability);
      expect(a.reliabilityInterval!.low).toBeLessThanOrEqual(a.reliability);
    }
    // The model's grades recover the truth better than either grade of a pair with L would.
    const ref = m.vsReference;
    if ("reason" in ref) throw new Error(ref.reason);
    expect(ref.n).toBe(480);
    expect(ref.linear!).toBeGreaterThan(0.8);
  });

  it("has nothing to fit without grades", () => {
    expect(abilityModel([])).toBeNull();
  });
});
