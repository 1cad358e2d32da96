import { seededRng, type Rng } from "../../../../lib/stats/random.ts";
import { lowerBound, overlapSeconds } from "../../../../lib/stats/time/spans.ts";
import type { LabelledSpan, TargetChunk } from "../../../../lib/stats/time/transfer.ts";

/*
 * A synthetic video QA collection as unkind as a real one, for the transfer
 * simulation (transfer-simulation.test.ts). Everything is drawn from a seed.
 *
 * Videos: 12 tutorials of 10–40 min, spoken as consecutive sentences of 3–6 s, in topic sections of
 * 1–5 min.
 *
 * Questions: 35 per video (420). The answer is one sentence (70%) or two consecutive ones (30%):
 * 3–12 s, in a video of 10–40 min. One question in ten has a second answer span elsewhere (same
 * video or another one).
 *
 * Truth, ONE rule for every chunking, derived from how the real collection's truth was made (the
 * answer sentence's time span): for a chunk c and the question's answer spans S,
 *   3  c holds ≥ 50% of the seconds of some span (the chunk contains the answer);
 *   2  c holds ≥ 1 s of some span, but less than half of each (part of the answer);
 *   1  c comes within 5 s of some span (the sentence before or after the answer: related talk);
 *   0  otherwise.
 * So truth is mostly 0 and 3 on pooled pairs, with some 1 and 2.
 *
 * Retrieval by text similarity: each sentence has a similarity to each question, sparse and shared
 * by every chunking (it is the same speech): the answer sentences 0.4–3 (a paraphrased answer can be
 * weak), 70% of the sentences of the answer's topic section 0.2–1, 10 sentences anywhere in the
 * collection that share the question's words 0.3–2.2, and two sections on a neighbouring topic
 * (0–0.8 for half of their sentences). A chunk's text score is the similarity of its sentences
 * weighted by the share of each sentence it holds, divided by (length / 20 s)^b (length
 * normalisation); each of a chunking's 3 runs adds its own Gaussian noise per (question, chunk)
 * (b, σ) = (0.75, 0.25), (0.3, 0.35), (0.5, 0.3). A chunking's pool is the union of its runs' top
 * 10. Many relevant chunks are missed and many irrelevant ones retrieved; the noise of two
 * chunkings is independent, so B's pool holds chunks where A's runs found nothing.
 */

export type Span = { video: string; start: number; end: number };
export type Video = { id: string; duration: number; first: number; count: number };
export type Question = { id: string; spans: Span[]; sims: Map<number, number> };
export type Chunking = { name: string; size: number; step: number };
export type World = { seed: number; videos: Video[]; starts: Float64Array; ends: Float64Array; questions: Question[] };
export type PoolItem = { query: string; chunk: TargetChunk; truth: number };

const uniform = (rng: Rng, lo: number, hi: number) => lo + rng.next() * (hi - lo);
function normal(rng: Rng): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

export function makeWorld(seed: number, nVideos = 12, perVideo = 35): World {
  const rng = seededRng(seed);
  const starts: number[] = [];
  const ends: number[] = [];
  const section: number[] = [];
  const videos: Video[] = [];
  let sectionId = 0;
  for (let v = 0; v < nVideos; v++) {
    const duration = Math.round(uniform(rng, 600, 2400));
    const first = starts.length;
    let t = 0;
    let sectionEnd = uniform(rng, 60, 300);
    while (t < duration) {
      const len = Math.min(uniform(rng, 3, 6), duration - t);
      if (t >= sectionEnd) {
        sectionId++;
        sectionEnd = t + uniform(rng, 60, 300);
      }
      starts.push(t);
      ends.push(t + len);
      section.push(sectionId);
      t += len;
    }
    videos.push({ id: `v${v}`, duration, first, count: starts.length - first });
  }
  const total = starts.length;
  const sectionsOf = new Map<number, number[]>();
  for (let i = 0; i < total; i++) {
    const list = sectionsOf.get(section[i]);
    if (list) list.push(i);
    else sectionsOf.set(section[i], [i]);
  }
  const answerAt = (v: Video, sims: Map<number, number>): Span => {
    const i = v.first + rng.int(v.count - 1);
    const two = rng.next() < 0.3;
    sims.set(i, uniform(rng, 0.4, 3));
    if (two) sims.set(i + 1, uniform(rng, 0.4, 3));
    for (const j of sectionsOf.get(section[i])!)
      if (!sims.has(j) && rng.next() < 0.7) sims.set(j, uniform(rng, 0.2, 1));
    return { video: v.id, start: starts[i], end: ends[two ? i + 1 : i] };
  };
  const questions: Question[] = [];
  for (const v of videos) {
    for (let k = 0; k < perVideo; k++) {
      const sims = new Map<number, number>();
      const spans = [answerAt(v, sims)];
      if (rng.next() < 0.1) spans.push(answerAt(rng.next() < 0.5 ? v : videos[rng.int(videos.length)], sims));
      for (let d = 0; d < 10; d++) {
        const j = rng.int(total);
        if (!sims.has(j)) sims.set(j, uniform(rng, 0.3, 2.2));
      }
      for (let d = 0; d < 2; d++)
        for (const j of sectionsOf.get(section[rng.int(total)])!)
          if (!sims.has(j) && rng.next() < 0.5) sims.set(j, uniform(rng, 0, 0.8));
      questions.push({
        id: `q${questions.length}`,
        spans: spans.filter((s, i) => spans.findIndex((o) => o.video === s.video && o.start === s.start) === i),
        sims,
      });
    }
  }
  return { seed, videos, starts: Float64Array.from(starts), ends: Float64Array.from(ends), questions };
}

