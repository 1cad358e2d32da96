/**
 * A jury: one judge made from several judges' grades (prompts, models) on the pairs they all
 * labelled. Methods, each on grades 0–3:
 * - median: the members' median, rounded down when it falls between two grades (as the human
 *   reference rule's agreed grade, lib/labels/rule.ts);
 * - majority: the most frequent grade; a tie goes to the lowest tied grade (a jury that cannot
 *   agree does not promote a pair);
 * - mean: the members' mean rounded to the nearest grade (halves up, as Math.round);
 * - weighted: a linear model of the human grade on the members' grades, ĝ = b₀ + Σ_m b_m g_m
 *   (ordinary least squares with a ridge of 1e-6 on the coefficients for numerical safety), rounded
 *   to the nearest grade and clipped to 0–3. Cross-fitting (Chernozhukov et al. 2018): questions
 *   are split into `folds` groups at random (seeded); a pair's grade uses coefficients learned on
 *   the human labels of the other folds only, so no pair's own human label weighs its grade, and a
 *   question's pairs stay in one fold. A fold whose training part has fewer human labels than
 *   members + 2 falls back to the mean rule (and says so in the pair's provenance).
 * The jury's grade per pair, with the members' grades and (weighted) the coefficients and fold, is
 * kept as provenance.
 */
import { seededRng } from "./random.ts";

export type TJuryMethod = "median" | "majority" | "mean" | "weighted";
export const JURY_METHODS: readonly TJuryMethod[] = ["median", "majority", "mean", "weighted"];

export type TJuryPair = { qid: string; docid: string; grades: readonly number[] };
export type TJuryGrade = {
  qid: string;
  docid: string;
  grade: number;
  members: readonly number[];
  /** weighted: the fold and the coefficients [b₀, b₁, …] used, or the fallback. */
  fold?: number;
  coefficients?: number[];
  fallback?: "mean";
};

const clipGrade = (x: number) => Math.max(0, Math.min(3, x));

/** The median grade, rounded down when it falls between two grades (grades non-empty). */
export function medianGrade(grades: readonly number[]): number {
  const s = [...grades].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : Math.floor((s[mid - 1] + s[mid]) / 2);
}

export function majorityGrade(grades: readonly number[]): number {
  const counts = [0, 0, 0, 0];
  for (const g of grades) counts[g]++;
  let best = 0;
  for (let g = 1; g < 4; g++) if (counts[g] > counts[best]) best = g;
  return best;
}

export function meanGrade(grades: readonly number[]): number {
  return clipGrade(Math.round(grades.reduce((s, g) => s + g, 0) / grades.length));
}

/** Solves (XᵀX + ridge·I′)b = Xᵀy (I′: no ridge on the intercept) by Gaussian elimination with partial pivoting. */
export function leastSquares(rows: readonly (readonly number[])[], y: readonly number[], ridge = 1e-6): number[] {
  const p = rows[0].length + 1;
  const A = Array.from({ length: p }, () => new Array<number>(p + 1).fill(0));
  rows.forEach((r, i) => {
    const x = [1, ...r];
    for (let a = 0; a < p; a++) {
      for (let b = 0; b < p; b++) A[a][b] += x[a] * x[b];
      A[a][p] += x[a] * y[i];
    }
  });
  for (let a = 1; a < p; a++) A[a][a] += ridge;
  for (let c = 0; c < p; c++) {
    let piv = c;
    for (let r = c + 1; r < p; r++) if (Math.abs(A[r][c]) > Math.abs(A[piv][c])) piv = r;
    [A[c], A[piv]] = [A[piv], A[c]];
    const d = A[c][c];
    if (Math.abs(d) < 1e-12) continue;
    for (let r = 0; r < p; r++) {
      if (r === c) continue;
      const f = A[r][c] / d;
      if (f !== 0) for (let k = c; k <= p; k++) A[r][k] -= f * A[c][k];
    }
  }
  return A.map((row, i) => (Math.abs(row[i]) < 1e-12 ? 0 : row[p] / row[i]));
}

export function combineJury(
  pairs: readonly TJuryPair[],
  method: TJuryMethod,
  opts: { human?: ReadonlyMap<string, number>; folds?: number; seed?: number } = {},
): TJuryGrade[] {
  if (method !== "weighted") {
    const rule = method === "median" ? medianGrade : method === "majority" ? majorityGrade : meanGrade;
    return pairs.map((p) => ({ qid: p.qid, docid: p.docid, grade: rule(p.grades), members: p.grades }));
  }
  const human = opts.human ?? new Map<string, number>();
  const folds = Math.max(2, opts.folds ?? 5);
  const qids = [...new Set(pairs.map((p) => p.qid))].sort();
  const rng = seededRng(opts.seed ?? 1);
  // A random permutation of the questions, dealt round-robin into the folds.
  for (let i = qids.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [qids[i], qids[j]] = [qids[j], qids[i]];
  }
  const foldOf = new Map(qids.map((q, i) => [q, i % folds]));
  const key = (p: TJuryPair) => `${p.qid}\u0000${p.docid}`;
  const coefficients: (number[] | null)[] = [];
  const members = pairs[0]?.grades.length ?? 0;
  for (let f = 0; f < folds; f++) {
    const train = pairs.filter((p) => foldOf.get(p.qid) !== f && human.has(key(p)));
    coefficients.push(
      train.length >= members + 2
        ? leastSquares(
            train.map((p) => p.grades),
            train.map((p) => human.get(key(p))!),
          )
        : null,
    );
  }
  return pairs.map((p) => {
    const fold = foldOf.get(p.qid)!;
    const b = coefficients[fold];
    if (!b)
      return { qid: p.qid, docid: p.docid, grade: meanGrade(p.grades), members: p.grades, fold, fallback: "mean" };
    const yhat = b[0] + p.grades.reduce((s, g, m) => s + b[m + 1] * g, 0);
    return { qid: p.qid, docid: p.docid, grade: clipGrade(Math.round(yhat)), members: p.grades, fold, coefficients: b };
  });
}
