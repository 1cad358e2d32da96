import { describe, expect, it } from "vitest";
import { confusionOf, rawAgreement } from "../../../../lib/stats/agreement/confusion.ts";
import { kappaValue } from "../../../../lib/stats/agreement/kappa.ts";
import { overlapSeconds } from "../../../../lib/stats/time/spans.ts";
import { transferLabels, type LabelledSpan, type TargetChunk } from "../../../../lib/stats/time/transfer.ts";
import { chunkWorld, labelsOf, makeWorld, placesOf, poolOf, type Chunking, type Place, type PoolItem, type Scenario, type World, truthGrade } from "./transfer-world.ts";

/*
 * Transfer simulation (issue 31 item 3): the world of transfer-world.ts (long videos, answers of a
 * sentence or two, runs retrieving by noisy text similarity, truth from the answer spans). For a
 * pair of chunkings A → B: A's pool (top 10 of A's runs) is labelled with A's truth, as imported
 * reference labels; the rule carries them onto B; its labels are compared with B's truth on B's
 * pool (top 10 of B's runs): share of B's pooled pairs labelled, linear and quadratic weighted
 * kappa and exact agreement on the pairs labelled.
 *
 * Rules compared:
 * - current: `transferLabels` of lib/stats/time/transfer.ts;
 * - naive cover: the highest grade of A's labelled chunks of which B's chunk covers ≥ 50% (the
 *   issue's naive rule for fine → coarse);
 * - naive within: the grade of the labelled A chunk holding the most of B's chunk, when it holds
 *   ≥ 50% of it (the "covering chunk" rule for coarse → fine).
 *
 * Print the table: `npx vitest run tests/unit/stats/time/transfer-simulation.test.ts`.
 */

type Rule = (labels: readonly LabelledSpan[], chunks: readonly TargetChunk[], places: ReadonlyMap<string, Place[]>) => Map<string, number>;
const key = (query: string, chunk: string) => `${query}|${chunk}`;

const current: Rule = (labels, chunks) => new Map(transferLabels(labels, chunks).map((t) => [key(t.query, t.chunkId), t.grade]));

/** Naive rules, per pooled pair of B (only B's pool is scored, so only those pairs are looked at). */
function naive(kind: "cover" | "within"): (labels: readonly LabelledSpan[], pool: readonly PoolItem[]) => Map<string, number> {
  return (labels, pool) => {
    const byQuery = new Map<string, LabelledSpan[]>();
    for (const l of labels) byQuery.set(l.query, [...(byQuery.get(l.query) ?? []), l]);
    const out = new Map<string, number>();
    for (const { query, chunk: c } of pool) {
      let grade = -1;
      let most = 0;
      for (const l of byQuery.get(query) ?? []) {
        if (l.video !== c.video) continue;
        const o = overlapSeconds(c.start, c.end, l.start, l.end);
        if (kind === "cover" && o >= 0.5 * (l.end - l.start)) grade = Math.max(grade, l.grade);
        if (kind === "within" && o >= 0.5 * (c.end - c.start) && (o > most || (o === most && l.grade > grade))) [most, grade] = [o, l.grade];
      }
      if (grade >= 0) out.set(key(query, c.id), grade);
    }
    return out;
  };
}

export type Scores = { share: number; linear: number | null; quadratic: number | null; exact: number | null; labelled: number; pooled: number };

function score(pool: readonly PoolItem[], grades: ReadonlyMap<string, number>): Scores {
  const pairs: { reference: number; other: number }[] = [];
  for (const p of pool) {
    const g = grades.get(key(p.query, p.chunk.id));
    if (g !== undefined) pairs.push({ reference: p.truth, other: g });
  }
  const m = confusionOf(pairs);
  return { share: pairs.length / pool.length, linear: kappaValue(m, "linear"), quadratic: kappaValue(m, "quadratic"), exact: rawAgreement(m), labelled: pairs.length, pooled: pool.length };
}

const SCENARIOS: Scenario[] = [
  { name: "places", places: 1, openEnd: 0.2, correctedStart: 0 },
  { name: "no places", places: 0, openEnd: 0, correctedStart: 0 },
  { name: "mixed", places: 0.75, openEnd: 0.2, correctedStart: 0.5 },
];

const FINE: Chunking = { name: "c20o5", size: 20, step: 15 };
const COARSE: Chunking = { name: "c60o15", size: 60, step: 45 };

