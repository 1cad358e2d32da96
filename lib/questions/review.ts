/**
 * The lead's review of questions: every question with its author, tags,
 * answer places, status, lexical-overlap bias (overlap.ts) and near-duplicates (duplicates.ts),
 * and counts and overlap distributions per author and per tag.
 *
 * The transcript is the chunks of the project's first chunking (by id: the imported `default` one
 * unless another was made first): their texts are the transcript segments for the ±30 s window and
 * the documents BM25 ranks. A question with several answer places is measured at each place that
 * has a video and reports the place with the highest overlap (the most keyword-like one).
 *
 * Bounded whatever was posted: questions come a page at a time, near-duplicates
 * as groups (duplicates.ts) a page at a time with at most CLUSTER_SHOWN questions each, the author
 * and tag tables at most MAX_GROUPS rows each, and only the videos of the page's answer places.
 */
import type { Db } from "../db/client.ts";
import { duplicateClusters } from "./duplicates.ts";
import { bm25Index, bm25Rank, flagged, indexedOverlap, type TBm25Index, type TChunkText } from "./overlap.ts";
import { listQuestions, type TQuestion } from "./store.ts";
import { videoSource } from "../media/source.ts";
import { num, rows, str } from "../db/read.ts";

/** A question's near-duplicate group: its place in the group list, its size, and a few other members' ids. */
export type TQuestionCluster = { index: number; size: number; others: string[] };
export type TReviewQuestion = TQuestion & {
  overlap: number | null;
  bm25Rank: number | null;
  bm25Of: number | null;
  flagged: boolean;
  cluster: TQuestionCluster | null;
};
/** Overlap bins: [0, 0.25), [0.25, 0.5), [0.5, 0.75), [0.75, 1]. */
export type TOverlapGroup = {
  key: string;
  questions: number;
  draft: number;
  accepted: number;
  rejected: number;
  measured: number;
  meanOverlap: number | null;
  flagged: number;
  bins: [number, number, number, number];
};
export type TClusterView = {
  index: number;
  size: number;
  similarity: number;
  questions: { id: number; qid: string; text: string }[];
};
export type TPage = { offset: number; limit: number; total: number };
export type TReview = {
  /** One page of questions, by external id. */
  questions: TReviewQuestion[];
  page: TPage;
  /** One page of near-duplicate groups, largest first; `questions` counts the questions in any group. */
  duplicates: TPage & { clusters: TClusterView[]; questions: number; complete: boolean };
  /** The MAX_GROUPS largest groups; `groups` counts them all. */
  byAuthor: TOverlapGroup[];
  byTag: TOverlapGroup[];
  groups: { authors: number; tags: number };
  /** The videos of this page's answer places. */
  videos: { id: number; externalId: string; title: string; src: string | null; allowed: boolean }[];
};
export type TReviewOptions = { offset?: number; limit?: number; clusterOffset?: number; clusterLimit?: number };

export const REVIEW_PAGE_SIZE = 100;
export const CLUSTER_PAGE_SIZE = 50;
/** Questions listed per group (the rest counted). */
export const CLUSTER_SHOWN = 20;
/** Other members named beside a question. */
const OTHERS_SHOWN = 5;
export const MAX_GROUPS = 100;

export function binOf(x: number): 0 | 1 | 2 | 3 {
  return x < 0.25 ? 0 : x < 0.5 ? 1 : x < 0.75 ? 2 : 3;
}

