/**
 * Near-duplicate questions, pure: two questions are near-duplicates when the
 * Jaccard similarity of their sets of content terms (text.ts: stop words removed, S-stemmed) is at
 * least `DUPLICATE_JACCARD` (0.6, a stated threshold): |A ∩ B| / |A ∪ B|. Questions without content
 * terms are never duplicates. Near-duplicates are reported as groups (connected components),
 * never as every pair: 5,000 copies of one question are one group, not 12.5 million pairs.
 */
import { contentTerms } from "./text.ts";

export const DUPLICATE_JACCARD = 0.6;

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const t of a) if (b.has(t)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Content-term sets by question text, kept between calls (the review list asks for the same texts again); emptied past 100,000 texts. */
const termSets = new Map<string, ReadonlySet<string>>();
function termSet(text: string): ReadonlySet<string> {
  let set = termSets.get(text);
  if (!set) {
    if (termSets.size >= 100_000) termSets.clear();
    termSets.set(text, (set = new Set(contentTerms(text))));
  }
  return set;
}

/** A group of near-duplicate questions (groups, not every pair). */
export type TDuplicateCluster = {
  /** Question ids, in input order. */
  ids: number[];
  /** The lowest Jaccard similarity among the links that joined the group (1: all have the same content terms). */
  similarity: number;
};
export type TDuplicateClusters = {
  /** Largest first, then by the first question's place in the input. */
  clusters: TDuplicateCluster[];
  /** False when the similarity step stopped at its budget: some near (not identical) questions may not be grouped. */
  complete: boolean;
  /** Candidate visits made by the similarity step (≤ the budget). */
  comparisons: number;
};

/** Candidate visits of the similarity step per review (about 0.1 s of work at most on an idle machine). */
export const MAX_DUPLICATE_COMPARISONS = 1_000_000;

/** Jaccard similarity of two sets given as ascending arrays of distinct numbers. */
function sortedJaccard(a: Int32Array, b: Int32Array): number {
  let inter = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      inter++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return inter / (a.length + b.length - inter);
}

/** The first index in an ascending list that is greater than `i` (binary search). */
function firstAfter(list: readonly number[], i: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] <= i) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Near-duplicate groups: the connected components of the graph linking two questions whose
 * content-term sets have a Jaccard similarity ≥ `threshold`. Work stays bounded whatever is posted:
 * 1. questions with the same set of content terms (same normalised text, up to stop words and
 *    plurals) form one group at once, without comparing them (5,000 identical questions: one group);
 * 2. the distinct sets are compared by prefix filtering (Bayardo, Ma and Srikant 2007, "Scaling up
 *    all pairs similarity search"): each set's terms in one global order (rarest first), only the
 *    first |A| − ⌈t·|A|⌉ + 1 of them indexed and looked up. J(A, B) ≥ t means |A ∩ B| ≥ t·max(|A|,
 *    |B|), and two sets sharing that many terms share one within those prefixes, so no link is
 *    missed. Two sets already in one group are not compared again (union-find), and the step stops
 *    after `budget` candidate visits (`complete: false`), so even thousands of distinct but similar
 *    texts cost a bounded time instead of their millions of pairs.
 */
export function duplicateClusters(
  questions: readonly { id: number; text: string }[],
  threshold = DUPLICATE_JACCARD,
  budget = MAX_DUPLICATE_COMPARISONS,
): TDuplicateClusters {
  // Step 1: one group per distinct content-term set.
  const groupOf = new Map<string, number>();
  const sets: ReadonlySet<string>[] = [];
  const members: number[][] = [];
  questions.forEach((q, i) => {
    const set = termSet(q.text);
    if (set.size === 0) return;
    const key = [...set].sort().join(" ");
    let g = groupOf.get(key);
    if (g === undefined) {
      groupOf.set(key, (g = sets.length));
      sets.push(set);
      members.push([]);
    }
    members[g].push(i);
  });

  // Step 2: link distinct sets; a union-find over groups, each root with the lowest similarity of its links.
  const parent = sets.map((_, i) => i);
  const lowest = sets.map(() => 1);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  // Terms numbered rarest first (ties by text): a set as its ascending numbers is in the global
  // order, its prefix is its first numbers, and Jaccard is a merge of two sorted arrays.
  const df = new Map<string, number>();
  for (const s of sets) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1);
  const termId = new Map(
    [...df.keys()].sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0)).map((t, i) => [t, i]),
  );
  const sorted = sets.map((s) => Int32Array.from(s, (t) => termId.get(t)!).sort());
  // The prefix is rounded up (the 1e-9 guards ⌈t·n⌉ against a product a hair above an integer): a longer prefix only adds candidates.
  const prefixLength = sorted.map((s) =>
    Math.min(s.length, Math.max(0, s.length - Math.ceil(threshold * s.length - 1e-9) + 1)),
  );
  const postings: number[][] = Array.from({ length: termId.size }, () => []);
  sorted.forEach((s, i) => {
    for (let k = 0; k < prefixLength[i]; k++) postings[s[k]].push(i);
  });
  const seenBy = new Int32Array(sets.length).fill(-1);
  let comparisons = 0;
  let complete = true;
  outer: for (let i = 0; i < sets.length; i++) {
    for (let p = 0; p < prefixLength[i]; p++) {
      const list = postings[sorted[i][p]];
      for (let k = firstAfter(list, i); k < list.length; k++) {
        if (++comparisons > budget) {
          complete = false;
          comparisons = budget;
          break outer;
        }
        const j = list[k];
        if (seenBy[j] === i) continue;
        seenBy[j] = i;
        const a = find(i);
        const b = find(j);
        if (a === b) continue;
        const similarity = sortedJaccard(sorted[i], sorted[j]);
        if (similarity < threshold) continue;
        parent[b] = a;
        lowest[a] = Math.min(lowest[a], lowest[b], similarity);
      }
    }
  }

  const byRoot = new Map<number, number[]>();
  members.forEach((m, g) => {
    const r = find(g);
    const list = byRoot.get(r);
    if (list) list.push(...m);
    else byRoot.set(r, [...m]);
  });
  const clusters: (TDuplicateCluster & { first: number })[] = [];
  for (const [root, idx] of byRoot) {
    if (idx.length < 2) continue;
    idx.sort((x, y) => x - y);
    clusters.push({ ids: idx.map((i) => questions[i].id), similarity: lowest[root], first: idx[0] });
  }
  clusters.sort((x, y) => y.ids.length - x.ids.length || x.first - y.first);
  return { clusters: clusters.map(({ ids, similarity }) => ({ ids, similarity })), complete, comparisons };
}
