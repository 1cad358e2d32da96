/**
 * Label transfer between chunkings, rule version 2 (version 1 gave a chunk the grade of the chunks of A
 * it overlapped):
 * derives grades for chunks of chunking B from a question's reference spans in time (reference.ts:
 * its answer places and annotators' corrected starts) and the human labels on chunks of chunking A
 * of the same videos. The derived labels are a judge (`transfer:A->B`), audited against blind human
 * labels on a sample of B like an LLM judge.
 *
 * Why version 2: on a real collection (answers of a sentence or two in videos of 10–40 min, A
 * labelled only where A's runs retrieved, imported labels without corrected starts) version 1 gave
 * grade 2 to short chunks lying inside a relevant long chunk away from the answer (coarse → fine:
 * linear kappa 0.54), and left most long chunks unjudged because it needed more than half of one
 * judged 0 (fine → coarse: 37% labelled). The simulation (tests/unit/stats/time/
 * transfer-simulation.test.ts) reproduces both; the rule below was chosen on it.
 *
 * Inputs: A's labelled spans (query, video, the labelled chunk's [start, end], grade 0–3); per
 * query its reference spans (an open span, start only, is taken as [start, start + openSeconds]).
 * Output: for each chunk of B the rule can grade, per query, the grade with its provenance. A chunk
 * the rule cannot grade is left out: unjudged, never 0.
 *
 * Per (query, video), from A's labels and the references:
 *   W      = the reference spans widened by nearSeconds on each side (the answers and their
 *            neighbourhood);
 *   verdict(r) = the highest grade of A's labels holding ≥ holdShare of reference span r (what A's
 *            annotators said of the chunk holding that answer), 3 when A has no such label;
 *   a relevant A label (grade ≥ 2) is explained when it shares seconds with a reference span; an
 *            unexplained one (the question has no reference there) localises its answer to
 *            cand(a) = a's seconds not covered by A's labels of grade ≤ 1 (all of a if none are left);
 *   free   = seconds A's labels show to be free of any answer: A's grade-0 chunks and the explained
 *            relevant chunks, minus W.
 *
 * The rule for a chunk c of B, in order:
 * 1. Exact: c has the same video and [start, end] as labelled spans: their (highest) grade. B = A
 *    gives A's labels exactly.
 * 2. Answer: for each reference span r of c's video with overlap o = |c ∩ r|:
 *      o ≥ holdShare · |r|        → verdict(r)           (c holds the answer);
 *      o ≥ partSeconds            → min(2, verdict(r))   (c holds part of it);
 *      c within nearSeconds of r  → min(1, verdict(r))   (the talk around the answer).
 * 3. Evidence: for an unexplained relevant label a: c holding all of cand(a) gets a's grade (it
 *    holds whatever a held of the answer); c holding part of cand(a) is uncertain (the answer may or
 *    may not be in its part), and an uncertain chunk below 3 stays unjudged. Without references in
 *    c's video, c holding all of a grade-1 label's seconds and nothing of a cand(a) gets 1 (it holds
 *    talk near the answer; a part of that label's seconds may be far from it).
 * 4. The grade is the highest of rules 2–3.
 * 5. Zero: with no grade from 2–4, c gets 0 when at least zeroShare of its seconds are free.
 *    Irrelevance is a claim about all of c's speech: unjudged seconds may hold what no system of A
 *    retrieved, so 0 needs A's labels (or the answers' places) to speak for most of c.
 * 6. Anything else: unjudged.
 *
 * Parameters (DEFAULT_TRANSFER) are those of the truth the simulation derives from the answer spans,
 * which is the scale's reading of seconds: holdShare 0.5 (most of the answer), partSeconds 1,
 * nearSeconds 5 (a sentence), zeroShare 0.5, openSeconds the median length of the closed reference
 * spans given (8 s when none).
 *
 * Cost: per video, B's chunks sorted by start; per (query, video), labels and references sorted,
 * candidate chunks found by binary search, free seconds as one union searched per chunk:
 * O(C_v log C_v + (L + R) log (L + R) + pairs) per video.
 */
