/**
 * What the judge sees of a pair, exactly what a blind annotator sees: the question, the chunk's
 * text and times, the neighbouring transcript and the video's title. Read from the queries,
 * chunks and videos only; pool provenance, runs, ranks and scores are never read here.
 */
import type { Db } from "../db/client.ts";
import { clock, usedPlaceholders, type TPairView } from "./template.ts";

export type TPairViews = Map<string, { qid: string; docid: string; view: TPairView }>;

/** The template's view of each pair, keyed `queryId:chunkId`; neighbours are read only when the template asks. */
export async function loadPairViews(db: Db, template: string, pairs: readonly { queryId: number; chunkId: number }[]): Promise<TPairViews> {
  const used = usedPlaceholders(template);
  const queryIds = [...new Set(pairs.map((p) => p.queryId))];
  const chunkIds = [...new Set(pairs.map((p) => p.chunkId))];
  const queries = new Map<number, { externalId: string; text: string }>();
  for (let i = 0; i < queryIds.length; i += 5000)
    for (const q of await db.query.findMany({ where: { id: { in: queryIds.slice(i, i + 5000) } }, select: { id: true, externalId: true, text: true } })) queries.set(q.id, q);
  const chunks = new Map<number, { externalId: string; videoId: number; startSeconds: number; endSeconds: number; text: string }>();
  for (let i = 0; i < chunkIds.length; i += 5000)
    for (const c of await db.chunk.findMany({ where: { id: { in: chunkIds.slice(i, i + 5000) } }, select: { id: true, externalId: true, videoId: true, startSeconds: true, endSeconds: true, text: true } })) chunks.set(c.id, c);
  const videoIds = [...new Set([...chunks.values()].map((c) => c.videoId))];
  const titles = new Map((await db.video.findMany({ where: { id: { in: videoIds } }, select: { id: true, title: true } })).map((v) => [v.id, v.title]));
  // Neighbours: the previous and next chunk of the same video by start time.
  const neighbours = new Map<number, { before: string; after: string }>();
  if (used.has("before") || used.has("after")) {
    for (const videoId of videoIds) {
      const inVideo = await db.chunk.findMany({ where: { videoId }, select: { id: true, text: true }, orderBy: [{ startSeconds: "asc" }, { id: "asc" }] });
      inVideo.forEach((c, i) => {
        if (chunks.has(c.id)) neighbours.set(c.id, { before: inVideo[i - 1]?.text ?? "", after: inVideo[i + 1]?.text ?? "" });
      });
    }
  }
  const out: TPairViews = new Map();
  for (const p of pairs) {
    const q = queries.get(p.queryId);
    const c = chunks.get(p.chunkId);
    if (!q || !c) continue;
    const n = neighbours.get(p.chunkId);
    out.set(`${p.queryId}:${p.chunkId}`, {
      qid: q.externalId,
      docid: c.externalId,
      view: { question: q.text, chunk: c.text, before: n?.before ?? "", after: n?.after ?? "", video_title: titles.get(c.videoId) ?? "", start: clock(c.startSeconds), end: clock(c.endSeconds) },
    });
  }
  return out;
}
