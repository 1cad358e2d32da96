/**
 * The annotator-ability model of the Annotators report: Dawid–Skene (lib/stats/dawid-skene.ts)
 * fitted on every human grade of the project, grades 0–3 as classes. From the fit:
 * - an annotator's bias: Σ_j p_j Σ_l π_a[j][l] (l − j), the expected grade they give minus the
 *   true grade for an item drawn from the estimated grade distribution (positive = lenient);
 * - an annotator's reliability: Σ_j p_j π_a[j][j], the probability they give the true grade;
 * - each item's estimated grade: its posterior's most probable grade (ties: the lower grade), a
 *   judge-like label set compared with the final human reference (kappa family,
 *   lib/stats/annotators.ts agreementCell) on every item with a final label and on the adjudicated
 *   ones alone (where people disagreed: the hard cases).
 * The fit is the posterior mode under a weak Dirichlet prior on each error-rate row (PRIOR below).
 * Intervals (95%): Wald intervals from a question-clustered sandwich variance of the fit
 * (lib/stats/dawid-skene-sandwich.ts; questions are the independent units, as in every other
 * interval of the report), with t quantiles on G − 1 degrees of freedom (G questions) and clipped
 * to the quantity's range. No interval with fewer than 3 questions or 3 annotators, when the EM did
 * not converge, or when the information matrix is not positive definite (the note says which). The
 * question bootstrap with the model refitted on each resample is kept as `interval: "bootstrap"`
 * for comparison (scripts/ability-coverage.ts runs both; minutes on a large pool, hence not the
 * default).
 *
 * Identical items (the same annotators giving the same grades) are merged into weighted patterns
 * before the fit: the same likelihood, a fraction of the work (100,000 grades: about 12,000
 * patterns).
 */
import { DEFAULT_LEVEL, DEFAULT_SEED, percentileInterval } from "./bootstrap.ts";
import { seededRng } from "./random.ts";
import { dawidSkeneSparse, type TSparseAnswers } from "./dawid-skene.ts";
import { clusterVariance } from "./dawid-skene-sandwich.ts";
import { studentTQuantile } from "./student-t.ts";
import { agreementCell, type TAgreementCell, type TAnnotatedItem, type TInterval } from "./annotators.ts";
import type { LabelPair } from "./agreement/align.ts";

const K = 4;
/** Fewer questions than this: no interval. */
const MIN_QUESTIONS = 3;

export type TAnnotatorAbility = {
  annotator: string;
  bias: number;
  biasInterval: TInterval | null;
  reliability: number;
  reliabilityInterval: TInterval | null;
};
export type TAbilityModel = {
  method: string;
  /** How the intervals were made, or why there are none. */
  intervals: string;
  items: number;
  iterations: number;
  /** Estimated share of items per grade 0–3. */
  marginals: number[];
  annotators: TAnnotatorAbility[];
  /** The model's item grades against the final human reference. */
  vsReference: TAgreementCell;
  vsAdjudicated: TAgreementCell;
};

/** Every item's grades as the model's compressed answers (annotators by their index in `annotators`). */
function answersOf(items: readonly TAnnotatedItem[], annotators: readonly string[]): TSparseAnswers {
  const index = new Map(annotators.map((a, i) => [a, i]));
  const start = new Int32Array(items.length + 1);
  const annotator: number[] = [];
  const cls: number[] = [];
  const count: number[] = [];
  const keys: number[] = [];
  items.forEach((it, i) => {
    // Per annotator and grade, in annotator then grade order (the order the EM multiplies in).
    keys.length = 0;
    for (const j of it.judgements) keys.push(index.get(j.annotator)! * K + j.grade);
    keys.sort((x, y) => x - y);
    for (let k = 0; k < keys.length; k++) {
      if (k > 0 && keys[k] === keys[k - 1]) {
        count[count.length - 1]++;
        continue;
      }
      annotator.push(Math.floor(keys[k] / K));
      cls.push(keys[k] % K);
      count.push(1);
    }
    start[i + 1] = annotator.length;
  });
  return {
    items: items.length,
    annotators: annotators.length,
    start,
    annotator: Int32Array.from(annotator),
    cls: Int32Array.from(cls),
    count: Float64Array.from(count),
  };
}