import { EPS, checkSpan, lowerBound, overlapSeconds, union, type Intervals } from "./spans.ts";
import type { ReferenceSpan } from "./reference.ts";
import {
  DEFAULT_TRANSFER,
  checkLabel,
  checkOptions,
  isSpan,
  openSecondsOf,
  type LabelledSpan,
  type Ref,
  type TargetChunk,
  type TransferOptions,
  type TransferRule,
  type TransferredLabel,
  type TransferSource,
} from "./transfer-options.ts";

export {
  DEFAULT_TRANSFER,
  TRANSFER_RULE_VERSION,
  openSecondsOf,
  type LabelledSpan,
  type TargetChunk,
  type TransferOptions,
  type TransferRule,
  type TransferSource,
  type TransferredLabel,
} from "./transfer-options.ts";

/** Intervals of `a` not covered by `b` (both sorted, disjoint). */
function minus(a: Intervals, b: Intervals): Intervals {
  const out: Intervals = [];
  let j = 0;
  for (const [s0, e0] of a) {
    let s = s0;
    while (j < b.length && b[j][1] <= s) j++;
    let k = j;
    while (k < b.length && b[k][0] < e0) {
      if (b[k][0] > s) out.push([s, b[k][0]]);
      s = Math.max(s, b[k][1]);
      if (b[k][1] >= e0) break;
      k++;
    }
    if (s < e0) out.push([s, e0]);
  }
  return out;
}

/** Seconds of [s, e] inside sorted disjoint intervals u. */
function secondsIn(u: Intervals, starts: Float64Array, s: number, e: number): number {
  let t = 0;
  for (let i = Math.max(0, lowerBound(starts, s) - 1); i < u.length && u[i][0] < e; i++)
    t += overlapSeconds(s, e, u[i][0], u[i][1]);
  return t;
}

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

/** What one (query, video) group knows, computed once for all its candidate chunks. */
type Group = {
  query: string;
  spans: LabelledSpan[];
  spanStarts: Float64Array;
  maxSpan: number;
  refs: Ref[];
  /** Unexplained relevant labels with their answer region. */
  unexplained: { label: LabelledSpan; cand: Intervals; seconds: number }[];
  free: Intervals;
  freeStarts: Float64Array;
  /** The question has no reference span in this video. */
  noRefsHere: boolean;
};

function makeGroup(
  query: string,
  spans: LabelledSpan[],
  refSpans: readonly ReferenceSpan[],
  video: string,
  open: number,
  o: Required<TransferOptions>,
): Group {
  spans.sort((a, b) => a.start - b.start);
  const spanStarts = new Float64Array(spans.length);
  let maxSpan = 0;
  for (let j = 0; j < spans.length; j++) {
    spanStarts[j] = spans[j].start;
    maxSpan = Math.max(maxSpan, spans[j].end - spans[j].start);
  }
  const refs: Ref[] = [];
  for (const r of refSpans) {
    if (r.video !== video) continue;
    const end = r.end ?? r.start + open;
    let verdict = -1;
    for (const s of spans)
      if (overlapSeconds(s.start, s.end, r.start, end) >= o.holdShare * (end - r.start) - EPS && end > r.start)
        verdict = Math.max(verdict, s.grade);
    refs.push({ start: r.start, end, open: r.end === null, verdict: verdict < 0 ? 3 : verdict });
  }
  refs.sort((a, b) => a.start - b.start);
  const low = union(spans.filter((s) => s.grade <= 1).map((s) => [s.start, s.end] as [number, number]));
  const zero: Array<[number, number]> = spans.filter((s) => s.grade === 0).map((s) => [s.start, s.end]);
  const unexplained: Group["unexplained"] = [];
  for (const s of spans) {
    if (s.grade < 2) continue;
    if (
      refs.some(
        (r) =>
          overlapSeconds(s.start, s.end, r.start, r.end) > EPS ||
          (r.end - r.start <= EPS && r.start >= s.start && r.start <= s.end),
      )
    )
      zero.push([s.start, s.end]);
    else {
      let cand = minus([[s.start, s.end]], low);
      if (cand.length === 0) cand = [[s.start, s.end]];
      unexplained.push({ label: s, cand, seconds: cand.reduce((t, [a, b]) => t + b - a, 0) });
    }
  }
  const widened = union(refs.map((r) => [r.start - o.nearSeconds, r.end + o.nearSeconds] as [number, number]));
  const free = minus(union(zero), widened);
  return {
    query,
    spans,
    spanStarts,
    maxSpan,
    refs,
    unexplained,
    free,
    freeStarts: Float64Array.from(free, (x) => x[0]),
    noRefsHere: refs.length === 0,
  };
}

