/**
 * Chooses wsum's weights by cross-validation over queries: the judged queries are shuffled (seeded)
 * into `folds` folds; for each fold, every weight vector of a grid on the simplex (steps of
 * 1/`steps`, weights summing to 1) is scored by the mean of one measure over the other folds'
 * queries, the best (first on ties) is kept and scored on the held-out fold. The final weights are
 * the best over all judged queries. The held-out means are the honest estimate of the tuned
 * fusion; the training means are not.
 */
import { seededRng } from "../stats/random.ts";
import { evaluate, type Judgements, type RunByQuery } from "../stats/evaluate.ts";
import type { MeasureColumn } from "../stats/measures/index.ts";
import { fuseScores, type Norm, type RankedRun, type ScoredRun } from "./index.ts";

export type TuneOptions = {
  column: MeasureColumn;
  judgements: Judgements;
  folds: number;
  norm: Norm;
  steps?: number;
  seed?: number;
  relevanceLevel?: number;
};
export type FoldResult = { fold: number; queries: number; weights: number[]; train: number; test: number };
export type TuneResult = { weights: number[]; folds: FoldResult[]; meanTest: number; grid: number };

/** Every weight vector of `n` non-negative multiples of 1/steps summing to 1. */
export function simplexGrid(n: number, steps: number): number[][] {
  const out: number[][] = [];
  const rec = (prefix: number[], left: number) => {
    if (prefix.length === n - 1) {
      out.push([...prefix, left].map((w) => w / steps));
      return;
    }
    for (let w = left; w >= 0; w--) rec([...prefix, w], left - w);
  };
  rec([], steps);
  return out;
}

function asRun(scores: ScoredRun): RunByQuery {
  const run: RunByQuery = new Map();
  for (const [qid, docs] of scores) run.set(qid, { docids: [...docs.keys()], scores: [...docs.values()] });
  return run;
}

export function tuneWeights(runs: readonly RankedRun[], opts: TuneOptions): TuneResult {
  const steps = opts.steps ?? 10;
  const grid = simplexGrid(runs.length, steps);
  const ctx = { relevanceLevel: opts.relevanceLevel ?? 1 };
  // per weight vector, the measure per judged query that some run answers (0 for the others, as -c)
  const judgedQueries = [...opts.judgements.keys()].sort();
  const perQuery = grid.map((weights) => {
    const r = evaluate(
      opts.judgements,
      asRun(fuseScores(runs, { method: "wsum", norm: opts.norm, weights })),
      [opts.column],
      { ...ctx, complete: true },
    );
    const byQid = new Map(r.queries.map((q, i) => [q, r.values[0][i] ?? 0]));
    return judgedQueries.map((q) => byQid.get(q) ?? 0);
  });
  const rng = seededRng(opts.seed ?? 1);
  const order = judgedQueries.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const foldOf = new Array<number>(order.length);
  order.forEach((q, i) => (foldOf[q] = i % opts.folds));
  const mean = (g: number, inFold: (f: number) => boolean) => {
    let s = 0;
    let n = 0;
    perQuery[g].forEach((v, q) => {
      if (inFold(foldOf[q])) {
        s += v;
        n++;
      }
    });
    return n ? s / n : 0;
  };
  const best = (inFold: (f: number) => boolean) => {
    let b = 0;
    let bv = -Infinity;
    for (let g = 0; g < grid.length; g++) {
      const v = mean(g, inFold);
      if (v > bv) {
        bv = v;
        b = g;
      }
    }
    return { g: b, v: bv };
  };
  const folds: FoldResult[] = [];
  for (let f = 0; f < opts.folds; f++) {
    const train = best((x) => x !== f);
    folds.push({
      fold: f + 1,
      queries: foldOf.filter((x) => x === f).length,
      weights: grid[train.g],
      train: train.v,
      test: mean(train.g, (x) => x === f),
    });
  }
  const all = best(() => true);
  return {
    weights: grid[all.g],
    folds,
    meanTest: folds.reduce((s, f) => s + f.test, 0) / Math.max(1, folds.length),
    grid: grid.length,
  };
}
