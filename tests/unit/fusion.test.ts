/**
 * Fusion against ranx: tests/fixtures/fusion/expected.json holds the fused scores ranx 0.3.14's own
 * fusion and normalisation code gives for the three runs next to it
 * (scripts/fixtures/ranx_fusion_reference.py); ours must agree at 1e-9 on every query and document.
 * Then the definitions by hand (Cormack et al. 2009's RRF with k = 60) and the weight tuning.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseQrels, parseRun } from "../../lib/formats/trec.ts";
import { fuseScores, fusedRows, rankedRun, type Method, type Norm, type RankedRun } from "../../lib/fusion/index.ts";
import { simplexGrid, tuneWeights } from "../../lib/fusion/tune.ts";
import { judgementsFrom } from "../../lib/stats/evaluate.ts";
import { parseMeasures } from "../../lib/stats/measures/index.ts";

const dir = join(import.meta.dirname, "..", "fixtures", "fusion");
type Case = {
  method: Method;
  k?: number;
  norm?: Norm;
  weights?: number[];
  runs: string[];
  scores: Record<string, Record<string, number>>;
};
const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as { cases: Case[] };

function load(name: string): RankedRun {
  const r = parseRun(readFileSync(join(dir, `${name}.run`)), `${name}.run`);
  expect(r.errors).toEqual([]);
  return rankedRun(r.rows);
}

describe("fusion agrees with ranx", () => {
  it.each(
    expected.cases.map(
      (c) => [`${c.method} ${c.norm ?? `k=${c.k}`}${c.weights ? ` w=${c.weights.join(",")}` : ""}`, c] as const,
    ),
  )("%s", (_label, c) => {
    const got = fuseScores(c.runs.map(load), { method: c.method, k: c.k, norm: c.norm, weights: c.weights });
    expect([...got.keys()].sort()).toEqual(Object.keys(c.scores).sort());
    for (const [qid, docs] of Object.entries(c.scores)) {
      const mine = got.get(qid) ?? new Map<string, number>();
      expect([...mine.keys()].sort()).toEqual(Object.keys(docs).sort());
      for (const [docid, score] of Object.entries(docs))
        expect(Math.abs((mine.get(docid) ?? NaN) - score), `${qid} ${docid}`).toBeLessThanOrEqual(1e-9);
    }
  });
});

describe("definitions", () => {
  const run = (text: string) => rankedRun(parseRun(text, "t.run").rows);
  it("RRF: Σ 1 / (60 + rank) over the runs that retrieve the document, ranks in the evaluated order", () => {
    // run 1 ranks x, y; run 2 ranks y (score ties broken by docid descending: z before y), z
    const a = run("q Q0 x 1 2 a\nq Q0 y 2 1 a\n");
    const b = run("q Q0 y 1 5 b\nq Q0 z 2 5 b\n");
    const s = fuseScores([a, b], { method: "rrf" }).get("q");
    expect(s?.get("x")).toBeCloseTo(1 / 61, 15);
    expect(s?.get("y")).toBeCloseTo(1 / 62 + 1 / 62, 15);
    expect(s?.get("z")).toBeCloseTo(1 / 61, 15);
    expect(fusedRows(fuseScores([a, b], { method: "rrf" })).map((r) => r.docid)).toEqual(["y", "z", "x"]);
  });
  it("CombMNZ multiplies CombSUM by the number of runs that retrieve the document", () => {
    const a = run("q Q0 x 1 4 a\nq Q0 y 2 2 a\nq Q0 w 3 0 a\n");
    const b = run("q Q0 x 1 1 b\nq Q0 v 2 0 b\n");
    // min-max: a: x 1, y 0.5, w 0; b: x 1, v 0
    expect(fuseScores([a, b], { method: "combsum" }).get("q")?.get("x")).toBe(2);
    expect(fuseScores([a, b], { method: "combmnz" }).get("q")?.get("x")).toBe(4);
    expect(fuseScores([a, b], { method: "combmnz" }).get("q")?.get("y")).toBe(0.5);
  });
  it("the weight grid covers the simplex in steps of 0.1", () => {
    expect(simplexGrid(2, 10)).toHaveLength(11);
    expect(simplexGrid(3, 10)).toHaveLength(66);
    for (const w of simplexGrid(3, 10)) expect(w.reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
  });
  it("tuning picks the better run's weight and reports a held-out score per fold", () => {
    // run good ranks the relevant document first in every query, run bad last
    const good: string[] = [];
    const bad: string[] = [];
    const qrels: string[] = [];
    for (let q = 0; q < 10; q++) {
      qrels.push(`q${q} 0 rel${q} 1`);
      good.push(`q${q} Q0 rel${q} 1 3 g`, `q${q} Q0 n${q}a 2 2 g`, `q${q} Q0 n${q}b 3 1 g`);
      bad.push(`q${q} Q0 n${q}a 1 3 b`, `q${q} Q0 n${q}b 2 2 b`, `q${q} Q0 rel${q} 3 1 b`);
    }
    const runs = [run(good.join("\n")), run(bad.join("\n"))];
    const column = parseMeasures(["recip_rank"]).columns[0];
    const t = tuneWeights(runs, {
      column,
      judgements: judgementsFrom(parseQrels(qrels.join("\n"), "q").rows),
      folds: 5,
      norm: "min-max",
    });
    expect(t.folds).toHaveLength(5);
    expect(t.folds.map((f) => f.queries)).toEqual([2, 2, 2, 2, 2]);
    expect(t.weights[0]).toBeGreaterThan(t.weights[1]);
    for (const f of t.folds) expect(f.test).toBe(1);
    expect(t.meanTest).toBe(1);
  });
});