type Prepared = { chunking: Chunking; chunks: TargetChunk[]; pool: PoolItem[] };
function prepare(world: World, chunking: Chunking): Prepared {
  const chunks = chunkWorld(world, chunking);
  return { chunking, chunks, pool: poolOf(world, chunks, chunking) };
}

function compare(world: World, a: Prepared, b: Prepared, sc: Scenario) {
  const labels = labelsOf(world, a.pool, sc);
  const places = placesOf(world, sc);
  return {
    current: score(b.pool, current(labels, b.chunks, places)),
    naiveCover: score(b.pool, naive("cover")(labels, b.pool)),
    naiveWithin: score(b.pool, naive("within")(labels, b.pool)),
  };
}

const f3 = (x: number | null) => (x === null ? "  –  " : x.toFixed(3));
const row = (cells: string[]) => `| ${cells.join(" | ")} |`;

describe("transfer simulation: 20 s / 5 s and 60 s / 15 s chunkings, both directions", () => {
  const world = makeWorld(31);
  const fine = prepare(world, FINE);
  const coarse = prepare(world, COARSE);

  it("the world is as unkind as the real collection: short answers, truth mostly 0 and 3, pools that miss", () => {
    const lengths = world.questions.flatMap((q) => q.spans.map((s) => s.end - s.start));
    expect(Math.min(...lengths)).toBeGreaterThanOrEqual(3);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(12);
    expect(world.videos.every((v) => v.duration >= 600 && v.duration <= 2400)).toBe(true);
    for (const p of [fine, coarse]) {
      const byGrade = [0, 1, 2, 3].map((g) => p.pool.filter((x) => x.truth === g).length / p.pool.length);
      // Mostly 0 and 3, some 1 and 2.
      expect(byGrade[0] + byGrade[3]).toBeGreaterThan(0.85);
      expect(byGrade[1] + byGrade[2]).toBeGreaterThan(0.01);
      // Runs miss relevant chunks: of the 20 s chunks, fewer than 90% of the (question, chunk) pairs
      // of grade 2–3 are pooled (60 s chunks are fewer and easier to find).
      let relevant = 0;
      for (const q of world.questions) for (const c of p.chunks) if (truthGrade(c, q.spans) >= 2) relevant++;
      const recall = p.pool.filter((x) => x.truth >= 2).length / relevant;
      if (p === fine) expect(recall).toBeLessThan(0.9);
      const found = new Set(p.pool.filter((x) => x.truth === 3).map((x) => x.query)).size / world.questions.length;
      console.log(`pool ${p.chunking.name}: ${p.pool.length} pairs, grades 0–3 ${byGrade.map((x) => x.toFixed(3)).join(" / ")}, relevant (2–3) pairs pooled ${recall.toFixed(3)}, questions with a grade-3 chunk pooled ${found.toFixed(3)}`);
    }
  });

  it("prints each direction's share labelled, kappa (linear, quadratic) and exact agreement; the naive rules fail as on real videos", () => {
    const lines = [row(["scenario", "direction", "rule", "share labelled", "linear κ", "quadratic κ", "exact"]), row(["---", "---", "---", "---", "---", "---", "---"])];
    const results = new Map<string, ReturnType<typeof compare>>();
    for (const sc of SCENARIOS) {
      for (const [a, b] of [
        [fine, coarse],
        [coarse, fine],
      ]) {
        const direction = `${a.chunking.name} → ${b.chunking.name}`;
        const r = compare(world, a, b, sc);
        results.set(`${sc.name}|${direction}`, r);
        for (const [rule, s] of Object.entries(r)) lines.push(row([sc.name, direction, rule, s.share.toFixed(3), f3(s.linear), f3(s.quadratic), f3(s.exact)]));
      }
    }
    console.log(lines.join("\n"));
    // The failure seen on real videos, reproduced (issue 31's table): coarse → fine, the naive
    // "covering chunk" rule labels most of B's pool but with low agreement (real: linear 0.658);
    // fine → coarse the naive rule labels most of the pool (real: 78.8%).
    const down = results.get("no places|c60o15 → c20o5")!;
    const up = results.get("no places|c20o5 → c60o15")!;
    expect(down.naiveWithin.share).toBeGreaterThan(0.7);
    expect(down.naiveWithin.linear ?? 1).toBeLessThan(0.8);
    expect(up.naiveCover.share).toBeGreaterThan(0.6);
    // And the current rule's failure (real: linear 0.540 coarse → fine; 36.6% labelled fine → coarse).
    expect(down.current.linear ?? 1).toBeLessThan(0.7);
    expect(up.current.share).toBeLessThan(0.4);
  });
});
