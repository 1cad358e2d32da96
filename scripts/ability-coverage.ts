/**
 * How often the ability model's 95 % intervals (lib/stats/annotators-model.ts) hold the true bias
 * and reliability, in simulated collections unkind in the ways real ones are: few grades per
 * annotator, two annotators an item, rare middle grades. README ("The quality of each annotator")
 * quotes its output.
 *
 *   npx tsx scripts/ability-coverage.ts [COLLECTIONS=200] [sandwich|bootstrap]
 *
 * (the second argument picks the intervals: the model's default, the question-clustered sandwich,
 * or the question bootstrap with the model refitted, for comparison).
 *
 * Each collection: 80 questions × 8 items, true grades 0/1/2/3 with shares 60/10/10/20 %; two of
 * 8 annotators grade each item. Annotator a gives the true grade with probability rel[a], else a
 * neighbour (either side, equally); then moves one grade in the direction of their leaning with
 * probability |lean[a]|; the grade is then kept within 0–3. Their true error-rate matrix follows exactly
 * from that process, and bias and reliability from it and the true shares, as the model defines
 * them (Σ_j p_j Σ_l π[j][l](l − j) and Σ_j p_j π[j][j]).
 */
import { abilityModel } from "../lib/stats/annotators-model.ts";
import type { TAnnotatedItem } from "../lib/stats/annotators.ts";
import { seededRng } from "../lib/stats/random.ts";

const QUESTIONS = 80;
const ITEMS_PER_QUESTION = 8;
const ANNOTATORS = 8;
const SHARES = [0.6, 0.1, 0.1, 0.2];
const lean = Array.from({ length: ANNOTATORS }, (_, a) => (a % 3 === 0 ? 0.5 : a % 3 === 1 ? 0 : -0.3));
const rel = Array.from({ length: ANNOTATORS }, (_, a) => 0.6 + (0.35 * ((a * 7) % 5)) / 4);
const clip = (g: number) => Math.max(0, Math.min(3, g));

/** π_a[j][l] of the process in the file's comment. */
function errorRates(a: number): number[][] {
  const m = Array.from({ length: 4 }, () => [0, 0, 0, 0]);
  for (let j = 0; j < 4; j++)
    for (const [first, w0] of [
      [j, rel[a]],
      [j - 1, (1 - rel[a]) / 2],
      [j + 1, (1 - rel[a]) / 2],
    ])
      for (const [step, w1] of [
        [Math.sign(lean[a]), Math.abs(lean[a])],
        [0, 1 - Math.abs(lean[a])],
      ])
        m[j][clip(first + step)] += w0 * w1;
  return m;
}

const truth = Array.from({ length: ANNOTATORS }, (_, a) => {
  const m = errorRates(a);
  let bias = 0;
  let reliability = 0;
  for (let j = 0; j < 4; j++) {
    reliability += SHARES[j] * m[j][j];
    for (let l = 0; l < 4; l++) bias += SHARES[j] * m[j][l] * (l - j);
  }
  return { bias, reliability };
});

function collection(seed: number): TAnnotatedItem[] {
  const rng = seededRng(seed);
  const items: TAnnotatedItem[] = [];
  for (let q = 0; q < QUESTIONS; q++)
    for (let d = 0; d < ITEMS_PER_QUESTION; d++) {
      const u = rng.next();
      const g = u < 0.6 ? 0 : u < 0.7 ? 1 : u < 0.8 ? 2 : 3;
      const who = new Set<number>();
      while (who.size < 2) who.add(rng.int(ANNOTATORS));
      const judgements = [...who].map((a) => {
        let x = g;
        if (rng.next() > rel[a]) x = g + (rng.next() < 0.5 ? -1 : 1);
        if (rng.next() < Math.abs(lean[a])) x += Math.sign(lean[a]);
        return { annotator: `A${a}`, grade: clip(x), startSeconds: null, timeSpentMs: null };
      });
      items.push({
        qid: `q${q}`,
        docid: `q${q}d${d}`,
        judgements,
        adjudication: null,
        final: { grade: g, startSeconds: null },
      });
    }
  return items;
}

const collections = Number(process.argv[2] ?? 200);
const interval = process.argv[3] === "bootstrap" ? "bootstrap" : "sandwich";
const held = truth.map(() => ({ bias: 0, reliability: 0, n: 0, estimate: 0 }));
let without = 0;
for (let c = 0; c < collections; c++) {
  const model = abilityModel(collection(1000 + c), { interval });
  if (model?.annotators.some((x) => !x.biasInterval)) without++;
  for (const x of model?.annotators ?? []) {
    const a = Number(x.annotator.slice(1));
    const h = held[a];
    h.n++;
    h.estimate += x.bias;
    if (x.biasInterval && x.biasInterval.low <= truth[a].bias && truth[a].bias <= x.biasInterval.high) h.bias++;
    const r = x.reliabilityInterval;
    if (r && r.low <= truth[a].reliability && truth[a].reliability <= r.high) h.reliability++;
  }
}
console.log(`| annotator | true bias | mean estimate | bias held | true reliability | reliability held |`);
console.log(`|---|---|---|---|---|---|`);
held.forEach((h, a) =>
  console.log(
    `| A${a} | ${truth[a].bias.toFixed(3)} | ${(h.estimate / h.n).toFixed(3)} | ${((100 * h.bias) / h.n).toFixed(0)} % | ${truth[a].reliability.toFixed(3)} | ${((100 * h.reliability) / h.n).toFixed(0)} % |`,
  ),
);
console.log(
  `\n${collections} collections, 95 % intervals (${interval}), ${without} of them without intervals (npx tsx scripts/ability-coverage.ts ${collections} ${interval})`,
);
