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
 * Intervals: 95% percentile bootstrap over questions (resampled questions keep all their items;
 * the model is refitted on each resample, each item weighted by how many times its question was
 * drawn, which is the same fit as the resample written out; resamples in which the annotator
 * graded nothing are dropped). Fewer than 3 questions: no interval.
 */
import { DEFAULT_LEVEL, DEFAULT_SEED, percentileInterval } from "./bootstrap.ts";
import { seededRng } from "./random.ts";
import { dawidSkeneSparse, type TSparseAnswers } from "./dawid-skene.ts";
import { agreementCell, type TAgreementCell, type TAnnotatedItem, type TInterval } from "./annotators.ts";
import type { LabelPair } from "./agreement/align.ts";

const K = 4;

export type TAnnotatorAbility = {
  annotator: string;
  bias: number;
  biasInterval: TInterval | null;
  reliability: number;
  reliabilityInterval: TInterval | null;
};
export type TAbilityModel = {
  method: string;
  items: number;
  iterations: number;
  /** Estimated share of items per grade 0–3. */
  marginals: number[];
  annotators: TAnnotatorAbility[];
  /** The model's item grades against the final human reference. */
  vsReference: TAgreementCell;
  vsAdjudicated: TAgreementCell;
};

type TAbilities = Map<string, { bias: number; reliability: number }>;

/** Every item's grades as the model's compressed answers (annotators by their index in `annotators`). */
function answersOf(items: readonly TAnnotatedItem[], annotators: readonly string[]): TSparseAnswers {
  const index = new Map(annotators.map((a, i) => [a, i]));
  const start = new Int32Array(items.length + 1);
  const annotator: number[] = [];
  const cls: number[] = [];
  const count: number[] = [];
  items.forEach((it, i) => {
    // Per annotator and grade, in annotator then grade order (the order the EM multiplies in).
    const cells = new Map<number, number>();
    for (const j of it.judgements) {
      const key = index.get(j.annotator)! * K + j.grade;
      cells.set(key, (cells.get(key) ?? 0) + 1);
    }
    for (const key of [...cells.keys()].sort((x, y) => x - y)) {
      annotator.push(Math.floor(key / K));
      cls.push(key % K);
      count.push(cells.get(key)!);
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

function fitAbilities(
  data: TSparseAnswers,
  annotators: readonly string[],
  opts: { initial?: Float64Array; weight?: Float64Array } = {},
) {
  const fit = dawidSkeneSparse(data, K, opts);
  const graded = new Uint8Array(annotators.length);
  for (let i = 0; i < data.items; i++)
    if (!opts.weight || opts.weight[i] > 0)
      for (let e = data.start[i]; e < data.start[i + 1]; e++) graded[data.annotator[e]] = 1;
  const abilities: TAbilities = new Map();
  annotators.forEach((a, ai) => {
    if (!graded[ai]) return;
    const e = fit.errorRates[ai];
    let bias = 0;
    let reliability = 0;
    for (let j = 0; j < K; j++) {
      reliability += fit.marginals[j] * e[j * K + j];
      for (let l = 0; l < K; l++) bias += fit.marginals[j] * e[j * K + l] * (l - j);
    }
    abilities.set(a, { bias, reliability });
  });
  return { fit, abilities };
}

export function abilityModel(
  items: readonly TAnnotatedItem[],
  opts: { resamples?: number; seed?: number; level?: number; minPairs?: number } = {},
): TAbilityModel | null {
  const labelled = items.filter((it) => it.judgements.length > 0);
  if (labelled.length === 0) return null;
  const annotators = [...new Set(labelled.flatMap((it) => it.judgements.map((j) => j.annotator)))].sort();
  const answers = answersOf(labelled, annotators);
  const { fit, abilities } = fitAbilities(answers, annotators);
  const estimated = labelled.map((_, i) => {
    let best = 0;
    for (let j = 1; j < K; j++) if (fit.posteriors[i * K + j] > fit.posteriors[i * K + best]) best = j;
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

  // Question bootstrap of every annotator's bias and reliability.
  const resamples = opts.resamples ?? 200;
  const level = opts.level ?? DEFAULT_LEVEL;
  const qids = [...new Set(labelled.map((it) => it.qid))];
  // Each question's items by their place in `labelled`; a resample weights each item by its
  // question's draws and starts from the full fit's posteriors (the same fixed point is reached in
  // a few iterations).
  const byQuestion = new Map<string, number[]>();
  labelled.forEach((it, i) => {
    const list = byQuestion.get(it.qid);
    if (list) list.push(i);
    else byQuestion.set(it.qid, [i]);
  });
  const members = qids.map((q) => byQuestion.get(q)!);
  const draws = new Map(annotators.map((a) => [a, { bias: [] as number[], reliability: [] as number[] }]));
  if (qids.length >= 3) {
    const rng = seededRng(opts.seed ?? DEFAULT_SEED);
    const weight = new Float64Array(labelled.length);
    for (let b = 0; b < resamples; b++) {
      weight.fill(0);
      for (let k = 0; k < qids.length; k++) for (const i of members[rng.int(qids.length)]) weight[i]++;
      const { abilities: drawn } = fitAbilities(answers, annotators, { initial: fit.posteriors, weight });
      for (const [a, v] of drawn) {
        draws.get(a)!.bias.push(v.bias);
        draws.get(a)!.reliability.push(v.reliability);
      }
    }
  }
  const interval = (values: number[]): TInterval | null => {
    const ci = values.length ? percentileInterval(Float64Array.from(values).sort(), level, values.length) : null;
    return ci ? { low: ci.low, high: ci.high } : null;
  };
  return {
    method: "Dawid & Skene (1979) EM, grades 0–3 as classes; intervals: question bootstrap, model refitted",
    items: labelled.length,
    iterations: fit.iterations,
    marginals: Array.from(fit.marginals),
    annotators: annotators.map((a) => ({
      annotator: a,
      bias: abilities.get(a)!.bias,
      biasInterval: interval(draws.get(a)!.bias),
      reliability: abilities.get(a)!.reliability,
      reliabilityInterval: interval(draws.get(a)!.reliability),
    })),
    vsReference: agreementCell(toReference, { minPairs: opts.minPairs }),
    vsAdjudicated: agreementCell(toAdjudicated, { minPairs: opts.minPairs }),
  };
}
