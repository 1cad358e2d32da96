/**
 * Query logs into draft questions, pure parts: normalisation, deduplication and
 * sampling. `lib/questions/log-import.ts` reads the file and writes the drafts.
 *
 * - Normalisation (`normaliseQuery`): Unicode NFKC, lower case, every punctuation or symbol
 *   character (`\p{P}`, `\p{S}`) replaced by a space, runs of white space collapsed to one space,
 *   trimmed. "What is  BM25?" and "what is bm25" are the same query.
 * - Deduplication: one entry per normalised text, its count the sum of the lines' counts (a line
 *   without `count` counts 1), its text the first line's original text (trimmed), its users the
 *   distinct users seen; empty normalised texts are dropped.
 * - Sampling, seeded (lib/stats/random.ts mulberry32):
 *   - `frequency`: N entries without replacement with probability proportional to count
 *     (Efraimidis and Spirakis 2006, "Weighted random sampling with a reservoir": key u^(1/count)
 *     for u uniform in (0, 1), the N largest keys);
 *   - `stratified`: entries in frequency strata by decade of count (1, 2–9, 10–99, …: head, torso
 *     and tail), N split equally across the non-empty strata (the remainder to the most frequent
 *     strata first; a stratum smaller than its share gives the rest to the others), a simple random
 *     sample within each, so the rare tail is seen as well as the head.
 */
import { shuffle, type RandomFn } from "../stats/random.ts";

export function normaliseQuery(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
}

export type TLogEntry = { key: string; text: string; count: number; users: number };

/** Pair codes (entry × USER_SPAN + user) stay exact integers below 2^53 for these bounds. */
const USER_SPAN = 2 ** 26;
const MAX_ENTRIES = 2 ** 27;

/**
 * Accumulates log lines; `entries()` gives the deduplicated queries in first-seen order.
 * A million-line log is mostly repeats, so a line costs a map look-up of its raw text (normalised
 * once per distinct raw text) and, with a user, one number appended: users are numbered, and the
 * (entry, user) pairs are counted distinct once, by sorting them, instead of a set of users per
 * entry (a million set entries were most of the time and memory).
 */
export class LogDeduper {
  /** Raw text → entry index (-1: normalises to nothing). */
  private readonly raw = new Map<string, number>();
  /** Normalised key → entry index. */
  private readonly byKey = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly texts: string[] = [];
  private readonly counts: number[] = [];
  private readonly users = new Map<string, number>();
  /** The last user added per entry (a repeat of it is not stored again), -1 for none. */
  private lastUser = new Int32Array(1024).fill(-1);
  private pairs = new Float64Array(1 << 16);
  private pairCount = 0;
  lines = 0;

  add(text: string, count = 1, user?: string | null): void {
    this.lines++;
    let e = this.raw.get(text);
    if (e === undefined) {
      const key = normaliseQuery(text);
      if (!key) e = -1;
      else {
        e = this.byKey.get(key);
        if (e === undefined) {
          e = this.keys.length;
          if (e >= MAX_ENTRIES) throw new Error(`more than ${MAX_ENTRIES} distinct queries in one log`);
          this.byKey.set(key, e);
          this.keys.push(key);
          this.texts.push(text.trim());
          this.counts.push(0);
          if (e >= this.lastUser.length) {
            const grown = new Int32Array(this.lastUser.length * 2).fill(-1);
            grown.set(this.lastUser);
            this.lastUser = grown;
          }
        }
      }
      this.raw.set(text, e);
    }
    if (e < 0) return;
    this.counts[e] += count;
    if (!user) return;
    let u = this.users.get(user);
    if (u === undefined) {
      u = this.users.size;
      if (u >= USER_SPAN) throw new Error(`more than ${USER_SPAN} distinct users in one log`);
      this.users.set(user, u);
    }
    if (this.lastUser[e] === u) return;
    this.lastUser[e] = u;
    if (this.pairCount === this.pairs.length) {
      const grown = new Float64Array(this.pairs.length * 2);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[this.pairCount++] = e * USER_SPAN + u;
  }

  entries(): TLogEntry[] {
    const users = new Array<number>(this.keys.length).fill(0);
    const pairs = this.pairs.subarray(0, this.pairCount).sort();
    for (let i = 0; i < pairs.length; i++)
      if (i === 0 || pairs[i] !== pairs[i - 1]) users[Math.floor(pairs[i] / USER_SPAN)]++;
    return this.keys.map((key, e) => ({ key, text: this.texts[e], count: this.counts[e], users: users[e] }));
  }
}

export type TSampleStrategy = "frequency" | "stratified";

export function frequencySample(entries: readonly TLogEntry[], n: number, rng: RandomFn): TLogEntry[] {
  const keyed = entries.map((e) => ({ e, k: Math.pow(1 - rng(), 1 / e.count) }));
  keyed.sort((a, b) => b.k - a.k);
  return keyed.slice(0, Math.min(n, entries.length)).map((x) => x.e);
}

/** Decade of a count: 0 for 1, 1 for 2–9, 2 for 10–99, … */
export function stratumOf(count: number): number {
  return count <= 1 ? 0 : String(Math.floor(count)).length;
}

export function stratifiedSample(entries: readonly TLogEntry[], n: number, rng: RandomFn): TLogEntry[] {
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
