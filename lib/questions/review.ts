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

/** The measures of one question against per-video indexes (pure). */
export function measureQuestion(q: TQuestion, videos: ReadonlyMap<number, TBm25Index>): Pick<TReviewQuestion, "overlap" | "bm25Rank" | "bm25Of" | "flagged"> {
  let best: { overlap: number; rank: number | null; of: number | null } | null = null;
  for (const p of q.places) {
    if (p.videoId === null) continue;
    const index = videos.get(p.videoId);
    if (!index) continue;
    const o = indexedOverlap(q.text, index, p.start);
    if (!o) continue;
    if (best && o.share <= best.overlap) continue;
    const r = bm25Rank(index, q.text, p.start);
    best = { overlap: o.share, rank: r?.rank ?? null, of: r?.of ?? null };
  }
  return { overlap: best?.overlap ?? null, bm25Rank: best?.rank ?? null, bm25Of: best?.of ?? null, flagged: flagged(best?.overlap ?? null, best?.rank ?? null) };
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
  for (const [v, list] of byVideo) out.set(v, bm25Index(list));
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
