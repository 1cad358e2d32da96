import { shuffle, type Rng } from "./random.ts";

/**
 * The calibration sample: N pool items spread over queries and, when judge labels exist, over
 * judge grades, so that rare grades are represented.
 *
 * The scheme, exactly:
 * 1. Each candidate falls in one stratum: its judge grade (0–3) — with several judges, the median
 *    of their grades rounded down — or "none" when no judge graded it.
 * 2. Within a stratum, items are grouped by query; the queries are shuffled and so are the items
 *    of each query; the stratum's sequence takes one item from each query in turn (round-robin),
 *    so a stratum's first k items come from k different queries when it spans that many.
 * 3. Strata take turns, the smallest stratum first (ties: higher grade first, "none" last), each
 *    contributing the next item of its sequence, skipping exhausted strata, until N items are taken.
 *    This is equal allocation: every grade gets as many items as the rarest can give, up to N/strata.
 *    Without judge labels there is one stratum and the sample is a round-robin over queries.
 * Randomness comes from the seeded generator, so the same seed and data give the same sample.
 */
export type TSampleCandidate = { id: string; queryId: number; judgeGrade: number | null };

export function calibrationSample(candidates: readonly TSampleCandidate[], n: number, rng: Rng): TSampleCandidate[] {
  const strata = new Map<string, TSampleCandidate[]>();
  for (const c of candidates) {
    const key = c.judgeGrade === null ? "none" : String(c.judgeGrade);
    const list = strata.get(key);
    if (list) list.push(c);
    else strata.set(key, [c]);
  }
  const order = [...strata.entries()].sort(([ka, a], [kb, b]) => a.length - b.length || rankKey(kb) - rankKey(ka));
  const sequences = order.map(([, items]) => roundRobinByQuery(items, rng));
  const taken: TSampleCandidate[] = [];
  const cursor = sequences.map(() => 0);
  while (taken.length < n) {
    let progressed = false;
    for (let s = 0; s < sequences.length && taken.length < n; s++) {
      if (cursor[s] < sequences[s].length) {
        taken.push(sequences[s][cursor[s]++]);
        progressed = true;
      }
    }
    if (!progressed) break;
  }
  return taken;
}

// "3" > "2" > "1" > "0" > "none" in turn order among equally small strata.
const rankKey = (k: string) => (k === "none" ? -1 : Number(k));

function roundRobinByQuery(items: TSampleCandidate[], rng: Rng): TSampleCandidate[] {
  const byQuery = new Map<number, TSampleCandidate[]>();
  for (const it of items) {
    const list = byQuery.get(it.queryId);
    if (list) list.push(it);
    else byQuery.set(it.queryId, [it]);
  }
  // Sort before shuffling so the result depends only on the seed, not on the input order.
  const queues = shuffle(
    [...byQuery.entries()].sort(([a], [b]) => a - b).map(([, list]) => shuffle([...list].sort((a, b) => (a.id < b.id ? -1 : 1)), rng)),
    rng,
  );
  const out: TSampleCandidate[] = [];
  for (let round = 0; out.length < items.length; round++) {
    for (const q of queues) if (round < q.length) out.push(q[round]);
  }
  return out;
}

/** The stratum grade from several judges' grades: the median, rounded down. */
export function judgeStratumGrade(grades: readonly number[]): number | null {
  if (grades.length === 0) return null;
  const s = [...grades].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : Math.floor((s[mid - 1] + s[mid]) / 2);
}
