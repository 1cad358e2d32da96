/**
 * The lead's review of questions (issue 23 items 2 and 3): every question with its author, tags,
 * answer places, status, lexical-overlap bias (overlap.ts) and near-duplicates (duplicates.ts),
 * and counts and overlap distributions per author and per tag.
 *
 * The transcript is the chunks of the project's first chunking (by id: the imported `default` one
 * unless another was made first): their texts are the transcript segments for the ±30 s window and
 * the documents BM25 ranks. A question with several answer places is measured at each place that
 * has a video and reports the place with the highest overlap (the most keyword-like one).
 */
import type { Db } from "../db/client.ts";
import { nearDuplicates, type TDuplicatePair } from "./duplicates.ts";
import { bm25Index, bm25Rank, flagged, indexedOverlap, type TBm25Index, type TChunkText } from "./overlap.ts";
import { listQuestions, type TQuestion } from "./store.ts";
import { videoSource } from "../media/source.ts";
import { num, rows, str } from "../dashboard/sql.ts";

export type TReviewQuestion = TQuestion & { overlap: number | null; bm25Rank: number | null; bm25Of: number | null; flagged: boolean; duplicateOf: number[] };
/** Overlap bins: [0, 0.25), [0.25, 0.5), [0.5, 0.75), [0.75, 1]. */
export type TOverlapGroup = { key: string; questions: number; draft: number; accepted: number; rejected: number; measured: number; meanOverlap: number | null; flagged: number; bins: [number, number, number, number] };
export type TReview = { questions: TReviewQuestion[]; duplicates: TDuplicatePair[]; byAuthor: TOverlapGroup[]; byTag: TOverlapGroup[]; videos: { id: number; externalId: string; title: string; src: string | null; allowed: boolean }[] };

export function binOf(x: number): 0 | 1 | 2 | 3 {
  return x < 0.25 ? 0 : x < 0.5 ? 1 : x < 0.75 ? 2 : 3;
}

export function groupStats(key: string, qs: readonly TReviewQuestion[]): TOverlapGroup {
  const g: TOverlapGroup = { key, questions: qs.length, draft: 0, accepted: 0, rejected: 0, measured: 0, meanOverlap: null, flagged: 0, bins: [0, 0, 0, 0] };
  let sum = 0;
  for (const q of qs) {
    g[q.status]++;
    if (q.flagged) g.flagged++;
    if (q.overlap === null) continue;
    g.measured++;
    sum += q.overlap;
    g.bins[binOf(q.overlap)]++;
  }
  g.meanOverlap = g.measured ? sum / g.measured : null;
  return g;
}

function groupBy(qs: readonly TReviewQuestion[], keys: (q: TReviewQuestion) => string[]): TOverlapGroup[] {
  const m = new Map<string, TReviewQuestion[]>();
  for (const q of qs)
    for (const k of keys(q)) {
      const list = m.get(k);
      if (list) list.push(q);
      else m.set(k, [q]);
    }
  return [...m].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0])).map(([k, list]) => groupStats(k, list));
}

type TPlaceMeasure = { overlap: number; rank: number | null; of: number | null } | null;

/**
 * Measures of a question text at an answer start, per index: an index is never changed once made,
 * and the cache (videoIndexes) gives the same index object back while the video's chunks are
 * unchanged, so a question measured once is not measured again until its text, its place or the
 * transcript changes.
 */
const placeMeasures = new WeakMap<TBm25Index, Map<string, TPlaceMeasure>>();

function measurePlace(index: TBm25Index, text: string, start: number): TPlaceMeasure {
  let memo = placeMeasures.get(index);
  if (!memo) placeMeasures.set(index, (memo = new Map()));
  const key = `${start}\u001f${text}`;
  let m = memo.get(key);
  if (m === undefined) {
    const o = indexedOverlap(text, index, start);
    const r = o ? bm25Rank(index, text, start) : null;
    m = o ? { overlap: o.share, rank: r?.rank ?? null, of: r?.of ?? null } : null;
    memo.set(key, m);
  }
  return m;
}

