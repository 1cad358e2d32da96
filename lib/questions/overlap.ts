/**
 * Lexical-overlap bias of a question, pure. Why it matters: questions written
 * while reading the passage share its words and favour keyword search (DPR, Karpukhin et al. 2020,
 * top-20 retrieval accuracy: BM25 68.8% vs DPR 63.2% on SQuAD, whose questions were written
 * looking at the passage; 59.1% vs 78.4% on Natural Questions, real users' queries).
 *
 * Two measures, both over content terms (text.ts: stop words removed, S-stemmed):
 * - `windowOverlap`: the share of the question's distinct content terms found among the terms of
 *   the transcript segments that overlap [answer start − 30 s, answer start + 30 s] (closed; a
 *   segment [s, e] overlaps when s ≤ start + 30 and e ≥ start − 30). Null when the question has
 *   no content term or no segment is in the window.
 * - `bm25Rank`: the rank of the answer's chunk among the chunks of its video, scored by BM25 with
 *   the question as query, k1 = 0.9 and b = 0.4 (Pyserini's defaults). Formula (Robertson and
 *   Zaragoza 2009, with Lucene's idf, which Pyserini uses):
 *     score(D, Q) = Σ_{t ∈ Q} idf(t) · tf(t, D)·(k1 + 1) / (tf(t, D) + k1·(1 − b + b·|D|/avgdl))
 *     idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))
 *   over the question's content terms with repeats (as Lucene sums a repeated query term), N the
 *   video's chunks, |D| a chunk's content terms and avgdl their mean. Lucene drops the constant
 *   (k1 + 1) and stores |D| lossily (one byte); ranks agree except at such near-ties. The answer's
 *   chunk is the chunk containing the answer start (start ≤ t < end, or the last chunk when t is
 *   its end), else the chunk whose start is nearest. Rank = 1 + the chunks scoring strictly
 *   higher (ties resolved in the answer chunk's favour). Rank 1 means keyword search finds the
 *   answer first among the video's chunks.
 * A question is flagged when its window overlap is ≥ `OVERLAP_FLAG` (0.75) or its BM25 rank is 1
 * with an overlap ≥ 0.5 (both stated thresholds, not from a paper).
 */
import { contentTerms } from "./text.ts";

export const OVERLAP_WINDOW_SECONDS = 30;
export const BM25_K1 = 0.9;
export const BM25_B = 0.4;
export const OVERLAP_FLAG = 0.75;

export type TSegment = { start: number; end: number; text: string };
export type TChunkText = { id: string; start: number; end: number; text: string };

/** Share of the question's distinct content terms found in the transcript within ±window of the answer start. */
export function windowOverlap(
  question: string,
  segments: readonly TSegment[],
  answerStart: number,
  window = OVERLAP_WINDOW_SECONDS,
): { share: number; found: string[]; terms: string[] } | null {
  return overlapIn(question, segments, (i) => new Set(contentTerms(segments[i].text)), answerStart, window);
}

/** The same on an index, whose chunks' terms are already counted (no second analysis of the transcript). */
export function indexedOverlap(
  question: string,
  index: TBm25Index,
  answerStart: number,
  window = OVERLAP_WINDOW_SECONDS,
): { share: number; found: string[]; terms: string[] } | null {
  return overlapIn(question, index.chunks, (i) => index.tf[i], answerStart, window);
}

function overlapIn(
  question: string,
  segments: readonly { start: number; end: number }[],
  termsOf: (i: number) => { has(t: string): boolean },
  answerStart: number,
  window: number,
) {
  const terms = [...new Set(contentTerms(question))];
  if (terms.length === 0) return null;
  const inWindow: { has(t: string): boolean }[] = [];
  segments.forEach((s, i) => {
    if (s.start <= answerStart + window && s.end >= answerStart - window) inWindow.push(termsOf(i));
  });
  if (inWindow.length === 0) return null;
  const found = terms.filter((t) => inWindow.some((m) => m.has(t)));
  return { share: found.length / terms.length, found, terms };
}

/** A video's chunks analysed once for BM25 (term frequencies, lengths, document frequencies). */
export type TBm25Index = {
  chunks: readonly TChunkText[];
  tf: Map<string, number>[];
  len: number[];
  avgdl: number;
  df: Map<string, number>;
};

export function bm25Index(chunks: readonly TChunkText[]): TBm25Index {
  const tf: Map<string, number>[] = [];
  const len: number[] = [];
  const df = new Map<string, number>();
  for (const c of chunks) {
    const m = new Map<string, number>();
    const terms = contentTerms(c.text);
    for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
    for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    tf.push(m);
    len.push(terms.length);
  }
  const avgdl = len.length ? len.reduce((a, b) => a + b, 0) / len.length : 0;
  return { chunks, tf, len, avgdl, df };
}

export function bm25Scores(index: TBm25Index, question: string, k1 = BM25_K1, b = BM25_B): number[] {
  const q = contentTerms(question);
  const N = index.chunks.length;
  return index.tf.map((m, i) => {
    let s = 0;
    const norm = k1 * (1 - b + (b * index.len[i]) / (index.avgdl || 1));
    for (const t of q) {
      const f = m.get(t);
      if (!f) continue;
      const df = index.df.get(t)!;
      s += Math.log(1 + (N - df + 0.5) / (df + 0.5)) * ((f * (k1 + 1)) / (f + norm));
    }
    return s;
  });
}

/** Index of the chunk holding the answer start (rule above); -1 when the video has no chunk. */
export function answerChunk(chunks: readonly TChunkText[], answerStart: number): number {
  for (let i = 0; i < chunks.length; i++) if (chunks[i].start <= answerStart && answerStart < chunks[i].end) return i;
  for (let i = 0; i < chunks.length; i++) if (chunks[i].end === answerStart) return i;
  let best = -1;
  let d = Infinity;
  for (let i = 0; i < chunks.length; i++) {
    const e = Math.abs(chunks[i].start - answerStart);
    if (e < d) [d, best] = [e, i];
  }
  return best;
}

/** BM25 rank of the answer's chunk among the video's chunks (null when the video has no chunks). */
export function bm25Rank(
  index: TBm25Index,
  question: string,
  answerStart: number,
): { rank: number; of: number; chunk: string } | null {
  const at = answerChunk(index.chunks, answerStart);
  if (at < 0) return null;
  const scores = bm25Scores(index, question);
  let higher = 0;
  for (const s of scores) if (s > scores[at]) higher++;
  return { rank: higher + 1, of: scores.length, chunk: index.chunks[at].id };
}

export function flagged(overlap: number | null, rank: number | null): boolean {
  return overlap !== null && (overlap >= OVERLAP_FLAG || (rank === 1 && overlap >= 0.5));
}
