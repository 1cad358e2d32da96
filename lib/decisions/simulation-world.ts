/**
 * Simulated collections for the decision benchmark (scripts/bench/decide.ts) and its coverage test:
 * questions, runs, an LLM judge and two annotators, shaped by published data. The constants are
 * simulation-world.json, derived by scripts/decide-world.ts from pinned public repositories (their
 * commits and paths are in the JSON's `sources`):
 *
 * - Questions: each draws the grades of its candidate chunks from one real TREC Deep Learning
 *   2019/2020 passage question: the grades (NIST qrels) of that question's depth-10 pool over the
 *   real runs (median 28 chunks, 9 of them graded 2 or 3: a handful of relevant chunks).
 * - Runs: RUNS runs rank the candidates by score = w · grade + √ρ · z_c + √(1 − ρ) · z_{r,c}
 *   (z standard normal: z_c shared by every run, z_{r,c} a run's own). The signal w and the shared
 *   share ρ are set (bisection, fixed seed) so that the runs' mean nDCG@10 and the mean share of
 *   one run's top 10 in another's match the real runs' (JSON medianNdcg10, runOverlap).
 *   The pool of a question is the union of every run's top 10 (pooling at depth 10).
 * - The judge: its grade of a pair is drawn from the row of the published confusion matrix
 *   (JSON confusion: an UMBRELA-prompt LLM judge against the NIST grades of TREC DL 2023, from the
 *   LLMJudge challenge) for the pair's final human grade. Or a jury (`"jury"`): the three grades of
 *   the same team's three UMBRELA prompt variants are drawn jointly from their published joint
 *   grades for the pair's human grade (JSON jury), the label is their median, and the pair is
 *   unsure where they differ (16% of the published pairs), as the app reads a jury
 *   (lib/judge/grade-sets.ts); `"jury-median"` is the same labels without saying where they differ.
 * - Two annotators grade every pooled pair: each gives the true grade with probability 1 − e and
 *   one of the three other grades (uniformly) otherwise; where they disagree an adjudicator gives the true grade (the
 *   app adjudicates disagreements). e is set so that the two annotators' sets of relevant pairs
 *   (grade ≥ 2) overlap |R₁ ∩ R₂| / |R₁ ∪ R₂| ≈ 0.45: Voorhees, "Variations in relevance judgments
 *   and the measurement of retrieval effectiveness", IP&M 36(5), 2000, found overlaps of 0.42–0.49
 *   between pairs of TREC assessors.
 */
import { dcg, idealDcg } from "../stats/measures/ndcg.ts";
import { seededRng, type Rng } from "../stats/random.ts";
import world from "./simulation-world.json" with { type: "json" };

export const RUNS = 8;
export const CUTOFF = 10;
const TARGET_ANNOTATOR_OVERLAP = 0.45;

export type TSimQuestion = {
  /** Final human grade (agreement or adjudication) of each pooled chunk, chunk ids 0 … pool − 1. */
  human: Int8Array;
  /** The judge's grade of each pooled chunk. */
  judge: Int8Array;
  /** With a jury that says where it is unsure: 1 where its members' grades differ. */
  unstable?: Uint8Array;
  /** Each run's top 10 as pooled chunk ids. */
  rankings: number[][];
};

export type TWorldParams = { signal: number; shared: number; annotatorError: number };

export function normal(rng: Rng): number {
  // Box–Muller; 1 − next() is in (0, 1].
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/** A draw from a discrete distribution given by non-negative weights. */
function drawFrom(weights: readonly number[], rng: Rng): number {
  let total = 0;
  for (const w of weights) total += w;
  let x = rng.next() * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i];
    if (x < 0) return i;
  }
  return weights.length - 1;
}

/** confusion[human grade][judge grade]: how often the judge gives each grade for each human grade (counts or shares). */
export type TConfusion = readonly (readonly number[])[];

export function judgeGrade(human: number, rng: Rng, confusion: TConfusion = world.confusion): number {
  return drawFrom(confusion[human], rng);
}

/** The simulated judge: a confusion matrix (one grade per pair), or the published jury (module comment). */
export type TSimJudge = TConfusion | "jury" | "jury-median";

/** The members' grades of a cell of the JSON jury: 16·g₁ + 4·g₂ + g₃. */
const memberGrades = (cell: number): [number, number, number] => [cell >> 4, (cell >> 2) & 3, cell & 3];

/** The jury members' three grades of a pair of the given human grade, drawn from their published joint grades. */
export function juryGrades(human: number, rng: Rng): [number, number, number] {
  return memberGrades(drawFrom(world.jury[human], rng));
}

