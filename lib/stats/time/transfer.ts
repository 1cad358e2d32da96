/**
 * Label transfer between chunkings (issue 20, item 3): derives a grade for chunks of chunking B
 * from the human labels on chunks of chunking A of the same videos, by time overlap in seconds.
 * The derived labels are a judge (`transfer:A->B`): the dashboard audits them against blind human
 * labels on a sample of B, as it audits an LLM judge.
 *
 * Input: labelled spans, one per reference label of A: query, video, the labelled chunk's
 * [start, end], grade 0–3, and the annotator's corrected start of the answer where one was given.
 * Output: for each chunk of B that the rule can grade, per query, the grade with its provenance
 * (every labelled span the chunk touches, with the fractions below and what it gave). A chunk the
 * rule cannot grade is left out: it stays unjudged, never 0.
 *
 * For a chunk c of B and a labelled span s of the same query and video (every other pair is
 * ignored: different videos or queries never interact), with o = seconds shared by c and s:
 *   coverage = o / |s|   the share of the judged seconds that c holds;
 *   share    = o / |c|   the share of c's seconds that were judged with s;
 *   evidence e(s)        for grade 2 and 3, where the answer is: [corrected start, s.end] when the
 *                        corrected start lies strictly inside s, else all of s (an answer that
 *                        began before the chunk fills it; a corrected start after the chunk's end
 *                        contradicts the grade and is ignored); for grades 0 and 1 all of s;
 *   evidenceCoverage = |c ∩ e(s)| / |e(s)|.
 * The pair is informative when coverage > minCoverage or share > minShare (defaults 0.5: "more
 * than half" of the judged span, or of the chunk, is the same speech); otherwise it is marginal
 * and gives nothing.
 *
 * The rule, in order:
 * 1. Exact: c has the same video and the same [start, end] as labelled spans (within 1 µs): it
 *    takes their grade (the highest, were there several) and nothing else counts. The annotator
 *    judged exactly these seconds. This is what makes B = A give A's labels exactly.
 * 2. A zero-length chunk (end = start) holds no seconds of speech: unless exact, it stays unjudged.
 *    Likewise a zero-length labelled span contributes only through rule 1.
 * 3. Evidence: for a span of grade g ≥ 1 with evidenceCoverage > minCoverage, c inherits g. A long
 *    chunk that holds a grade-3 span (or most of its answer) holds the exact evidence, so it is 3.
 * 4. Partial: for an informative span of grade g ≥ 1 whose evidence c does not mostly hold, c gets
 *    g − 1 (at least 1) when it holds some of the evidence, and 1 when it holds none (it lies
 *    inside the labelled passage, before the answer starts). A short chunk covering part of a
 *    grade-3 span holds part of the answer: "contains it less clearly", the scale's 2. A part of a
 *    related (1) passage is related.
 * 5. The grade is the highest that rules 3 and 4 give over all spans c touches.
 * 6. Zero: with no grade from 3–5, c gets 0 when at least one grade-0 span is informative AND more
 *    than `zeroShare` (default 0.5) of c's seconds were judged 0 and lie outside the evidence of
 *    every relevant span c touches (seconds of overlapping A chunks judged 0 by one and relevant by
 *    another are not known to be irrelevant). Irrelevance is a claim about all of c's speech,
 *    relevance about some of it: that is why 0 needs most of the chunk, and 3 most of the evidence.
 *    A long chunk with one grade-0 span and mostly unjudged seconds stays unjudged: unjudged speech
 *    may hold what no system of A retrieved.
 * 7. Anything else (no labelled span touched, or only marginally): unjudged.
 *
 * Identity: with B = A every labelled chunk gets its own grade (rule 1). An unlabelled chunk of A
 * stays unjudged as long as A's neighbouring chunks overlap by at most half a chunk (then no pair
 * is informative: both fractions are ≤ 0.5, and rule 6 needs an informative grade-0 span).
 *
 * Cost: per video, B's chunks sorted by start (skipped when already sorted); per (query, video),
 * the labelled spans sorted by start. Each span finds the chunks it touches by binary search
 * (start ≥ span start − longest chunk), each candidate chunk the spans it touches the same way:
 * O(C_v log C_v + L log L + pairs) per video, and B's chunks in videos without labels are skipped
 * after one look. Ids are not checked for uniqueness (the importer does that).
 */
import { EPS, checkSpan, lowerBound, overlapSeconds, union, intersectionSeconds, measure } from "./spans.ts";

export type LabelledSpan = {
  /** The source label's id (provenance). */
  id: string;
  query: string;
  video: string;
  start: number;
  end: number;
  /** 0–3. */
  grade: number;
  /** The annotator's corrected start of the answer, seconds; null when not given. */
  correctedStart?: number | null;
};

export type TargetChunk = { id: string; video: string; start: number; end: number };

export type TransferOptions = {
  /** A pair is informative, and a span's evidence held, above this share of the span (default 0.5). */
  minCoverage?: number;
  /** A pair is informative above this share of the chunk (default 0.5). */
  minShare?: number;
  /** A chunk gets 0 above this share of its seconds judged 0 (default 0.5). */
  zeroShare?: number;
};

