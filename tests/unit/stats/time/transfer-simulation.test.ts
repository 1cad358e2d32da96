import { describe, expect, it } from "vitest";
import { confusionOf, rawAgreement } from "../../../../lib/stats/agreement/confusion.ts";
import { kappaValue } from "../../../../lib/stats/agreement/kappa.ts";
import { overlapSeconds } from "../../../../lib/stats/time/spans.ts";
import { referenceSpans, type MarkedStart, type ReferenceSpan } from "../../../../lib/stats/time/reference.ts";
import {
  transferLabels,
  type LabelledSpan,
  type TargetChunk,
  type TransferOptions,
} from "../../../../lib/stats/time/transfer.ts";
import {
  chunkWorld,
  labelsOf,
  makeWorld,
  placesOf,
  poolOf,
  type Chunking,
  type Place,
  type PoolItem,
  type Scenario,
  type World,
  truthGrade,
} from "./transfer-world.ts";

/*
 * Transfer simulation: the world of transfer-world.ts (long videos, answers of a
 * sentence or two, runs retrieving by noisy text similarity, truth from the answer spans). For a
 * pair of chunkings A → B: A's pool (top 10 of A's runs) is labelled with A's truth, as imported
 * reference labels; the rule carries them onto B; its labels are compared with B's truth on B's
 * pool (top 10 of B's runs): share of B's pooled pairs labelled, linear and quadratic weighted
 * kappa and exact agreement on the pairs labelled.
 *
 * Rules compared:
 * - v2: `transferLabels` of lib/stats/time/transfer.ts (rule version 2) with the question's
 *   reference spans (`referenceSpans`: its places, and the corrected starts of A's grade-3 labels);
 *   "v2 zero ≥ x" rows show the zeroShare parameter's effect (the data behind its default);
 * - naive cover: the highest grade of A's labelled chunks of which B's chunk covers ≥ 50% (the
 *   issue's naive rule for fine → coarse);
 * - naive within: the grade of the labelled A chunk holding the most of B's chunk, when it holds
 *   ≥ 50% of it (the "covering chunk" rule for coarse → fine).
 *
 * Version 1 (the first rule, replaced) on the same world, seed 31, for the record: c20o5 → c60o15
 * 33.4% labelled, linear 0.947, quadratic 0.971, exact 0.946; c60o15 → c20o5 87.9%, 0.508, 0.650,
 * 0.716 (real collection: 36.6% / 0.948 and 92.7% / 0.540).
 *
 * Print the tables: `npx vitest run tests/unit/stats/time/transfer-simulation.test.ts`.
 */

type Rule = (
  labels: readonly Labelled[],
  chunks: readonly TargetChunk[],
  places: ReadonlyMap<string, Place[]>,
) => Map<string, number>;
type Labelled = LabelledSpan & { correctedStart: number | null };
const key = (query: string, chunk: string) => `${query}|${chunk}`;

/** Version 2 with its reference spans: the places and the grade-3 labels' corrected starts. */
function v2(options: TransferOptions = {}): Rule {
  return (labels, chunks, places) => {
    const starts = new Map<string, MarkedStart[]>();
    for (const l of labels)
      if (l.grade === 3 && l.correctedStart !== null)
        starts.set(l.query, [...(starts.get(l.query) ?? []), { video: l.video, start: l.correctedStart }]);
    const references = new Map<string, ReferenceSpan[]>();
    for (const q of new Set([...places.keys(), ...starts.keys()]))
      references.set(q, referenceSpans(places.get(q) ?? [], starts.get(q) ?? []));
    return new Map(transferLabels(labels, chunks, options, references).map((t) => [key(t.query, t.chunkId), t.grade]));
  };
}

/** Naive rules, per pooled pair of B (only B's pool is scored, so only those pairs are looked at). */
function naive(
  kind: "cover" | "within",
): (labels: readonly LabelledSpan[], pool: readonly PoolItem[]) => Map<string, number> {
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
        if (kind === "within" && o >= 0.5 * (c.end - c.start) && (o > most || (o === most && l.grade > grade)))
          [most, grade] = [o, l.grade];
      }
      if (grade >= 0) out.set(key(query, c.id), grade);
    }
    return out;
  };
}

/** `positive`: labelled pairs where the truth or the rule is above 0 (kappa says little with a handful). */
export type Scores = {
  share: number;
  linear: number | null;
  quadratic: number | null;
  exact: number | null;
  labelled: number;
  pooled: number;
  positive: number;
};

