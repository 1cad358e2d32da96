/**
 * Query logs into draft questions (issue 23 item 4), pure parts: normalisation, deduplication and
 * sampling. `lib/questions/log-import.ts` reads the file and writes the drafts.
 *
 * - Normalisation (`normaliseQuery`): Unicode NFKC, lower case, every punctuation or symbol
 *   character (`\p{P}`, `\p{S}`) replaced by a space, runs of white space collapsed to one space,
 *   trimmed. "What is  BM25?" and "what is bm25" are the same query.
 * - Deduplication: one entry per normalised text, its count the sum of the lines' counts (a line
 *   without `count` counts 1), its text the first line's original text (trimmed), its users the
 *   distinct users seen; empty normalised texts are dropped.
 * - Sampling, seeded (lib/assignment/random.ts mulberry32):
 *   - `frequency`: N entries without replacement with probability proportional to count
 *     (Efraimidis and Spirakis 2006, "Weighted random sampling with a reservoir": key u^(1/count)
 *     for u uniform in (0, 1), the N largest keys);
 *   - `stratified`: entries in frequency strata by decade of count (1, 2–9, 10–99, …: head, torso
 *     and tail), N split equally across the non-empty strata (the remainder to the most frequent
 *     strata first; a stratum smaller than its share gives the rest to the others), a simple random
 *     sample within each, so the rare tail is seen as well as the head.
 */
import { shuffle, type Rng } from "../assignment/random.ts";

export function normaliseQuery(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/[\p{P}\p{S}]+/gu, " ").replace(/\s+/gu, " ").trim();
}

export type TLogEntry = { key: string; text: string; count: number; users: number };

/** Accumulates log lines; `entries()` gives the deduplicated queries in first-seen order. */
export class LogDeduper {
  private readonly map = new Map<string, { text: string; count: number; users: Set<string> | null; anon: boolean }>();
  /** Raw text → normalised key: a log repeats the same strings, normalised once each. */
  private readonly keys = new Map<string, string>();
  lines = 0;

  add(text: string, count = 1, user?: string | null): void {
    this.lines++;
    let key = this.keys.get(text);
    if (key === undefined) this.keys.set(text, (key = normaliseQuery(text)));
    if (!key) return;
    let e = this.map.get(key);
    if (!e) this.map.set(key, (e = { text: text.trim(), count: 0, users: null, anon: false }));
    e.count += count;
    if (user) (e.users ??= new Set()).add(user);
  }

  entries(): TLogEntry[] {
    return [...this.map].map(([key, e]) => ({ key, text: e.text, count: e.count, users: e.users?.size ?? 0 }));
  }
}

export type TSampleStrategy = "frequency" | "stratified";

export function frequencySample(entries: readonly TLogEntry[], n: number, rng: Rng): TLogEntry[] {
  const keyed = entries.map((e) => ({ e, k: Math.pow(1 - rng(), 1 / e.count) }));
  keyed.sort((a, b) => b.k - a.k);
  return keyed.slice(0, Math.min(n, entries.length)).map((x) => x.e);
}

/** Decade of a count: 0 for 1, 1 for 2–9, 2 for 10–99, … */
export function stratumOf(count: number): number {
  return count <= 1 ? 0 : String(Math.floor(count)).length;
}

export function stratifiedSample(entries: readonly TLogEntry[], n: number, rng: Rng): TLogEntry[] {
  const strata = new Map<number, TLogEntry[]>();
  for (const e of entries) {
    const s = stratumOf(e.count);
    const list = strata.get(s);
    if (list) list.push(e);
    else strata.set(s, [e]);
  }
  const keys = [...strata.keys()].sort((a, b) => b - a); // most frequent stratum first
  const alloc = new Map<number, number>(keys.map((k) => [k, 0]));
  let left = Math.min(n, entries.length);
  while (left > 0) {
    const open = keys.filter((k) => alloc.get(k)! < strata.get(k)!.length);
    const share = Math.floor(left / open.length);
    let extra = left - share * open.length;
    for (const k of open) {
      const room = strata.get(k)!.length - alloc.get(k)!;
      const give = Math.min(room, share + (extra > 0 ? 1 : 0));
      if (extra > 0 && give > share) extra--;
      alloc.set(k, alloc.get(k)! + give);
      left -= give;
    }
  }
  return keys.flatMap((k) => shuffle([...strata.get(k)!], rng).slice(0, alloc.get(k)!));
}
