import { shuffle, type RandomFn } from "../stats/random.ts";

/**
 * The calibration sample: N pool items that fill the thin calibration cells first (a grade with
 * fewer than the project's minimum of human examples, overall or within a query tag), then spread
 * over queries and, when judge labels exist, over judge grades, so that rare grades are represented.
 *
 * A candidate has no human grade yet, so its judge grade stands in for it: with several judges,
 * the median of their grades rounded down; "none" when no judge graded it.
 *
 * The scheme, exactly:
 * 1. Thin cells first (only when `counts` is given). A cell is a grade overall or a (query tag,
 *    grade); its deficit is the minimum per grade less what the cell already has (final human
 *    labels by their grade, plus items already assigned and not yet final, by their judge grade:
 *    they will be labelled). While a cell with a deficit has candidates left (candidates whose
 *    judge grade is the cell's grade, in a query with the cell's tag), the cell with the largest
 *    deficit gives its next candidate (ties: the cell with fewer candidates, then the higher
 *    grade, then overall before tags, tags in name order), and every cell that candidate belongs
 *    to (its grade overall and under each of its query's tags) counts it. A cell's candidates come
 *    round-robin over its queries, as in step 3.
 * 2. The rest of N comes from equal allocation over the remaining candidates:
 * 3. Each candidate falls in one stratum, its judge grade or "none". Within a stratum, items are
 *    grouped by query; the queries are shuffled and so are the items of each query; the stratum's
 *    sequence takes one item from each query in turn (round-robin), so a stratum's first k items
 *    come from k different queries when it spans that many.
 * 4. Strata take turns, the smallest stratum first (ties: higher grade first, "none" last), each
 *    contributing the next item of its sequence, skipping exhausted strata, until N items are taken.
 *    This is equal allocation: every grade gets as many items as the rarest can give, up to N/strata.
 *    Without judge labels there is one stratum and the sample is a round-robin over queries.
 * Randomness comes from the seeded generator, so the same seed and data give the same sample.
 */
export type TSampleCandidate = { id: string; queryId: number; judgeGrade: number | null; tags?: readonly string[] };

/** What calibration already has per grade (index = grade 0–3), overall and per query tag. */
export type TCalibrationCounts = {
  minPerGrade: number;
  overall: readonly number[];
  byTag: ReadonlyMap<string, readonly number[]>;
};

const GRADES = [0, 1, 2, 3];

export function calibrationSample(
  candidates: readonly TSampleCandidate[],
  n: number,
  rng: RandomFn,
  counts?: TCalibrationCounts,
): TSampleCandidate[] {
  const taken = counts ? fillThinCells(candidates, n, rng, counts) : [];
  if (taken.length >= n) return taken;
  const takenIds = new Set(taken.map((c) => c.id));
  return [
    ...taken,
    ...equalAllocation(
      taken.length ? candidates.filter((c) => !takenIds.has(c.id)) : candidates,
      n - taken.length,
      rng,
    ),
  ];
}

type Cell = {
  tag: string | null;
  grade: number;
  deficit: number;
  members: TSampleCandidate[];
  sequence: TSampleCandidate[];
  next: number;
};

/** Step 1 of the scheme above: candidates for the cells short of the minimum per grade. */
function fillThinCells(
  candidates: readonly TSampleCandidate[],
  n: number,
  rng: RandomFn,
  counts: TCalibrationCounts,
): TSampleCandidate[] {
  const cells = new Map<string, Cell>();
  const key = (tag: string | null, grade: number) => `${grade}\u0000${tag ?? ""}`;
  const open = (tag: string | null, have: readonly number[] | undefined) => {
    for (const grade of GRADES) {
      const deficit = counts.minPerGrade - (have?.[grade] ?? 0);
      if (deficit > 0) cells.set(key(tag, grade), { tag, grade, deficit, members: [], sequence: [], next: 0 });
    }
  };
  open(null, counts.overall);
  const tags = [...new Set(candidates.flatMap((c) => c.tags ?? []))].sort();
  for (const tag of tags) open(tag, counts.byTag.get(tag));
  const cellsOf = (c: TSampleCandidate): Cell[] => {
    if (c.judgeGrade === null) return [];
    const out: Cell[] = [];
    const overall = cells.get(key(null, c.judgeGrade));
    if (overall) out.push(overall);
    for (const tag of new Set(c.tags ?? [])) {
      const cell = cells.get(key(tag, c.judgeGrade));
      if (cell) out.push(cell);
    }
    return out;
  };
  for (const c of candidates) for (const cell of cellsOf(c)) cell.members.push(c);
  const order = [...cells.values()]
    .filter((c) => c.members.length > 0)
    .sort(
      (a, b) =>
        a.members.length - b.members.length ||
        b.grade - a.grade ||
        (a.tag === null ? -1 : b.tag === null ? 1 : a.tag < b.tag ? -1 : a.tag > b.tag ? 1 : 0),
    );
  for (const cell of order) cell.sequence = roundRobinByQuery(cell.members, rng);
  const taken: TSampleCandidate[] = [];
  const takenIds = new Set<string>();
  while (taken.length < n) {
    let best: Cell | null = null;
    for (const cell of order) {
      while (cell.next < cell.sequence.length && takenIds.has(cell.sequence[cell.next].id)) cell.next++;
      if (cell.deficit > 0 && cell.next < cell.sequence.length && (best === null || cell.deficit > best.deficit))
        best = cell;
    }
    if (best === null) break;
    const c = best.sequence[best.next++];
    taken.push(c);
    takenIds.add(c.id);
    for (const cell of cellsOf(c)) cell.deficit--;
  }
  return taken;
}

/** Steps 3 and 4 of the scheme above. */
function equalAllocation(candidates: readonly TSampleCandidate[], n: number, rng: RandomFn): TSampleCandidate[] {
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

export function roundRobinByQuery<T extends TSampleCandidate>(items: T[], rng: RandomFn): T[] {
  const byQuery = new Map<number, T[]>();
  for (const it of items) {
    const list = byQuery.get(it.queryId);
    if (list) list.push(it);
    else byQuery.set(it.queryId, [it]);
  }
  // Sort before shuffling so the result depends only on the seed, not on the input order.
  const queues = shuffle(
    [...byQuery.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, list]) =>
        shuffle(
          [...list].sort((a, b) => (a.id < b.id ? -1 : 1)),
          rng,
        ),
      ),
    rng,
  );
  const out: T[] = [];
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