/**
 * Derives B's labels from A's and the references (the rule above). `references`: per query its
 * reference spans (reference.ts `referenceSpans`). Throws a RangeError naming the label or chunk
 * when a span is not [0 ≤ start ≤ end], a grade is not 0–3, or an option is out of range.
 */
export function transferLabels(
  labels: readonly LabelledSpan[],
  chunks: readonly TargetChunk[],
  options: TransferOptions = {},
  references: ReadonlyMap<string, readonly ReferenceSpan[]> = new Map(),
): TransferredLabel[] {
  const o = { ...DEFAULT_TRANSFER, ...options };
  checkOptions(o);
  const open = openSecondsOf(references, o.openSeconds);
  // Labels grouped by video, then query; references add (video, query) groups of their own.
  const byVideo = new Map<string, Map<string, LabelledSpan[]>>();
  const group = (video: string, query: string) => {
    let q = byVideo.get(video);
    if (!q) byVideo.set(video, (q = new Map()));
    let list = q.get(query);
    if (!list) q.set(query, (list = []));
    return list;
  };
  for (const l of labels) {
    checkLabel(l);
    group(l.video, l.query).push(l);
  }
  for (const [query, list] of references) for (const r of list) group(r.video, query);
  // B's chunks of those videos only; chunks usually come video by video.
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
  let stamp = 0;
  const noRefs: readonly ReferenceSpan[] = [];
  for (const [video, queries] of byVideo) {
    const idx = chunkIdx.get(video);
    if (!idx) continue;
    const vc = videoChunks(chunks, idx);
    for (const [query, spans] of queries) {
      const g = makeGroup(query, spans, references.get(query) ?? noRefs, video, open, o);
      const candidates: number[] = [];
      const reach = (from: number, to: number) => {
        for (
          let p = lowerBound(vc.starts, from - vc.maxLen - EPS);
          p < vc.starts.length && vc.starts[p] <= to + EPS;
          p++
        ) {
          if (vc.ends[p] < from - EPS || vc.stamp[p] === stamp) continue;
          vc.stamp[p] = stamp;
          candidates.push(p);
        }
      };
      for (const s of g.spans) reach(s.start, s.end);
      for (const r of g.refs) reach(r.start - o.nearSeconds, r.end + o.nearSeconds);
      stamp++;
      candidates.sort((a, b) => a - b);
      for (const p of candidates) {
        const label = gradeChunk(g, chunks[vc.order[p]], o);
        if (label) out.push(label);
      }
    }
  }
  return out;
}

const same = (a: number, b: number) => Math.abs(a - b) < EPS;

