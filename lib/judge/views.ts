/**
 * What the judge sees of a pair, exactly what a blind annotator sees: the question, the chunk's
 * text and times, the neighbouring transcript and the video's title. Read from the queries,
 * chunks and videos only; pool provenance, runs, ranks and scores are never read here.
 */
import type { Db } from "../db/client.ts";
import { clock, usedPlaceholders, type TPairView } from "./template.ts";

export type TPairViews = Map<string, { qid: string; docid: string; view: TPairView }>;

/** The template's view of each pair, keyed `queryId:chunkId`; neighbours are read only when the template asks. */
export async function loadPairViews(
  db: Db,
  template: string,
  pairs: readonly { queryId: number; chunkId: number }[],
): Promise<TPairViews> {
  return pairViewLoader(db, template)(pairs);
}

/**
 * A loader of pair views for one template, for a worker that reads the views of each batch of
 * claimed tasks as it goes (memory stays with the batch, and a resume starts at once). Video
 * titles and, when the template uses neighbours, each video's chunk order (ids only) are read once
 * per video and kept.
 */
export function pairViewLoader(
  db: Db,
  template: string,
): (pairs: readonly { queryId: number; chunkId: number }[]) => Promise<TPairViews> {
  const used = usedPlaceholders(template);
  const withNeighbours = used.has("before") || used.has("after");
  const titles = new Map<number, string>();
  // Chunk order per video and chunking, keyed `videoId:chunkingId`: a chunk's neighbours are its
  // own chunking's (another chunking of the same video would repeat or contain its text).
  const order = new Map<string, { ids: number[]; at: Map<number, number> }>();
  return async (pairs) => {
    const queryIds = [...new Set(pairs.map((p) => p.queryId))];
    const chunkIds = [...new Set(pairs.map((p) => p.chunkId))];
    const queries = new Map<number, { externalId: string; text: string }>();
    for (let i = 0; i < queryIds.length; i += 5000)
      for (const q of await db.query.findMany({
        where: { id: { in: queryIds.slice(i, i + 5000) } },
        select: { id: true, externalId: true, text: true },
      }))
        queries.set(q.id, q);
    const chunks = new Map<
      number,
      {
        externalId: string;
        videoId: number;
        chunkingId: number;
        startSeconds: number;
        endSeconds: number;
        text: string;
      }
    >();
    for (let i = 0; i < chunkIds.length; i += 5000)
      for (const c of await db.chunk.findMany({
        where: { id: { in: chunkIds.slice(i, i + 5000) } },
        select: {
          id: true,
          externalId: true,
          videoId: true,
          chunkingId: true,
          startSeconds: true,
          endSeconds: true,
          text: true,
        },
      }))
        chunks.set(c.id, c);
    const newVideos = [...new Set([...chunks.values()].map((c) => c.videoId))].filter((v) => !titles.has(v));
    for (const v of await db.video.findMany({ where: { id: { in: newVideos } }, select: { id: true, title: true } }))
      titles.set(v.id, v.title);
    // Neighbours: the previous and next chunk of the same video and chunking by start time.
    const neighbours = new Map<number, { before: string; after: string }>();
    if (withNeighbours) {
      const newOrders = new Map<string, { videoId: number; chunkingId: number }>();
      for (const c of chunks.values())
        if (!order.has(`${c.videoId}:${c.chunkingId}`)) newOrders.set(`${c.videoId}:${c.chunkingId}`, c);
      for (const [key, { videoId, chunkingId }] of newOrders) {
        const ids = (
          await db.chunk.findMany({
            where: { videoId, chunkingId },
            select: { id: true },
            orderBy: [{ startSeconds: "asc" }, { id: "asc" }],
          })
        ).map((c) => c.id);
        order.set(key, { ids, at: new Map(ids.map((id, i) => [id, i])) });
      }
      const around = new Map<number, { before: number | null; after: number | null }>();
      for (const [id, c] of chunks) {
        const o = order.get(`${c.videoId}:${c.chunkingId}`);
        const i = o?.at.get(id);
        if (o && i !== undefined) around.set(id, { before: o.ids[i - 1] ?? null, after: o.ids[i + 1] ?? null });
      }
      const wanted = [
        ...new Set([...around.values()].flatMap((a) => [a.before, a.after]).filter((x): x is number => x !== null)),
      ];
      const texts = new Map<number, string>();
      for (let i = 0; i < wanted.length; i += 5000)
        for (const c of await db.chunk.findMany({
          where: { id: { in: wanted.slice(i, i + 5000) } },
          select: { id: true, text: true },
        }))
          texts.set(c.id, c.text);
      for (const [id, a] of around)
        neighbours.set(id, {
          before: a.before === null ? "" : (texts.get(a.before) ?? ""),
          after: a.after === null ? "" : (texts.get(a.after) ?? ""),
        });
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
        view: {
          question: q.text,
          chunk: c.text,
          before: n?.before ?? "",
          after: n?.after ?? "",
          video_title: titles.get(c.videoId) ?? "",
          start: clock(c.startSeconds),
          end: clock(c.endSeconds),
        },
      });
    }
    return out;
  };
}
