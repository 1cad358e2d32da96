/**
 * Near-duplicate questions (issue 23 item 2), pure: two questions are near-duplicates when the
 * Jaccard similarity of their sets of content terms (text.ts: stop words removed, S-stemmed) is at
 * least `DUPLICATE_JACCARD` (0.6, a stated threshold): |A ∩ B| / |A ∪ B|. Questions without content
 * terms are never duplicates. Only candidate pairs are compared (prefix filtering, below), so 3,000
 * questions cost far fewer than their 4.5 million pairs.
 */
import { contentTerms } from "./text.ts";

export const DUPLICATE_JACCARD = 0.6;

export type TDuplicatePair = { a: number; b: number; similarity: number };

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

/**
 * Pairs (ids a < b in input order) at or above the threshold, most similar first. Candidates come
 * from prefix filtering (Bayardo, Ma and Srikant 2007, "Scaling up all pairs similarity search"):
 * each set's terms in one global order (rarest first), only the first |A| − ⌈t·|A|⌉ + 1 of them
 * indexed and looked up. J(A, B) ≥ t means |A ∩ B| ≥ t·max(|A|, |B|), and two sets sharing that
 * many terms share one within those prefixes, so no pair at or above the threshold is missed, while
 * a term most questions share (a log's "query") no longer makes every pair a candidate. Each
 * candidate is checked with the exact Jaccard.
 */
export function nearDuplicates(questions: readonly { id: number; text: string }[], threshold = DUPLICATE_JACCARD): TDuplicatePair[] {
  const sets = questions.map((q) => termSet(q.text));
  const df = new Map<string, number>();
  for (const s of sets) for (const t of s) df.set(t, (df.get(t) ?? 0) + 1);
  const rarestFirst = (a: string, b: string) => df.get(a)! - df.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  // The prefix is rounded up (the 1e-9 guards ⌈t·n⌉ against a product a hair above an integer): a longer prefix only adds candidates.
  const prefixes = sets.map((s) => {
    const sorted = [...s].sort(rarestFirst);
    const length = Math.min(sorted.length, Math.max(0, sorted.length - Math.ceil(threshold * sorted.length - 1e-9) + 1));
    return sorted.slice(0, length);
  });
  const postings = new Map<string, number[]>();
  prefixes.forEach((prefix, i) => {
    for (const t of prefix) {
      const list = postings.get(t);
      if (list) list.push(i);
      else postings.set(t, [i]);
    }
  });
  const out: TDuplicatePair[] = [];
  for (let i = 0; i < sets.length; i++) {
    const candidates = new Set<number>();
    for (const t of prefixes[i]) for (const j of postings.get(t)!) if (j > i) candidates.add(j);
    for (const j of candidates) {
      const similarity = jaccard(sets[i], sets[j]);
      if (similarity >= threshold) out.push({ a: questions[i].id, b: questions[j].id, similarity });
    }
  }
  return out.sort((x, y) => y.similarity - x.similarity || x.a - y.a || x.b - y.b);
}
