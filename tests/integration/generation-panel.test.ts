import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { makeGenerationProject } from "../helpers/generation-project.ts";

/**
 * The dashboard's Generation section (lib/dashboard/generation.ts) on the hand-made project of
 * tests/helpers/generation-project.ts, through the panel's function (lib/dashboard/panels.ts getGeneration, which the panel route serves), with every
 * expected value derived by hand below.
 *
 * Final human labels (sysB q2 adjudicated; sysB q3 agreed with no claims):
 *   faithfulness (partial 0.5): sysA q1 (1+1+0.5)/3 = 5/6, q2 0, q3 1 → mean (5/6 + 0 + 1)/3 = 11/18
 *                               sysB q1 0.5/2 = 0.25, q2 1.5/2 = 0.75, q3 undefined → mean 0.5 over 2
 *   faithfulness (partial 0):   sysA 2/3, 0, 1 → 5/9;  sysB 0, 0.5 → 0.25
 *   relevance:                  sysA 3, 1, 2 → 2;      sysB 2, 3, 0 → 5/3
 * Paired tests, sysB − sysA (baseline: the first system): faithfulness on q1, q2 (sysB q3 has none):
 *   (0.25 − 5/6 + 0.75 − 0)/2 = 1/12; relevance on q1–q3: (−1 + 2 − 2)/3 = −1/3.
 */
useTestDatabase();
let db: Db;
let projectId: number;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  projectId = (await makeGenerationProject(db)).project.id;
});

const view = { source: "human" as const, gain: "exponential" as const };

async function panel(q: Record<string, string> = {}) {
  const { getGeneration } = await import("../../lib/dashboard/panels.ts");
  const { ZDashboardQuery } = await import("../../lib/dashboard/options.ts");
  return getGeneration(db, projectId, ZDashboardQuery.parse({ ...view, ...q }));
}