/**
 * A judge sharper than the published one, for the benchmark's sensitivity rows (not fitted to any
 * data): each row of the published confusion matrix mixed with the identity, (1 − m) · row + m ·
 * (row total) · e_h, so that the judge gives the human grade with the published probability plus m
 * times the rest. m = 0 is the published judge, m = 1 a judge that always agrees with people; its
 * exact agreement over the published pairs is (1 − m) · a₀ + m (a₀ = `judgeAgreement()` of m = 0).
 */
export function sharperJudge(m: number): number[][] {
  if (!(m >= 0 && m <= 1)) throw new RangeError(`the mix must be in [0, 1], got ${m}`);
  return world.confusion.map((row, h) => {
    const total = row.reduce((a, b) => a + b, 0);
    return row.map((n, j) => (1 - m) * n + (j === h ? m * total : 0));
  });
}

/** Exact agreement of a judge with people over the pairs of a confusion matrix (its diagonal's share). */
export function judgeAgreement(confusion: TConfusion = world.confusion): number {
  let same = 0;
  let all = 0;
  confusion.forEach((row, h) =>
    row.forEach((n, j) => {
      all += n;
      if (j === h) same += n;
    }),
  );
  return all > 0 ? same / all : 0;
}

/**
 * The published jury's figures over its pairs (JSON jury): the exact agreement of its median with
 * people, the share of pairs whose members differ, and the median's exact agreement on those and on
 * the others.
 */
export function juryFigures(): {
  agreement: number;
  unstableShare: number;
  unstableAgreement: number;
  stableAgreement: number;
} {
  const n = { all: 0, same: 0, unstable: 0, unstableSame: 0 };
  world.jury.forEach((row, h) =>
    row.forEach((count, cell) => {
      const g = memberGrades(cell).sort((x, y) => x - y);
      const same = g[1] === h ? count : 0;
      n.all += count;
      n.same += same;
      if (g[0] !== g[2]) {
        n.unstable += count;
        n.unstableSame += same;
      }
    }),
  );
  return {
    agreement: n.same / n.all,
    unstableShare: n.unstable / n.all,
    unstableAgreement: n.unstableSame / n.unstable,
    stableAgreement: (n.same - n.unstableSame) / (n.all - n.unstable),
  };
}

function annotatorGrade(truth: number, error: number, rng: Rng): number {
  if (rng.next() >= error) return truth;
  const other = rng.int(3);
  return other >= truth ? other + 1 : other;
}

/** The candidates' true grades of one question, from a real question's depth-10 pool. */
function candidates(rng: Rng): number[] {
  const hist = world.pools[rng.int(world.pools.length)];
  return hist.flatMap((n, g) => new Array<number>(n).fill(g));
}

/** Each run's top 10 (candidate indices) for runs of the given signals, sharing ρ of their noise. */
function rank(truth: readonly number[], signals: readonly number[], shared: number, rng: Rng): number[][] {
  const common = truth.map(() => normal(rng));
  const a = Math.sqrt(shared);
  const b = Math.sqrt(1 - shared);
  return signals.map((w) => {
    const scores = truth.map((g, c) => w * g + a * common[c] + b * normal(rng));
    return scores
      .map((s, c) => [s, c] as const)
      .sort((x, y) => y[0] - x[0])
      .slice(0, CUTOFF)
      .map(([, c]) => c);
  });
}

/** nDCG@10 (linear gain, trec_eval ndcg_cut_10) of a ranking with the given grades of the pooled chunks. */
export function ndcg10(ranking: readonly number[], grades: ArrayLike<number>): number {
  const hist = [0, 0, 0, 0];
  for (let i = 0; i < grades.length; i++) hist[grades[i]]++;
  const ideal = idealDcg(hist, CUTOFF, "linear");
  if (ideal <= 0) return 0;
  return (
    dcg(
      ranking.map((c) => grades[c]),
      CUTOFF,
      "linear",
    ) / ideal
  );
}

/**
 * One question: candidates, RUNS rankings (signals per run), the pool (union of top 10s), the
 * two annotators, the final human grades and the judge's (the published judge unless another
 * confusion matrix or the jury is given).
 */