export const DEFAULT_TRANSFER: Required<TransferOptions> = { minCoverage: 0.5, minShare: 0.5, zeroShare: 0.5 };

export type TransferRule = "exact" | "evidence" | "partial" | "zero";

export type TransferSource = {
  labelId: string;
  grade: number;
  /** Seconds shared / the labelled span's seconds (1 for an exact match, also of zero length). */
  coverage: number;
  /** Seconds shared with the span's evidence / the evidence's seconds. */
  evidenceCoverage: number;
  /** Seconds shared / the chunk's seconds. */
  share: number;
  /** The grade this span gave the chunk; null when it gave none (marginal, or outvoted). */
  gives: number | null;
};

export type TransferredLabel = {
  query: string;
  chunkId: string;
  grade: number;
  rule: TransferRule;
  /** Share of the chunk's seconds judged 0 outside relevant evidence (rule 6); null when rule 6 was not needed (exact, evidence, partial). */
  zeroShare: number | null;
  sources: TransferSource[];
};

type Span = LabelledSpan;

/** Start of a span's evidence (its end is the span's end). */
function evidenceStart(s: LabelledSpan): number {
  const c = s.correctedStart;
  return s.grade >= 2 && c !== null && c !== undefined && c > s.start && c < s.end ? c : s.start;
}

function checkOptions(o: Required<TransferOptions>): void {
  for (const [k, v] of Object.entries(o)) if (!(v >= 0 && v < 1)) throw new RangeError(`transfer option ${k} must be a share in [0, 1), found ${v}`);
}

const isSpan = (s: { start: number; end: number }) => s.start >= 0 && s.end >= s.start && Number.isFinite(s.end);

function checkLabel(l: LabelledSpan): void {
  const c = l.correctedStart;
  const goodStart = c === null || c === undefined || (Number.isFinite(c) && c >= 0);
  if (isSpan(l) && Number.isInteger(l.grade) && l.grade >= 0 && l.grade <= 3 && goodStart) return;
  const what = `label ${l.id} (query ${l.query}, video ${l.video})`;
  checkSpan(l, what);
  if (!goodStart) throw new RangeError(`${what}: corrected start must be seconds ≥ 0 or null, found ${c}`);
  throw new RangeError(`${what}: grade must be an integer 0–3, found ${l.grade}`);
}

/** B's chunks of one video, sorted by start. */
type VideoChunks = { order: Int32Array; starts: Float64Array; ends: Float64Array; maxLen: number; stamp: Int32Array };

function videoChunks(chunks: readonly TargetChunk[], indices: number[]): VideoChunks {
  let sorted = true;
  for (let i = 1; i < indices.length && sorted; i++) sorted = chunks[indices[i - 1]].start <= chunks[indices[i]].start;
  if (!sorted) indices.sort((a, b) => chunks[a].start - chunks[b].start);
  const n = indices.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  let maxLen = 0;
  for (let i = 0; i < n; i++) {
    const c = chunks[indices[i]];
    starts[i] = c.start;
    ends[i] = c.end;
    if (c.end - c.start > maxLen) maxLen = c.end - c.start;
  }
  return { order: Int32Array.from(indices), starts, ends, maxLen, stamp: new Int32Array(n).fill(-1) };
}

/**
 * Derives B's labels from A's (the rule above). Throws a RangeError naming the label or chunk when
 * a span is not [0 ≤ start ≤ end], a grade is not 0–3, or an option is not a share in [0, 1).
 */