export function groupStats(key: string, qs: readonly TReviewQuestion[]): TOverlapGroup {
  const g: TOverlapGroup = {
    key,
    questions: qs.length,
    draft: 0,
    accepted: 0,
    rejected: 0,
    measured: 0,
    meanOverlap: null,
    flagged: 0,
    bins: [0, 0, 0, 0],
  };
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
  return [...m]
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .map(([k, list]) => groupStats(k, list));
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
export function measureQuestion(
  q: TQuestion,
  videos: ReadonlyMap<number, TBm25Index>,
): Pick<TReviewQuestion, "overlap" | "bm25Rank" | "bm25Of" | "flagged"> {
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
  return {
    overlap: best?.overlap ?? null,
    bm25Rank: best?.rank ?? null,
    bm25Of: best?.of ?? null,
    flagged: flagged(best?.overlap ?? null, best?.rank ?? null),
  };
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

export async function videoIndexes(
  db: Db,
  projectId: number,
  videoIds?: readonly number[],
): Promise<Map<number, TBm25Index>> {
  const chunking = await db.chunking.findFirst({ where: { projectId }, orderBy: { id: "asc" }, select: { id: true } });
  const out = new Map<number, TBm25Index>();
  if (!chunking) return out;
  const chunks = await rows(
    db,
    `SELECT "externalId", "videoId", "startSeconds", "endSeconds", "text" FROM "Chunk" WHERE "chunkingId" = ? ORDER BY "videoId", "startSeconds"`,
    [chunking.id],
  );
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

/**
 * One name per person: an imported question's free-text author that is a user's
 * email, the local part of exactly one user's email, or a user's name (any case) shows as that
 * user's name, as the questions they wrote do.
 */
export async function authorResolver(db: Db): Promise<(author: string | null) => string | null> {
  const users = await db.user.findMany({ select: { name: true, email: true } });
  const byKey = new Map<string, string | null>();
  const add = (key: string, name: string) => {
    const k = key.toLowerCase();
    const had = byKey.get(k);
    byKey.set(k, had === undefined || had === name ? name : null); // null: ambiguous
  };
  for (const u of users) add(u.name, u.name);
  for (const u of users) {
    byKey.set(u.email.toLowerCase(), u.name);
    add(u.email.split("@")[0], u.name);
  }
  return (author) => (author === null ? null : (byKey.get(author.toLowerCase()) ?? author));
}

export async function reviewData(db: Db, projectId: number, opts: TReviewOptions = {}): Promise<TReview> {
  const offset = opts.offset ?? 0;
  const limit = opts.limit ?? REVIEW_PAGE_SIZE;
  const clusterOffset = opts.clusterOffset ?? 0;
  const clusterLimit = opts.clusterLimit ?? CLUSTER_PAGE_SIZE;
  const [listed, resolve] = await Promise.all([listQuestions(db, projectId), authorResolver(db)]);
  const questions = listed.map((q) => ({ ...q, author: q.authorId === null ? resolve(q.author) : q.author }));
  const indexes = await videoIndexes(db, projectId, [
    ...new Set(questions.flatMap((q) => q.places.flatMap((p) => (p.videoId === null ? [] : [p.videoId])))),
  ]);
  const { clusters, complete } = duplicateClusters(questions);
  const qidOf = new Map(questions.map((q) => [q.id, q.qid]));
  const clusterOf = new Map<number, number>();
  clusters.forEach((c, i) => {
    for (const id of c.ids) clusterOf.set(id, i);
  });
  const questionCluster = (id: number): TQuestionCluster | null => {
    const index = clusterOf.get(id);
    if (index === undefined) return null;
    const ids = clusters[index].ids;
    const others: string[] = [];
    for (const other of ids) {
      if (others.length === OTHERS_SHOWN) break;
      if (other !== id) others.push(qidOf.get(other)!);
    }
    return { index, size: ids.length, others };
  };
  const reviewed: TReviewQuestion[] = questions.map((q) => ({ ...q, ...measureQuestion(q, indexes), cluster: null }));
  const page = reviewed.slice(offset, offset + limit).map((q) => ({ ...q, cluster: questionCluster(q.id) }));
  const textOf = new Map(questions.map((q) => [q.id, q.text]));
  const byAuthor = groupBy(reviewed, (q) => [q.author ?? "(no author)"]);
  const byTag = groupBy(reviewed, (q) => (q.tags.length ? q.tags : ["(untagged)"]));
  const pageVideos = [
    ...new Set(page.flatMap((q) => q.places.flatMap((p) => (p.videoId === null ? [] : [p.videoId])))),
  ];
  const videos = pageVideos.length
    ? await db.video.findMany({
        where: { projectId, id: { in: pageVideos } },
        select: { id: true, externalId: true, title: true, url: true, path: true, durationSeconds: true },
        orderBy: { externalId: "asc" },
      })
    : [];
  return {
    questions: page,
    page: { offset, limit, total: reviewed.length },
    duplicates: {
      offset: clusterOffset,
      limit: clusterLimit,
      total: clusters.length,
      questions: clusterOf.size,
      complete,
      clusters: clusters.slice(clusterOffset, clusterOffset + clusterLimit).map((c, i) => ({
        index: clusterOffset + i,
        size: c.ids.length,
        similarity: c.similarity,
        questions: c.ids.slice(0, CLUSTER_SHOWN).map((id) => ({ id, qid: qidOf.get(id)!, text: textOf.get(id)! })),
      })),
    },
    byAuthor: byAuthor.slice(0, MAX_GROUPS),
    byTag: byTag.slice(0, MAX_GROUPS),
    groups: { authors: byAuthor.length, tags: byTag.length },
    videos: videos.map((v) => {
      const { src, allowed } = videoSource(v);
      return { id: v.id, externalId: v.externalId, title: v.title, src, allowed };
    }),
  };
}