export function simQuestion(
  signals: readonly number[],
  params: TWorldParams,
  rng: Rng,
  simJudge: TSimJudge = world.confusion,
): TSimQuestion {
  const truth = candidates(rng);
  const tops = rank(truth, signals, params.shared, rng);
  const poolIds = new Map<number, number>();
  for (const t of tops) for (const c of t) if (!poolIds.has(c)) poolIds.set(c, poolIds.size);
  const human = new Int8Array(poolIds.size);
  const judge = new Int8Array(poolIds.size);
  const unstable = simJudge === "jury" ? new Uint8Array(poolIds.size) : undefined;
  for (const [c, id] of poolIds) {
    const a = annotatorGrade(truth[c], params.annotatorError, rng);
    const b = annotatorGrade(truth[c], params.annotatorError, rng);
    human[id] = a === b ? a : truth[c];
    if (typeof simJudge === "string") {
      const g = juryGrades(human[id], rng).sort((x, y) => x - y);
      judge[id] = g[1];
      if (unstable) unstable[id] = g[0] === g[2] ? 0 : 1;
    } else judge[id] = judgeGrade(human[id], rng, simJudge);
  }
  const rankings = tops.map((t) => t.map((c) => poolIds.get(c)!));
  return unstable ? { human, judge, unstable, rankings } : { human, judge, rankings };
}

/** The overlap |R₁ ∩ R₂| / |R₁ ∪ R₂| of two annotators' relevant sets (grade ≥ 2) at error e, over sampled questions. */
function annotatorOverlap(error: number, seed: number): number {
  const rng = seededRng(seed);
  let both = 0;
  let either = 0;
  for (let q = 0; q < 400; q++)
    for (const g of candidates(rng)) {
      const a = annotatorGrade(g, error, rng) >= 2;
      const b = annotatorGrade(g, error, rng) >= 2;
      if (a && b) both++;
      if (a || b) either++;
    }
  return either === 0 ? 1 : both / either;
}

/** Mean nDCG@10 (true grades) of the runs and mean top-10 overlap of pairs of runs, at (w, ρ). */
function runShape(signal: number, shared: number, seed: number): { ndcg: number; overlap: number } {
  const rng = seededRng(seed);
  let ndcg = 0;
  let overlap = 0;
  let n = 0;
  let m = 0;
  const signals = new Array<number>(RUNS).fill(signal);
  for (let q = 0; q < 150; q++) {
    const truth = candidates(rng);
    const tops = rank(truth, signals, shared, rng);
    const grades = Int8Array.from(truth);
    for (const t of tops) {
      ndcg += ndcg10(t, grades);
      n++;
    }
    for (let i = 0; i < tops.length; i++)
      for (let j = i + 1; j < tops.length; j++) {
        const other = new Set(tops[j]);
        overlap += tops[i].filter((c) => other.has(c)).length / tops[i].length;
        m++;
      }
  }
  return { ndcg: ndcg / n, overlap: overlap / m };
}

/** Bisection of an increasing function f on [lo, hi] for f(x) = target. */
function solve(f: (x: number) => number, target: number, lo: number, hi: number, steps = 18): number {
  for (let i = 0; i < steps; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

let fitted: (TWorldParams & { ndcg: number; overlap: number; annotatorOverlap: number }) | null = null;

/**
 * The world's parameters fitted to the published shape (module comment), with the figures they
 * reach. w and ρ are fitted alternately (each moves both figures a little); fixed seeds, so the
 * result is the same on every call.
 */
export function worldParams(): TWorldParams & { ndcg: number; overlap: number; annotatorOverlap: number } {
  if (fitted) return fitted;
  let signal = 1;
  let shared = 0.5;
  for (let round = 0; round < 2; round++) {
    signal = solve((w) => runShape(w, shared, 1).ndcg, world.medianNdcg10, 0, 4, 12);
    shared = solve((r) => runShape(signal, r, 2).overlap, world.runOverlap, 0, 0.99, 10);
  }
  // The overlap falls as the error grows: solve on its negative.
  const annotatorError = solve((e) => -annotatorOverlap(e, 3), -TARGET_ANNOTATOR_OVERLAP, 0, 1);
  const shape = runShape(signal, shared, 4);
  fitted = {
    signal,
    shared,
    annotatorError,
    ndcg: shape.ndcg,
    overlap: shape.overlap,
    annotatorOverlap: annotatorOverlap(annotatorError, 5),
  };
  return fitted;
}

/** The published figures the world is fitted to, and where they come from. */
export const worldTargets = {
  ndcg: world.medianNdcg10,
  overlap: world.runOverlap,
  annotatorOverlap: TARGET_ANNOTATOR_OVERLAP,
  questions: world.pools.length,
  judgeSource: world.sources.judge,
  collectionSource: { repo: world.sources.trecDl.repo, commit: world.sources.trecDl.commit },
  confusion: world.confusion,
  jury: world.jury,
};