/** The rule for one chunk of one (query, video) group; null: unjudged. */
function gradeChunk(g: Group, c: TargetChunk, o: Required<TransferOptions>): TransferredLabel | null {
  const touching: LabelledSpan[] = [];
  for (
    let j = lowerBound(g.spanStarts, c.start - g.maxSpan - EPS);
    j < g.spans.length && g.spanStarts[j] <= c.end + EPS;
    j++
  )
    if (g.spans[j].end >= c.start - EPS) touching.push(g.spans[j]);
  const len = c.end - c.start;
  const base = { query: g.query, chunkId: c.id };
  // 1. Exact.
  let exactGrade = -1;
  for (const s of touching)
    if (same(s.start, c.start) && same(s.end, c.end)) exactGrade = Math.max(exactGrade, s.grade);
  if (exactGrade >= 0) {
    const exact = touching.filter((s) => same(s.start, c.start) && same(s.end, c.end));
    return {
      ...base,
      grade: exactGrade,
      rule: "exact",
      reference: null,
      free: null,
      sources: exact.map((s) => ({
        labelId: s.id,
        grade: s.grade,
        coverage: 1,
        share: 1,
        gives: s.grade === exactGrade ? exactGrade : null,
      })),
    };
  }
  if (len <= EPS) return null;
  const sources: TransferSource[] = [];
  for (const s of touching) {
    const ov = overlapSeconds(c.start, c.end, s.start, s.end);
    if (ov > EPS)
      sources.push({
        labelId: s.id,
        grade: s.grade,
        coverage: s.end - s.start > EPS ? ov / (s.end - s.start) : 0,
        share: ov / len,
        gives: null,
      });
  }
  // 2. Answer, part, near.
  let grade = -1;
  let rule: TransferRule = "answer";
  let ref: Ref | null = null;
  for (const r of g.refs) {
    const ov = overlapSeconds(c.start, c.end, r.start, r.end);
    const rl = r.end - r.start;
    let give = -1;
    let why: TransferRule = "answer";
    if (rl > EPS && ov >= o.holdShare * rl - EPS) give = r.verdict;
    else if (ov >= o.partSeconds - EPS && ov > EPS) [give, why] = [Math.min(2, r.verdict), "part"];
    else if (c.start <= r.end + o.nearSeconds + EPS && c.end >= r.start - o.nearSeconds - EPS)
      [give, why] = [Math.min(1, r.verdict), "near"];
    if (give > grade) [grade, rule, ref] = [give, why, r];
  }
  // 3. Evidence of unexplained relevant labels.
  let uncertain = false;
  for (const u of g.unexplained) {
    let held = 0;
    for (const [a, b] of u.cand) held += overlapSeconds(c.start, c.end, a, b);
    if (held >= u.seconds - EPS && held > EPS) {
      if (u.label.grade > grade) [grade, rule, ref] = [u.label.grade, "evidence", null];
      const src = sources.find((s) => s.labelId === u.label.id);
      if (src) src.gives = u.label.grade;
    } else if (held > EPS) uncertain = true;
  }
  if (uncertain && grade < 3) return null;
  if (grade < 1 && g.noRefsHere) {
    for (const s of touching) {
      if (
        s.grade !== 1 ||
        s.end - s.start <= EPS ||
        overlapSeconds(c.start, c.end, s.start, s.end) < s.end - s.start - EPS
      )
        continue;
      [grade, rule, ref] = [1, "related", null];
      const src = sources.find((x) => x.labelId === s.id);
      if (src) src.gives = 1;
    }
  }
  if (grade >= 0) {
    for (const s of sources) if (s.gives !== null && s.gives < grade) s.gives = null;
    return {
      ...base,
      grade,
      rule,
      reference: ref ? { start: ref.start, end: ref.end, open: ref.open } : null,
      free: null,
      sources,
    };
  }
  // 5. Zero.
  const free = secondsIn(g.free, g.freeStarts, c.start, c.end) / len;
  if (free >= o.zeroShare - EPS && free > EPS) {
    for (const s of sources) if (s.grade === 0 || s.grade >= 2) s.gives = 0;
    return { ...base, grade: 0, rule: "zero", reference: null, free, sources };
  }
  return null;
}