function score(pool: readonly PoolItem[], grades: ReadonlyMap<string, number>): Scores {
  const pairs: { reference: number; other: number }[] = [];
  for (const p of pool) {
    const g = grades.get(key(p.query, p.chunk.id));
    if (g !== undefined) pairs.push({ reference: p.truth, other: g });
  }
  const m = confusionOf(pairs);
  const positive = pairs.filter((p) => p.reference > 0 || p.other > 0).length;
  return {
    share: pairs.length / pool.length,
    linear: kappaValue(m, "linear"),
    quadratic: kappaValue(m, "quadratic"),
    exact: rawAgreement(m),
    labelled: pairs.length,
    pooled: pool.length,
    positive,
  };
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

function compare(world: World, a: Prepared, b: Prepared, sc: Scenario, sensitivity = false): Record<string, Scores> {
  const labels = labelsOf(world, a.pool, sc);
  const places = placesOf(world, sc);
  return {
    v2: score(b.pool, v2()(labels, b.chunks, places)),
    ...(sensitivity
      ? {
          "v2 zero ≥ 0.25": score(b.pool, v2({ zeroShare: 0.25 })(labels, b.chunks, places)),
          "v2 zero ≥ 0.5": score(b.pool, v2({ zeroShare: 0.5 })(labels, b.chunks, places)),
        }
      : {}),
    naiveCover: score(b.pool, naive("cover")(labels, b.pool)),
    naiveWithin: score(b.pool, naive("within")(labels, b.pool)),
  };
}

/*
 * Floors of the grid (10/20/30/60 s × overlap 0/25/50%, every ordered pair of sizes, seed 31, 6 videos):
 * the lowest value the table shows, less a margin of 0.05 (kappa) and 0.10 (share), so that a
 * change of the rule that costs more than noise fails. Lowest seen: with places linear 0.990,
 * share 0.618; without places linear 0.942 (where kappa is read, below), share 0.463.
 */
const FLOORS: Record<string, { linear: number; share: number }> = {
  places: { linear: 0.94, share: 0.52 },
  "no places": { linear: 0.89, share: 0.36 },
};

/*
 * Kappa is read only where at least MIN_POSITIVE labelled pairs have a grade above 0 on either
 * side: coarse → fine without places v2 labels few relevant chunks (the answer's place inside a
 * relevant coarse chunk is unknown, so those stay unjudged) and its labels are nearly all 0 and
 * right (exact agreement ≥ 0.999), where kappa is undefined or swings on one pair.
 */
const MIN_POSITIVE = 20;

/** "Never below the naive rules": exact agreement at least theirs, and kappa at least theirs where it is read. */
function notBelowNaive(r: Record<string, Scores>): void {
  for (const n of [r.naiveCover, r.naiveWithin]) {
    if (n.share < 0.1) continue;
    expect(r.v2.exact ?? 0).toBeGreaterThanOrEqual(n.exact ?? 1);
    if (r.v2.positive >= MIN_POSITIVE) expect(r.v2.linear ?? 0).toBeGreaterThanOrEqual(n.linear ?? 1);
  }
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
      // Runs miss relevant chunks: of the 20 s chunks, fewer than 95% of the (question, chunk) pairs
      // of grade 2–3 are pooled (about one in ten is missed; 60 s chunks are fewer and easier to find).
      let relevant = 0;
      for (const q of world.questions) for (const c of p.chunks) if (truthGrade(c, q.spans) >= 2) relevant++;
      const recall = p.pool.filter((x) => x.truth >= 2).length / relevant;
      if (p === fine) expect(recall).toBeLessThan(0.95);
      const found = new Set(p.pool.filter((x) => x.truth === 3).map((x) => x.query)).size / world.questions.length;
      console.log(
        `pool ${p.chunking.name}: ${p.pool.length} pairs, grades 0–3 ${byGrade.map((x) => x.toFixed(3)).join(" / ")}, relevant (2–3) pairs pooled ${recall.toFixed(3)}, questions with a grade-3 chunk pooled ${found.toFixed(3)}`,
      );
    }
  });

  it("prints each direction's share labelled, kappa (linear, quadratic) and exact agreement; v2 meets the goals, the naive rules fail as on real videos", () => {
    const lines = [
      row(["scenario", "direction", "rule", "share labelled", "linear κ", "quadratic κ", "exact"]),
      row(["---", "---", "---", "---", "---", "---", "---"]),
    ];
    const results = new Map<string, Record<string, Scores>>();
    for (const sc of SCENARIOS) {
      for (const [a, b] of [
        [fine, coarse],
        [coarse, fine],
      ]) {
        const direction = `${a.chunking.name} → ${b.chunking.name}`;
        const r = compare(world, a, b, sc, sc.name === "places");
        results.set(`${sc.name}|${direction}`, r);
        for (const [rule, s] of Object.entries(r))
          lines.push(row([sc.name, direction, rule, s.share.toFixed(3), f3(s.linear), f3(s.quadratic), f3(s.exact)]));
      }
    }
    console.log(lines.join("\n"));
    const up = (sc: string) => results.get(`${sc}|c20o5 → c60o15`)!;
    const down = (sc: string) => results.get(`${sc}|c60o15 → c20o5`)!;
    // The failure seen on real videos, reproduced (the real collection's table): coarse → fine the naive
    // "covering chunk" rule labels most of B's pool with low agreement (real: 92.0%, linear 0.658);
    // fine → coarse the naive rule labels most of the pool (real: 78.8%).
    expect(down("no places").naiveWithin.share).toBeGreaterThan(0.7);
    expect(down("no places").naiveWithin.linear ?? 1).toBeLessThan(0.8);
    expect(up("no places").naiveCover.share).toBeGreaterThan(0.6);
    // Goals, with answer places: linear kappa ≥ 0.90 on ≥ 70% of B's pool, both directions.
    for (const r of [up("places"), down("places")]) {
      expect(r.v2.linear ?? 0).toBeGreaterThanOrEqual(0.9);
      expect(r.v2.share).toBeGreaterThanOrEqual(0.7);
    }
    // Without answer places: never below the naive rules (each where it labels ≥ 10%).
    for (const sc of ["no places", "mixed"]) for (const r of [up(sc), down(sc)]) notBelowNaive(r);
    // Fine → coarse without places v2 labels at least what the naive cover rule labels.
    expect(up("no places").v2.share).toBeGreaterThanOrEqual(up("no places").naiveCover.share);
  });

  it("10/20/30/60 s chunks with 0–50% overlap, both directions: floors on kappa and share labelled", () => {
    // Half the collection (the first 6 videos' world of the same seed), to keep the test quick.
    const world = makeWorld(31, 6);
    const sizes = [10, 20, 30, 60];
    const overlaps = [0, 0.25, 0.5];
    const prepared = new Map<string, Prepared>();
    for (const size of sizes)
      for (const ov of overlaps) {
        const c: Chunking = { name: `c${size}o${size * ov}`, size, step: size * (1 - ov) };
        prepared.set(c.name, prepare(world, c));
      }
    const lines = [
      row([
        "scenario",
        "overlap",
        "A → B",
        "share labelled",
        "linear κ",
        "quadratic κ",
        "exact",
        "pairs > 0",
        "naive best linear κ",
      ]),
      row(["---", "---", "---", "---", "---", "---", "---", "---", "---"]),
    ];
    for (const sc of SCENARIOS.slice(0, 2))
      for (const ov of overlaps)
        for (const sa of sizes)
          for (const sb of sizes) {
            if (sa === sb) continue;
            const a = prepared.get(`c${sa}o${sa * ov}`)!;
            const b = prepared.get(`c${sb}o${sb * ov}`)!;
            const r = compare(world, a, b, sc);
            const naiveBest = Math.max(
              ...[r.naiveCover, r.naiveWithin].filter((n) => n.share >= 0.1).map((n) => n.linear ?? 0),
            );
            lines.push(
              row([
                sc.name,
                `${ov * 100}%`,
                `${a.chunking.name} → ${b.chunking.name}`,
                r.v2.share.toFixed(3),
                f3(r.v2.linear),
                f3(r.v2.quadratic),
                f3(r.v2.exact),
                String(r.v2.positive),
                naiveBest.toFixed(3),
              ]),
            );
            const floor = FLOORS[sc.name];
            if (r.v2.positive >= MIN_POSITIVE) expect(r.v2.linear ?? 0).toBeGreaterThanOrEqual(floor.linear);
            expect(r.v2.share).toBeGreaterThanOrEqual(floor.share);
            if (sc.name === "no places") notBelowNaive(r);
          }
    console.log(lines.join("\n"));
    // About 10 s of CPU; minutes of wall time on a busy machine.
  }, 600_000);
});