/** Bias Σ_j p_j Σ_l π_a[j][l](l − j) and reliability Σ_j p_j π_a[j][j] of annotator `a` at θ, with their gradients in θ's layout. */
function abilityAt(theta: Float64Array, a: number, withGradients: boolean) {
  const base = K + a * K * K;
  let bias = 0;
  let reliability = 0;
  const dBias = withGradients ? new Float64Array(theta.length) : null;
  const dReliability = withGradients ? new Float64Array(theta.length) : null;
  for (let j = 0; j < K; j++) {
    reliability += theta[j] * theta[base + j * K + j];
    let rowBias = 0;
    for (let l = 0; l < K; l++) rowBias += theta[base + j * K + l] * (l - j);
    bias += theta[j] * rowBias;
    if (dBias && dReliability) {
      dBias[j] = rowBias;
      dReliability[j] = theta[base + j * K + j];
      for (let l = 0; l < K; l++) dBias[base + j * K + l] = theta[j] * (l - j);
      dReliability[base + j * K + j] = theta[j];
    }
  }
  return { bias, reliability, dBias, dReliability };
}

/** The items' answers with identical items merged: the patterns, each item's pattern, and each pattern's multiplicity. */
function patternsOf(answers: TSparseAnswers): { patterns: TSparseAnswers; of: Int32Array; weight: Float64Array } {
  // The key of an item's answers: a number when they are at most two single answers (the usual
  // case: two annotators an item), else a string.
  const cells = answers.annotators * K + 1;
  const keyIndex = new Map<number | string, number>();
  const of = new Int32Array(answers.items);
  const start = [0];
  const annotator: number[] = [];
  const cls: number[] = [];
  const count: number[] = [];
  const weight: number[] = [];
  for (let i = 0; i < answers.items; i++) {
    const e0 = answers.start[i];
    const e1 = answers.start[i + 1];
    const cell = (e: number) => answers.annotator[e] * K + answers.cls[e] + 1;
    let key: number | string;
    if (e1 - e0 <= 2 && answers.count[e0] === 1 && (e1 - e0 < 2 || answers.count[e0 + 1] === 1))
      key = cell(e0) * cells + (e1 - e0 === 2 ? cell(e0 + 1) : 0);
    else {
      key = "";
      for (let e = e0; e < e1; e++) key += `${cell(e)}:${answers.count[e]},`;
    }
    let p = keyIndex.get(key);
    if (p === undefined) {
      keyIndex.set(key, (p = weight.length));
      weight.push(0);
      for (let e = e0; e < e1; e++) {
        annotator.push(answers.annotator[e]);
        cls.push(answers.cls[e]);
        count.push(answers.count[e]);
      }
      start.push(annotator.length);
    }
    weight[p]++;
    of[i] = p;
  }
  return {
    patterns: {
      items: weight.length,
      annotators: answers.annotators,
      start: Int32Array.from(start),
      annotator: Int32Array.from(annotator),
      cls: Int32Array.from(cls),
      count: Float64Array.from(count),
    },
    of,
    weight: Float64Array.from(weight),
  };
}

/** EM steps allowed for a fit (SQUAREM; plain EM needs thousands on sparse designs, see lib/stats/dawid-skene.ts). */
const MAX_EM_STEPS = 3000;
/**
 * Convergence: the largest change of a parameter between steps. 1e-5 is far below what the
 * intervals resolve (their half-widths are ≥ 0.01 on real pools); on the benchmark's 100,000 grades
 * a fit takes about 300 steps; at 1e-7 about 2.5 times as long, with the same intervals to 3 digits.
 */
const EM_TOL = 1e-5;
/**
 * Pseudo-count per error-rate cell (lib/stats/dawid-skene.ts `prior`): the fit is the posterior
 * mode under a weak Dirichlet prior (a tenth of a grade per cell), so an error an annotator happened
 * not to make in a small sample is rare rather than impossible. Without it such entries sit on the
 * boundary, where the sandwich takes no variance, and the intervals of careful annotators were too
 * narrow: in scripts/ability-coverage.ts (200 collections) maximum likelihood held the true bias in
 * 77–91 % and the true reliability in 76–93 % per annotator, this prior 86–98 % and 86–95 % (on
 * another 200 collections, 0.05 gave 83–95 % for reliability and 0.2 82–96 %, its most reliable
 * annotator lowest); the bias estimates move by about 0.01, towards the truth.
 */