/** The measures of one question against per-video indexes (pure). */
export function measureQuestion(q: TQuestion, videos: ReadonlyMap<number, TBm25Index>): Pick<TReviewQuestion, "overlap" | "bm25Rank" | "bm25Of" | "flagged"> {
  let best: TPlaceMeasure = null;
  for (const p of q.places) {
    if (p.videoId === null) continue;
    const index = videos.get(p.videoId);
    if (!index) continue;
    const m = measurePlace(index, q.text, p.start);
    if (!m) continue;
    if (best && m.overlap <= best.overlap) continue;
    best = m;
  }
  return { overlap: best?.overlap ?? null, bm25Rank: best?.rank ?? null, bm25Of: best?.of ?? null, flagged: flagged(best?.overlap ?? null, best?.rank ?? null) };
}

/**
 * BM25 indexes by chunking and video, each with the chunks it was built from (ids, times and texts
 * as one string): a video whose chunks read the same again gets the same index without analysing
 * its transcript again (most of the review list's time). Bounded: emptied past MAX_CACHED_VIDEOS.
 */
const MAX_CACHED_VIDEOS = 5000;
const globalIndexes = globalThis as unknown as { __assessorBm25?: Map<string, { content: string; index: TBm25Index }> };

function cachedIndex(chunkingId: number, videoId: number, chunks: readonly TChunkText[]): TBm25Index {
  const cache = (globalIndexes.__assessorBm25 ??= new Map());
  const key = `${chunkingId}:${videoId}`;
  const content = chunks.map((c) => `${c.id}\u001f${c.start}\u001f${c.end}\u001f${c.text}`).join("\u001e");
  const hit = cache.get(key);
  if (hit && hit.content === content) return hit.index;
  if (!hit && cache.size >= MAX_CACHED_VIDEOS) cache.clear();
  const index = bm25Index(chunks);
  cache.set(key, { content, index });
  return index;
}

export async function videoIndexes(db: Db, projectId: number, videoIds?: readonly number[]): Promise<Map<number, TBm25Index>> {
  const chunking = await db.chunking.findFirst({ where: { projectId }, orderBy: { id: "asc" }, select: { id: true } });
  const out = new Map<number, TBm25Index>();
  if (!chunking) return out;
  const chunks = await rows(db, `SELECT "externalId", "videoId", "startSeconds", "endSeconds", "text" FROM "Chunk" WHERE "chunkingId" = ? ORDER BY "videoId", "startSeconds"`, [chunking.id]);
  const wanted = videoIds ? new Set(videoIds) : null;
  const byVideo = new Map<number, TChunkText[]>();
  for (const c of chunks) {
    const videoId = num(c[1]);
    if (wanted && !wanted.has(videoId)) continue;
    const list = byVideo.get(videoId);
    const t = { id: str(c[0]), start: num(c[2]), end: num(c[3]), text: str(c[4]) };
    if (list) list.push(t);
    else byVideo.set(videoId, [t]);
  }
  for (const [v, list] of byVideo) out.set(v, cachedIndex(chunking.id, v, list));
  return out;
}

export async function reviewData(db: Db, projectId: number): Promise<TReview> {
  const [questions, videos] = await Promise.all([listQuestions(db, projectId), db.video.findMany({ where: { projectId }, select: { id: true, externalId: true, title: true, url: true, path: true, durationSeconds: true }, orderBy: { externalId: "asc" } })]);
  const indexes = await videoIndexes(db, projectId, [...new Set(questions.flatMap((q) => q.places.flatMap((p) => (p.videoId === null ? [] : [p.videoId]))))]);
  const duplicates = nearDuplicates(questions);
  const dupOf = new Map<number, number[]>();
  for (const d of duplicates) {
    (dupOf.get(d.a) ?? dupOf.set(d.a, []).get(d.a)!).push(d.b);
    (dupOf.get(d.b) ?? dupOf.set(d.b, []).get(d.b)!).push(d.a);
  }
  const reviewed: TReviewQuestion[] = questions.map((q) => ({ ...q, ...measureQuestion(q, indexes), duplicateOf: dupOf.get(q.id) ?? [] }));
  return {
    questions: reviewed,
    duplicates,
    byAuthor: groupBy(reviewed, (q) => [q.author ?? "(no author)"]),
    byTag: groupBy(reviewed, (q) => (q.tags.length ? q.tags : ["(untagged)"])),
    videos: videos.map((v) => {
      const { src, allowed } = videoSource(v);
      return { id: v.id, externalId: v.externalId, title: v.title, src, allowed };
    }),
  };
}
