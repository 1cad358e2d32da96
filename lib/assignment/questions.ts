import { shuffle, type RandomFn } from "../stats/random.ts";

/**
 * Whole-question calibration sample (`assessor assign --sample-queries N`): N questions, whose
 * every pooled item is then assigned, so that each becomes completely human-labelled, as PPI over
 * per-question measures needs (lib/stats/ppi.ts).
 *
 * Stratified by tag with proportional allocation: a question's stratum is its set of tags
 * ("untagged" when it has none); each stratum gets N · size / total questions, rounded by largest
 * remainder (ties broken at random), and its questions are a simple random sample. Proportional
 * allocation keeps the sample self-weighting, so a mean over the sampled questions stays an
 * unbiased estimate of the mean over all of them (what PPI's rectifier assumes) while every tag is
 * represented about as often as it occurs. N larger than the candidates takes them all.
 */
export type TQuestionCandidate = { queryId: number; tags: readonly string[] };

export function questionSample(candidates: readonly TQuestionCandidate[], n: number, rng: RandomFn): number[] {
  const strata = new Map<string, number[]>();
  for (const c of [...candidates].sort((a, b) => a.queryId - b.queryId)) {
    const key = [...new Set(c.tags)].sort().join("\u0000");
    const list = strata.get(key);
    if (list) list.push(c.queryId);
    else strata.set(key, [c.queryId]);
  }
  const total = candidates.length;
  const take = Math.min(n, total);
  const keys = [...strata.keys()].sort();
  const quota = keys.map((k) => (take * strata.get(k)!.length) / total);
  const alloc = quota.map(Math.floor);
  let left = take - alloc.reduce((a, b) => a + b, 0);
  const byRemainder = shuffle(
    keys.map((_, i) => i),
    rng,
  ).sort((a, b) => quota[b] - alloc[b] - (quota[a] - alloc[a]));
  for (const i of byRemainder) {
    if (left === 0) break;
    alloc[i]++;
    left--;
  }
  return keys.flatMap((k, i) => shuffle([...strata.get(k)!], rng).slice(0, alloc[i]));
}