/** Fixed windows of `size` seconds every `step` seconds; the last one ends at the video's end. */
export function chunkWorld(world: World, c: Chunking): TargetChunk[] {
  const out: TargetChunk[] = [];
  for (const v of world.videos) {
    for (let s = 0; ; s += c.step) {
      const end = Math.min(s + c.size, v.duration);
      out.push({ id: `${c.name}:${v.id}:${s}`, video: v.id, start: s, end });
      if (end >= v.duration) break;
    }
  }
  return out;
}

/** The truth rule of the header. */
export function truthGrade(c: { video: string; start: number; end: number }, spans: readonly Span[]): number {
  let g = 0;
  for (const s of spans) {
    if (s.video !== c.video) continue;
    const o = overlapSeconds(c.start, c.end, s.start, s.end);
    if (o >= 0.5 * (s.end - s.start)) return 3;
    if (o >= 1) g = Math.max(g, 2);
    else if (c.start <= s.end + 5 && c.end >= s.start - 5) g = Math.max(g, 1);
  }
  return g;
}

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const RUNS = [
  { b: 0.75, sigma: 0.25 },
  { b: 0.3, sigma: 0.35 },
  { b: 0.5, sigma: 0.3 },
];

/** The chunking's pool: per question, the union of its 3 runs' top `depth`, with the truth grade. */
export function poolOf(world: World, chunks: readonly TargetChunk[], chunking: Chunking, depth = 10): PoolItem[] {
  const rng = seededRng(world.seed * 7919 + hash(chunking.name));
  // Chunks per video (they come video by video, by start).
  const byVideo = new Map<string, { from: number; starts: Float64Array }>();
  for (const v of world.videos) {
    const from = chunks.findIndex((c) => c.video === v.id);
    let to = from;
    while (to < chunks.length && chunks[to].video === v.id) to++;
    byVideo.set(v.id, { from, starts: Float64Array.from(chunks.slice(from, to), (c) => c.start) });
  }
  const videoOfSentence = new Int32Array(world.starts.length);
  world.videos.forEach((v, k) => videoOfSentence.fill(k, v.first, v.first + v.count));
  const base = new Float64Array(chunks.length);
  const touched: number[] = [];
  const out: PoolItem[] = [];
  for (const q of world.questions) {
    for (const [i, sim] of q.sims) {
      const v = world.videos[videoOfSentence[i]];
      const { from, starts } = byVideo.get(v.id)!;
      const s0 = world.starts[i];
      const s1 = world.ends[i];
      for (let p = lowerBound(starts, s0 - chunking.size); p < starts.length && starts[p] < s1; p++) {
        const c = chunks[from + p];
        const o = overlapSeconds(c.start, c.end, s0, s1);
        if (o <= 0) continue;
        if (base[from + p] === 0) touched.push(from + p);
        base[from + p] += (sim * o) / (s1 - s0);
      }
    }
    const pooled = new Set<number>();
    for (const run of RUNS) {
      const top: { i: number; s: number }[] = [];
      for (let i = 0; i < chunks.length; i++) {
        const c = chunks[i];
        const s = base[i] / Math.pow(Math.max(c.end - c.start, 1) / 20, run.b) + run.sigma * normal(rng);
        if (top.length < depth || s > top[top.length - 1].s) {
          let k = Math.min(top.length, depth - 1);
          if (top.length < depth) top.push({ i, s });
          while (k > 0 && top[k - 1].s < s) {
            top[k] = top[k - 1];
            k--;
          }
          top[k] = { i, s };
        }
      }
      for (const t of top) pooled.add(t.i);
    }
    for (const i of pooled) out.push({ query: q.id, chunk: chunks[i], truth: truthGrade(chunks[i], q.spans) });
    for (const i of touched) base[i] = 0;
    touched.length = 0;
  }
  return out;
}

/** How the fields of a real collection go missing (the scenario of a run). */
export type Scenario = {
  name: string;
  /** Share of questions that have answer places (their answer spans). */
  places: number;
  /** Share of places given with a start only (no end). */
  openEnd: number;
  /** Share of A's grade-3 labels that carry the annotator's corrected start (imported labels carry none). */
  correctedStart: number;
};

export type Place = { video: string; start: number; end: number | null };

/** Answer places per question under a scenario (questions without places are absent). */
export function placesOf(world: World, sc: Scenario): Map<string, Place[]> {
  const rng = seededRng(world.seed * 31 + hash(sc.name));
  const out = new Map<string, Place[]>();
  for (const q of world.questions) {
    if (rng.next() >= sc.places) continue;
    out.set(
      q.id,
      q.spans.map((s) => ({ video: s.video, start: s.start, end: rng.next() < sc.openEnd ? null : s.end })),
    );
  }
  return out;
}

/** A's reference labels: every pooled pair with its truth grade; a grade-3 label carries the start of the span it holds most when the scenario draws it. */
export function labelsOf(
  world: World,
  poolA: readonly PoolItem[],
  sc: Scenario,
): (LabelledSpan & { correctedStart: number | null })[] {
  const rng = seededRng(world.seed * 131 + hash(sc.name));
  const spansOf = new Map(world.questions.map((q) => [q.id, q.spans]));
  return poolA.map((p) => {
    let correctedStart: number | null = null;
    if (p.truth === 3 && rng.next() < sc.correctedStart) {
      let held = 0;
      for (const s of spansOf.get(p.query)!) {
        const o = s.video === p.chunk.video ? overlapSeconds(p.chunk.start, p.chunk.end, s.start, s.end) : 0;
        if (o > held) [held, correctedStart] = [o, s.start];
      }
    }
    return {
      id: `${p.query}/${p.chunk.id}`,
      query: p.query,
      video: p.chunk.video,
      start: p.chunk.start,
      end: p.chunk.end,
      grade: p.truth,
      correctedStart,
    };
  });
}
