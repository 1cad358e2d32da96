import { describe, expect, it } from "vitest";
import { auditAllocation, auditSample } from "../../lib/assignment/audit.ts";
import { mulberry32 } from "../../lib/stats/random.ts";

/** The audit sample's allocation (lib/assignment/audit.ts), each expected count derived by hand. */
describe("auditAllocation", () => {
  it("gives one per stratum, then the rest in proportion to size − 1 by largest remainder", () => {
    // Sizes 0:20, 1:5, 2:3, 3:2 (T = 30), N = 10: k = 4, r = 6, Σ(size − 1) = 26.
    // Quotas 6·19/26 = 4.385, 6·4/26 = 0.923, 6·2/26 = 0.462, 6·1/26 = 0.231; floors 4, 0, 0, 0 (4);
    // the 2 left go to the largest remainders 0.923 (grade 1) and 0.462 (grade 2).
    expect(
      auditAllocation(
        new Map([
          [0, 20],
          [1, 5],
          [2, 3],
          [3, 2],
        ]),
        10,
      ),
    ).toEqual(
      new Map([
        [3, 1],
        [2, 2],
        [1, 2],
        [0, 5],
      ]),
    );
  });
  it("takes everything when N covers the candidates, and the smallest strata first when N < strata", () => {
    expect(
      auditAllocation(
        new Map([
          [0, 2],
          [3, 1],
        ]),
        5,
      ),
    ).toEqual(
      new Map([
        [3, 1],
        [0, 2],
      ]),
    );
    // N = 2 < 4 strata: sizes 1 (grade 2) and 2 (grades 3 and 1, tie: the higher grade, 3).
    expect(
      auditAllocation(
        new Map([
          [0, 9],
          [1, 2],
          [2, 1],
          [3, 2],
        ]),
        2,
      ),
    ).toEqual(
      new Map([
        [3, 1],
        [2, 1],
        [1, 0],
        [0, 0],
      ]),
    );
  });
  it("breaks equal remainders towards the higher grade", () => {
    // Sizes 1:3, 2:3, N = 3: k = 2, r = 1, quotas 0.5 and 0.5: grade 2 gets the extra one.
    expect(
      auditAllocation(
        new Map([
          [1, 3],
          [2, 3],
        ]),
        3,
      ),
    ).toEqual(
      new Map([
        [2, 2],
        [1, 1],
      ]),
    );
  });
  it("draws the same sample from the same seed, spread over queries within a stratum", () => {
    const candidates = Array.from({ length: 12 }, (_, i) => ({
      id: `p${i}`,
      queryId: i % 3,
      judgeGrade: i < 9 ? 0 : 2,
    }));
    const a = auditSample(candidates, 4, mulberry32(5));
    expect(a.map((c) => c.id)).toEqual(auditSample(candidates, 4, mulberry32(5)).map((c) => c.id));
    // k = 2, r = 2, quotas 2·8/10 = 1.6 and 2·2/10 = 0.4: floors 1 and 0, the one left to grade 0 → 0: 3, 2: 1.
    expect(a.filter((c) => c.judgeGrade === 0)).toHaveLength(3);
    expect(new Set(a.filter((c) => c.judgeGrade === 0).map((c) => c.queryId)).size).toBe(3);
  });
});