const PRIOR = 0.1;
/** Fewer annotators than this: no intervals (two who disagree cannot tell which of them erred). */
const MIN_ANNOTATORS = 3;

export type TAbilityOptions = {
  level?: number;
  minPairs?: number;
  /** "sandwich" (default): question-clustered sandwich; "bootstrap": question bootstrap, model refitted (slow; for comparison). */
  interval?: "sandwich" | "bootstrap";
  /** Bootstrap only. */
  resamples?: number;
  seed?: number;
};

/** The model's fit (SQUAREM, the prior) and its parameters as one vector θ = [p, π_0, π_1, …]. */
function fitted(data: TSparseAnswers, weight: Float64Array, initial?: Float64Array) {
  const fit = dawidSkeneSparse(data, K, {
    initial,
    weight,
    accelerate: true,
    maxIter: MAX_EM_STEPS,
    tol: EM_TOL,
    prior: PRIOR,
  });
  const theta = new Float64Array(K + data.annotators * K * K);
  theta.set(fit.marginals);
  fit.errorRates.forEach((e, a) => theta.set(e, K + a * K * K));
  return { fit, theta };
}

export function abilityModel(items: readonly TAnnotatedItem[], opts: TAbilityOptions = {}): TAbilityModel | null {
  const labelled = items.filter((it) => it.judgements.length > 0);
  if (labelled.length === 0) return null;
  const annotators = [...new Set(labelled.flatMap((it) => it.judgements.map((j) => j.annotator)))].sort();
  const answers = answersOf(labelled, annotators);
  // Items with the same answers have the same posterior: the EM runs on the distinct patterns,
  // each weighted by how many items share it (the same likelihood, a fraction of the work).
  const { patterns, of, weight } = patternsOf(answers);
  const { fit, theta } = fitted(patterns, weight);
  const estimated = labelled.map((_, i) => {
    const p = of[i];
    let best = 0;
    for (let j = 1; j < K; j++) if (fit.posteriors[p * K + j] > fit.posteriors[p * K + best]) best = j;
    return best;
  });
  const toReference: LabelPair[] = [];
  const toAdjudicated: LabelPair[] = [];
  labelled.forEach((it, i) => {
    if (!it.final) return;
    const pair = { qid: it.qid, docid: it.docid, reference: it.final.grade, other: estimated[i] };
    toReference.push(pair);
    if (it.adjudication) toAdjudicated.push(pair);
  });

  const level = opts.level ?? DEFAULT_LEVEL;
  const qids = [...new Set(labelled.map((it) => it.qid))];
  const method = opts.interval ?? "sandwich";
  const intervals =
    qids.length < MIN_QUESTIONS
      ? {
          note: `no intervals: ${qids.length} question${qids.length === 1 ? "" : "s"}, fewer than ${MIN_QUESTIONS}`,
          of: () => null,
        }
      : annotators.length < MIN_ANNOTATORS
        ? {
            note: `no intervals: ${annotators.length} annotator${annotators.length === 1 ? "" : "s"}, fewer than ${MIN_ANNOTATORS} (where two grades disagree, the model cannot tell which is wrong)`,
            of: () => null,
          }
        : !fit.converged
          ? { note: `no intervals: the EM did not converge within ${MAX_EM_STEPS} steps`, of: () => null }
          : method === "sandwich"
            ? sandwichIntervals({ patterns, of, weight }, theta, labelled, qids, level)
            : bootstrapIntervals(answers, fit.posteriors, of, annotators, labelled, qids, level, opts);
  return {
    method: `Dawid & Skene (1979) EM (SQUAREM-accelerated), grades 0–3 as classes; posterior mode with a pseudo-count of ${PRIOR} per error-rate cell`,
    intervals: intervals.note,
    items: labelled.length,
    iterations: fit.iterations,
    marginals: Array.from(fit.marginals),
    annotators: annotators.map((a, ai) => {
      const { bias, reliability } = abilityAt(theta, ai, false);
      const ci = intervals.of(ai);
      return {
        annotator: a,
        bias,
        biasInterval: ci?.bias ?? null,
        reliability,
        reliabilityInterval: ci?.reliability ?? null,
      };
    }),
    vsReference: agreementCell(toReference, { minPairs: opts.minPairs }),
    vsAdjudicated: agreementCell(toAdjudicated, { minPairs: opts.minPairs }),
  };
}