export function transferLabels(labels: readonly LabelledSpan[], chunks: readonly TargetChunk[], options: TransferOptions = {}): TransferredLabel[] {
  const o = { ...DEFAULT_TRANSFER, ...options };
  checkOptions(o);
  // Labels grouped by video, then query.
  const byVideo = new Map<string, Map<string, Span[]>>();
  for (const l of labels) {
    checkLabel(l);
    let q = byVideo.get(l.video);
    if (!q) byVideo.set(l.video, (q = new Map()));
    const list = q.get(l.query);
    if (list) list.push(l);
    else q.set(l.query, [l]);
  }
  // B's chunks of the labelled videos only.
  // Chunks usually come video by video: the last video's list is kept to skip most map look-ups.
  const chunkIdx = new Map<string, number[]>();
  let lastVideo: string | undefined;
  let list: number[] | null = null;
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i];
    if (c.video !== lastVideo) {
      lastVideo = c.video;
      list = byVideo.has(c.video) ? (chunkIdx.get(c.video) ?? null) : null;
      if (list === null && byVideo.has(c.video)) chunkIdx.set(c.video, (list = []));
    }
    if (list === null) continue;
    if (!isSpan(c)) checkSpan(c, `chunk ${c.id} (video ${c.video})`);
    list.push(i);
  }
  const out: TransferredLabel[] = [];
  let group = 0;
  // Sorted copies: the caller's arrays are not reordered.
  for (const [video, queries] of byVideo) {
    const idx = chunkIdx.get(video);
    if (!idx) continue;
    const vc = videoChunks(chunks, idx);
    for (const [query, spans] of queries) {
      spans.sort((a, b) => a.start - b.start);
      // Plain loops: typed-array .from with a mapping function is slow on many small groups.
      const spanStarts = new Float64Array(spans.length);
      let maxSpan = 0;
      for (let j = 0; j < spans.length; j++) {
        spanStarts[j] = spans[j].start;
        maxSpan = Math.max(maxSpan, spans[j].end - spans[j].start);
      }
      // Candidate chunks: those touching some span (closed intervals, so exact zero-length matches are found).
      const candidates: number[] = [];
      for (const s of spans) {
        for (let p = lowerBound(vc.starts, s.start - vc.maxLen - EPS); p < vc.starts.length && vc.starts[p] <= s.end + EPS; p++) {
          if (vc.ends[p] < s.start - EPS || vc.stamp[p] === group) continue;
          vc.stamp[p] = group;
          candidates.push(p);
        }
      }
      group++;
      candidates.sort((a, b) => a - b);
      const touching: Span[] = [];
      for (const p of candidates) {
        const c = chunks[vc.order[p]];
        touching.length = 0;
        for (let j = lowerBound(spanStarts, c.start - maxSpan - EPS); j < spans.length && spanStarts[j] <= c.end + EPS; j++) if (spans[j].end >= c.start - EPS) touching.push(spans[j]);
        const label = gradeChunk(query, c, touching, o);
        if (label) out.push(label);
      }
    }
  }
  return out;
}

const same = (a: number, b: number) => Math.abs(a - b) < EPS;

/** The rule for one chunk and the spans (of one query and video) it touches; null: unjudged. */
function gradeChunk(query: string, c: TargetChunk, touching: readonly Span[], o: Required<TransferOptions>): TransferredLabel | null {
  let exactGrade = -1;
  for (const s of touching) if (same(s.start, c.start) && same(s.end, c.end)) exactGrade = Math.max(exactGrade, s.grade);
  if (exactGrade >= 0) {
    const grade = exactGrade;
    const exact = touching.filter((s) => same(s.start, c.start) && same(s.end, c.end));
    return { query, chunkId: c.id, grade, rule: "exact", zeroShare: null, sources: exact.map((s) => ({ labelId: s.id, grade: s.grade, coverage: 1, evidenceCoverage: 1, share: 1, gives: s.grade === grade ? grade : null })) };
  }
  const len = c.end - c.start;
  if (len <= EPS) return null;
  const sources: TransferSource[] = [];
  let best = -1;
  let bestRule: TransferRule = "evidence";
  let zeroInformative = false;
  for (const s of touching) {
    const sl = s.end - s.start;
    const ov = overlapSeconds(c.start, c.end, s.start, s.end);
    if (sl <= EPS || ov <= EPS) continue;
    const coverage = ov / sl;
    const share = ov / len;
    const e0 = evidenceStart(s);
    const eov = overlapSeconds(c.start, c.end, e0, s.end);
    const evidenceCoverage = eov / (s.end - e0);
    const informative = coverage > o.minCoverage || share > o.minShare;
    let gives: number | null = null;
    let rule: TransferRule = "evidence";
    if (s.grade === 0) zeroInformative ||= informative;
    else if (evidenceCoverage > o.minCoverage) gives = s.grade;
    else if (informative) {
      gives = eov > EPS ? Math.max(1, s.grade - 1) : 1;
      rule = "partial";
    }
    if (gives !== null && (gives > best || (gives === best && rule === "evidence"))) {
      best = gives;
      bestRule = rule;
    }
    sources.push({ labelId: s.id, grade: s.grade, coverage, evidenceCoverage, share, gives });
  }
  if (sources.length === 0) return null;
  if (best >= 1) {
    for (const src of sources) if (src.gives !== null && src.gives < best) src.gives = null;
    return { query, chunkId: c.id, grade: best, rule: bestRule, zeroShare: null, sources };
  }
  if (!zeroInformative) return null;
  const zeroShare = zeroShareOf(c, touching);
  if (zeroShare > o.zeroShare) {
    for (const src of sources) if (src.grade === 0) src.gives = 0;
    return { query, chunkId: c.id, grade: 0, rule: "zero", zeroShare, sources };
  }
  return null;
}

/** Share of c's seconds judged 0 and outside the evidence of every relevant span it touches. */
function zeroShareOf(c: TargetChunk, touching: readonly Span[]): number {
  const zero: Array<[number, number]> = [];
  const rel: Array<[number, number]> = [];
  for (const s of touching) {
    if (s.grade === 0) zero.push([Math.max(c.start, s.start), Math.min(c.end, s.end)]);
    else rel.push([Math.max(c.start, evidenceStart(s)), Math.min(c.end, s.end)]);
  }
  const z = union(zero);
  return (measure(z) - intersectionSeconds(z, union(rel))) / (c.end - c.start);
}
