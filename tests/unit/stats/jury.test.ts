import { describe, expect, it } from "vitest";
import { combineJury, leastSquares, majorityGrade, meanGrade, medianGrade } from "../../../lib/stats/jury.ts";
import { seededRng } from "../../../lib/stats/random.ts";

describe("jury rules", () => {
  it("median rounds down between grades, majority breaks ties low, mean rounds halves up", () => {
    expect(medianGrade([0, 3])).toBe(1); // (0 + 3) / 2 = 1.5 → 1
    expect(medianGrade([1, 2, 3])).toBe(2);
    expect(medianGrade([3, 0, 2, 2])).toBe(2); // sorted 0 2 2 3: (2 + 2) / 2
    expect(majorityGrade([1, 1, 3])).toBe(1);
    expect(majorityGrade([0, 3])).toBe(0); // tie: the lowest
    expect(majorityGrade([2, 3, 3, 2])).toBe(2);
    expect(meanGrade([1, 2])).toBe(2); // 1.5 → 2
    expect(meanGrade([0, 1, 1])).toBe(1); // 0.667 → 1
    expect(meanGrade([0, 0, 1])).toBe(0); // 0.333 → 0
  });

  it("least squares recovers an exact line", () => {
    // y = 1 + 2x on x = 0, 1, 2: the normal equations give b = (1, 2) (ridge 1e-6 moves it by < 1e-5).
    const b = leastSquares([[0], [1], [2]], [1, 3, 5]);
    expect(b[0]).toBeCloseTo(1, 5);
    expect(b[1]).toBeCloseTo(2, 5);
    // Two members, y = a: b = (0, 1, 0).
    const c = leastSquares(
      [
        [0, 1],
        [1, 1],
        [2, 0],
        [3, 2],
        [1, 3],
      ],
      [0, 1, 2, 3, 1],
    );
    expect(c.map((x) => Number(x.toFixed(4)))).toEqual([0, 1, 0]);
  });
});

describe("weighted jury with cross-fitting", () => {
  // 40 questions × 5 pairs; member A gives the human grade, member B a random one.
  const rng = seededRng(3);
  const pairs = Array.from({ length: 200 }, (_, i) => {
    const truth = rng.int(4);
    return { qid: `q${Math.floor(i / 5)}`, docid: `d${i}`, truth, grades: [truth, rng.int(4)] };
  });
  const human = new Map(pairs.map((p) => [`${p.qid}\u0000${p.docid}`, p.truth]));

  it("learns to follow the member that agrees with people", () => {
    const out = combineJury(pairs, "weighted", { human, folds: 5, seed: 1 });
    expect(out.every((g, i) => g.grade === pairs[i].truth)).toBe(true);
    expect(new Set(out.map((g) => g.fold))).toEqual(new Set([0, 1, 2, 3, 4]));
    // Every question's pairs are in one fold.
    const foldOfQuestion = new Map<string, number>();
    for (const g of out) {
      expect(foldOfQuestion.get(g.qid) ?? g.fold).toBe(g.fold);
      foldOfQuestion.set(g.qid, g.fold!);
    }
  });

  it("never lets a pair's own human label weigh its grade", () => {
    const before = combineJury(pairs, "weighted", { human, folds: 5, seed: 1 });
    for (const i of [0, 17, 101, 199]) {
      const changed = new Map(human);
      const k = `${pairs[i].qid}\u0000${pairs[i].docid}`;
      changed.set(k, 3 - human.get(k)!);
      const after = combineJury(pairs, "weighted", { human: changed, folds: 5, seed: 1 });
      expect(after[i]).toEqual(before[i]);
    }
  });

  it("falls back to the mean, and says so, without enough human labels", () => {
    const out = combineJury(pairs.slice(0, 10), "weighted", { human: new Map(), folds: 5 });
    expect(out.every((g) => g.fallback === "mean" && g.grade === meanGrade(g.members))).toBe(true);
  });
});