type TIntervals = { note: string; of: (a: number) => { bias: TInterval; reliability: TInterval } | null };

/** Wald intervals from the question-clustered sandwich (lib/stats/dawid-skene-sandwich.ts), t with G − 1 degrees of freedom. */
function sandwichIntervals(
  answers: { patterns: TSparseAnswers; of: Int32Array; weight: Float64Array },
  theta: Float64Array,
  labelled: readonly TAnnotatedItem[],
  qids: readonly string[],
  level: number,
): TIntervals {
  const qIndex = new Map(qids.map((q, i) => [q, i]));
  const cluster = Int32Array.from(labelled, (it) => qIndex.get(it.qid)!);
  const cv = clusterVariance(
    answers.patterns,
    theta,
    K,
    { of: answers.of, cluster, clusters: qids.length },
    { weight: answers.weight, prior: PRIOR },
  );
  if (!cv.ok) return { note: `no intervals: ${cv.reason}`, of: () => null };
  const t = studentTQuantile(1 - (1 - level) / 2, qids.length - 1);
  const wald = (value: number, gradient: Float64Array, lo: number, hi: number): TInterval => {
    const half = t * Math.sqrt(Math.max(0, cv.variance(gradient)));
    return { low: Math.max(lo, value - half), high: Math.min(hi, value + half) };
  };
  return {
    note: `${Math.round(level * 100)}% Wald intervals, question-clustered sandwich variance (${qids.length} questions, t with ${qids.length - 1} df)`,
    of: (a) => {
      const { bias, reliability, dBias, dReliability } = abilityAt(theta, a, true);
      return { bias: wald(bias, dBias!, -(K - 1), K - 1), reliability: wald(reliability, dReliability!, 0, 1) };
    },
  };
}

/**
 * Percentile intervals of the question bootstrap: each resample weights an item by its question's
 * draws and refits the model from the full fit's posteriors (resamples in which the annotator
 * graded nothing are dropped).
 */
function bootstrapIntervals(
  answers: TSparseAnswers,
  posteriors: Float64Array,
  of: Int32Array,
  annotators: readonly string[],
  labelled: readonly TAnnotatedItem[],
  qids: readonly string[],
  level: number,
  opts: TAbilityOptions,
): TIntervals {
  const resamples = opts.resamples ?? 200;
  const byQuestion = new Map<string, number[]>();
  labelled.forEach((it, i) => {
    const list = byQuestion.get(it.qid);
    if (list) list.push(i);
    else byQuestion.set(it.qid, [i]);
  });
  const members = qids.map((q) => byQuestion.get(q)!);
  const initial = new Float64Array(labelled.length * K);
  for (let i = 0; i < labelled.length; i++) initial.set(posteriors.subarray(of[i] * K, of[i] * K + K), i * K);
  const draws = annotators.map(() => ({ bias: [] as number[], reliability: [] as number[] }));
  const rng = seededRng(opts.seed ?? DEFAULT_SEED);
  const weight = new Float64Array(labelled.length);
  const graded = new Uint8Array(annotators.length);
  for (let b = 0; b < resamples; b++) {
    weight.fill(0);
    for (let k = 0; k < qids.length; k++) for (const i of members[rng.int(qids.length)]) weight[i]++;
    const { theta } = fitted(answers, weight, initial);
    graded.fill(0);
    for (let i = 0; i < answers.items; i++)
      if (weight[i] > 0) for (let e = answers.start[i]; e < answers.start[i + 1]; e++) graded[answers.annotator[e]] = 1;
    annotators.forEach((_, a) => {
      if (!graded[a]) return;
      const { bias, reliability } = abilityAt(theta, a, false);
      draws[a].bias.push(bias);
      draws[a].reliability.push(reliability);
    });
  }
  const interval = (values: number[]): TInterval | null => {
    const ci = values.length ? percentileInterval(Float64Array.from(values).sort(), level, values.length) : null;
    return ci ? { low: ci.low, high: ci.high } : null;
  };
  return {
    note: `${Math.round(level * 100)}% percentile intervals, question bootstrap (${resamples} resamples, model refitted)`,
    of: (a) => {
      const bias = interval(draws[a].bias);
      const reliability = interval(draws[a].reliability);
      return bias && reliability ? { bias, reliability } : null;
    },
  };
}