describe("the Generation section", () => {
  it("gives per system faithfulness (partial 0.5 and 0) and relevance on the final human labels, with intervals and paired tests", async () => {
    const p = await panel();
    expect(p.empty).toBeNull();
    expect(p.systems).toEqual(["sysA", "sysB"]);
    expect(p.baseline).toBe("sysA");
    expect(p.questions).toBe(3);
    const human = p.tables.find((t) => t.source === "human")!;
    expect(human).toMatchObject({ labelled: 6, noClaims: 1, empty: null });
    const [a, b] = human.rows;
    expect(a.system).toBe("sysA");
    expect(a.cells[0].mean).toBeCloseTo(11 / 18, 12);
    expect(a.cells[0].n).toBe(3);
    expect(b.cells[0].mean).toBeCloseTo(0.5, 12);
    expect(b.cells[0].n).toBe(2);
    expect(a.cells[1].mean).toBeCloseTo(5 / 9, 12);
    expect(b.cells[1].mean).toBeCloseTo(0.25, 12);
    expect(a.cells[2].mean).toBeCloseTo(2, 12);
    expect(b.cells[2].mean).toBeCloseTo(5 / 3, 12);
    expect(a.cells[0].test).toBeNull();
    expect(b.cells[0].test!.n).toBe(2);
    expect(b.cells[0].test!.meanDiff).toBeCloseTo(1 / 12, 12);
    expect(b.cells[2].test!.meanDiff).toBeCloseTo(-1 / 3, 12);
    for (const row of human.rows)
      for (const c of row.cells) if (c.ci) expect(c.ci.low).toBeLessThanOrEqual(c.mean! + 1e-12);
    // The judge's own table: sysA (2/3 + 0 + 1)/3 = 5/9, sysB (0.5 + 1)/2 = 0.75.
    const judge = p.tables.find((t) => t.source === "judge")!;
    expect(judge.judge).toBe("judge-a");
    expect(judge.rows[0].cells[0].mean).toBeCloseTo(5 / 9, 12);
    expect(judge.rows[1].cells[0].mean).toBeCloseTo(0.75, 12);
    expect(p.ragas).toMatchObject({ faithfulness: 0.95, answerRelevance: 0.78, contextRelevance: 0.7 });
  });

  it("takes another baseline for the paired tests", async () => {
    const p = await panel({ answerBaseline: "sysB" });
    const [a, b] = p.tables[0].rows;
    expect(b.cells[0].test).toBeNull();
    expect(a.cells[0].test!.meanDiff).toBeCloseTo(-1 / 12, 12);
  });

  it("compares the judge with people on claim support and per-answer faithfulness", async () => {
    const p = await panel();
    const c = p.claims!;
    // 10 claims on 5 answers labelled by both (human → judge):
    //   sysA q1 s→s s→p p→p; q2 n→n x→n; q3 s→s; sysB q1 p→s n→n; q2 (adjudicated) s→s p→s.
    expect(c.n).toBe(10);
    expect(c.answers).toBe(5);
    expect(c.confusion).toEqual([
      [3, 1, 0, 0],
      [2, 1, 0, 0],
      [0, 0, 2, 0],
      [0, 0, 1, 0],
    ]);
    expect(c.rawAgreement).toBeCloseTo(0.6, 12);
    // Ordinal (n, x = 0; p = 1; s = 2), rows human: [3 0 0; 0 1 2; 0 1 3], margins rows 3 3 4, cols 3 2 5.
    // Σ|i−j|·O = 2 + 1 = 3; Σ|i−j|·r_i·c_j / 10 = (36 + 24 + 32)/10 = 9.2; κ = 1 − 3/9.2 = 31/46.
    expect(c.kappa.linear.value).toBeCloseTo(31 / 46, 12);
    // s: judge said s 5 times, 3 right (P 0.6); human s 4 times (R 0.75). x: never said by the judge.
    expect(c.perLabel.s).toEqual({ precision: 0.6, recall: 0.75, support: 4 });
    expect(c.perLabel.n.precision).toBeCloseTo(2 / 3, 12);
    expect(c.perLabel.x).toEqual({ precision: null, recall: 0, support: 1 });
    // Faithfulness pairs (human, judge): (5/6, 2/3), (0, 0), (1, 1), (0.25, 0.5), (0.75, 1):
    // |Δ| = 1/6 + 0 + 0 + 0.25 + 0.25 = 2/3 → mean 2/15. Ranks human 4 1 5 2 3, judge 3 1 4.5 2 4.5:
    // ρ = 8 / √(10 · 9.5) = 0.8207826816681233 (scipy.stats.spearmanr).
    expect(p.faithfulness!.n).toBe(5);
    expect(p.faithfulness!.meanAbsDiff).toBeCloseTo(2 / 15, 12);
    expect(p.faithfulness!.spearman.rho).toBeCloseTo(0.8207826816681233, 12);
    // Relevance: the judge matches on all 5 answers.
    expect(p.relevance).toEqual({ n: 5, rawAgreement: 1, kappa: 1 });
  });

  it("splits failures into retrieval and generation, at grade ≥ 1 and ≥ 2, with a scatter of context nDCG@10 against faithfulness", async () => {
    const p = await panel();
    const h = p.attribution.find((x) => x.source === "human")!;
    // Context max grade / good (faithfulness ≥ 0.5 and relevance ≥ 2):
    //   sysA q1 3/good, q2 −1 (d unjudged for q2)/not, q3 0/good; sysB q1 3/not, q2 1/good, q3 no claims (excluded).
    expect(h.excluded).toBe(1);
    const all = h.tables.find((t) => t.system === "all")!;
    expect(all.atLeast1.counts).toEqual({
      retrieval_failed: 1,
      generator_failed: 1,
      good_without_evidence: 1,
      fine: 2,
    });
    expect(all.atLeast1.examples).toEqual({
      retrieval_failed: ["q2"],
      generator_failed: ["q1"],
      good_without_evidence: ["q3"],
      fine: ["q1", "q2"],
    });
    // At ≥ 2, sysB q2's grade-1 chunk no longer counts: good without evidence.
    expect(all.atLeast2.counts).toEqual({
      retrieval_failed: 1,
      generator_failed: 1,
      good_without_evidence: 2,
      fine: 1,
    });
    expect(h.tables.find((t) => t.system === "sysB")!.atLeast1.counts).toEqual({
      retrieval_failed: 0,
      generator_failed: 1,
      good_without_evidence: 0,
      fine: 1,
    });
    // nDCG@10 (exponential gain): [a, b] for q1 = 7/7 = 1; [d] for q2 = 0 (c is q2's relevant chunk);
    // [c] for q2 = 1; q3 has no relevant label (no point).
    expect(h.points).toEqual([
      { qid: "q1", system: "sysA", ndcg: 1, faithfulness: 5 / 6 },
      { qid: "q2", system: "sysA", ndcg: 0, faithfulness: 0 },
      { qid: "q1", system: "sysB", ndcg: 1, faithfulness: 0.25 },
      { qid: "q2", system: "sysB", ndcg: 1, faithfulness: 0.75 },
    ]);
    // The judge's view: sysB q1 s n / 2 is good (exactly 0.5), so it moves to fine.
    const j = p.attribution.find((x) => x.source === "judge")!;
    expect(j.tables[0].atLeast1.counts).toEqual({
      retrieval_failed: 1,
      generator_failed: 0,
      good_without_evidence: 1,
      fine: 3,
    });
  });

  it("follows a label change (a new adjudication revision) without a restart", async () => {
    const before = await panel();
    const answer = await db.answer.findFirstOrThrow({
      where: { projectId, system: "sysB", query: { externalId: "q2" } },
    });
    await db.answerAdjudication.update({
      where: { answerId: answer.id },
      data: { claimLabels: JSON.stringify(["s", "s"]), revision: 2 },
    });
    const after = await panel();
    // sysB q2 now 1: sysB mean (0.25 + 1)/2 = 0.625.
    expect(before.tables[0].rows[1].cells[0].mean).toBeCloseTo(0.5, 12);
    expect(after.tables[0].rows[1].cells[0].mean).toBeCloseTo(0.625, 12);
    await db.answerAdjudication.update({
      where: { answerId: answer.id },
      data: { claimLabels: JSON.stringify(["s", "p"]), revision: 3 },
    });
  });

  it("says what to do when the project has no answers", async () => {
    const { makeProject } = await import("../helpers/factories.ts");
    const other = await makeProject(db, { name: "no-answers" });
    const { getGeneration } = await import("../../lib/dashboard/panels.ts");
    const p = await getGeneration(db, other.id, view);
    expect(p.empty).toMatch(/no generated answers yet: import them with npx assessor import answers/);
    expect(p.tables).toEqual([]);
  });
});
