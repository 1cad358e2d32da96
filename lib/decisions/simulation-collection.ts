/**
 * The decision benchmark's simulated collections (lib/decisions/simulation.ts runs the designs on
 * them): `size` questions of the simulated world (lib/decisions/simulation-world.ts), the judge's and
 * people's nDCG@10 of runs A and B on each, the design's uncertainty of each question from a
 * calibration on CALIBRATION_QUESTIONS other questions, and the minimal test collection's values.
 */
import type { Rng } from "../stats/random.ts";
import { calibration, discriminatingChunks, questionUncertainty } from "./design.ts";
import {
  CUTOFF,
  RUNS,
  ndcg10,
  simQuestion,
  worldParams,
  type TSimJudge,
  type TSimQuestion,
} from "./simulation-world.ts";

export const CALIBRATION_QUESTIONS = 10;
export const PER_ITEM = 2;

export type TSimCollection = {
  questions: TSimQuestion[];
  /** Per question: nDCG@10 of A and B with the judge's grades and with the final human grades. */
  judgeA: number[];
  judgeB: number[];
  humanA: number[];
  humanB: number[];
  /** Per question, the expected error of the predicted difference (the design's u). */
  uncertainty: number[];
  /** Human labels of the full pool (pairs × annotators). */
  fullPoolLabels: number;
  /**
   * Minimal test collection (Carterette, Allan & Sitaraman, SIGIR 2006): per question, the pooled
   * pairs A and B weigh differently in DCG@10 (rank or presence in the top 10 differs), the only ones
   * whose grades move DCG_A − DCG_B; and nDCG@10 of A and B with people's grades on those and the
   * judge's on the others, which then only enter the ideal DCG (the stated estimator of that design).
   */
  discriminating: number[];
  minimalA: number[];
  minimalB: number[];
};

/** Pooled chunk ids whose DCG@10 weight differs between two rankings: the app's rule (lib/decisions/design.ts). */
function discriminatingPairs(a: readonly number[], b: readonly number[], pool: number): boolean[] {
  const all = new Set(Array.from({ length: pool }, (_, c) => c));
  const d = new Set(discriminatingChunks([a, b], { kind: "dcg", cutoff: CUTOFF }, all));
  return Array.from({ length: pool }, (_, c) => d.has(c));
}

/**
 * A collection of `size` questions: RUNS runs, A (run 0) and B (run 1) with signals w·(1 + δ) and
 * w (δ given; the other runs at w), the judge (the published one unless `judge` is given)
 * calibrated on CALIBRATION_QUESTIONS other questions.
 */
export function simCollection(size: number, delta: number, rng: Rng, judge?: TSimJudge): TSimCollection {
  const params = worldParams();
  const signals = Array.from({ length: RUNS }, (_, r) => (r === 0 ? params.signal * (1 + delta) : params.signal));
  // A jury says where it is unsure (lib/decisions/design.ts calibration splits by it); a judge does not.
  const unsure = (q: TSimQuestion, c: number) => (q.unstable ? q.unstable[c] === 1 : undefined);
  const calibrationPairs: { human: number; judge: number | null; unstable?: boolean }[] = [];
  for (let q = 0; q < CALIBRATION_QUESTIONS; q++) {
    const c = simQuestion(signals, params, rng, judge);
    c.human.forEach((h, i) => calibrationPairs.push({ human: h, judge: c.judge[i], unstable: unsure(c, i) }));
  }
  const cal = calibration(calibrationPairs);
  const questions = Array.from({ length: size }, () => simQuestion(signals, params, rng, judge));
  const gain = (g: number) => g;
  return {
    questions,
    judgeA: questions.map((q) => ndcg10(q.rankings[0], q.judge)),
    judgeB: questions.map((q) => ndcg10(q.rankings[1], q.judge)),
    humanA: questions.map((q) => ndcg10(q.rankings[0], q.human)),
    humanB: questions.map((q) => ndcg10(q.rankings[1], q.human)),
    uncertainty: questions.map((q) =>
      questionUncertainty(
        [q.rankings[0], q.rankings[1]],
        { kind: "dcg", cutoff: CUTOFF },
        (c) => cal.given(q.judge[c], unsure(q, c)),
        gain,
        q.human.keys(),
      ),
    ),
    fullPoolLabels: questions.reduce((s, q) => s + q.human.length, 0) * PER_ITEM,
    ...minimal(questions),
  };
}

function minimal(questions: readonly TSimQuestion[]) {
  const discriminating: number[] = [];
  const minimalA: number[] = [];
  const minimalB: number[] = [];
  for (const q of questions) {
    const d = discriminatingPairs(q.rankings[0], q.rankings[1], q.human.length);
    const grades = Int8Array.from(q.human, (h, c) => (d[c] ? h : q.judge[c]));
    discriminating.push(d.filter(Boolean).length);
    minimalA.push(ndcg10(q.rankings[0], grades));
    minimalB.push(ndcg10(q.rankings[1], grades));
  }
  return { discriminating, minimalA, minimalB };
}
