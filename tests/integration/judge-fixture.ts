import type { Db } from "../../lib/db/client.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

/**
 * A project with a pool for the judge's tests: `queries` questions (tagged "entity" every other
 * one), `perQuery` pooled chunks each, from two videos; pool items written directly (the judge
 * reads the pool, not the runs).
 */
export async function seedJudgeProject(db: Db, opts: { name?: string; queries?: number; perQuery?: number } = {}) {
  const queries = opts.queries ?? 4;
  const perQuery = opts.perQuery ?? 5;
  const project = await db.project.create({ data: { name: opts.name ?? "judge-project" } });
  const videos = [
    await db.video.create({
      data: {
        projectId: project.id,
        externalId: "v1",
        title: "Ranking talk",
        path: "demo/media/bm25.mp4",
        durationSeconds: 600,
      },
    }),
    await db.video.create({
      data: {
        projectId: project.id,
        externalId: "v2",
        title: "Fusion lecture",
        path: "demo/media/rrf.mp4",
        durationSeconds: 600,
      },
    }),
  ];
  const chunkIds: number[] = [];
  for (let i = 0; i < queries * perQuery; i++) {
    const v = videos[i % 2];
    const c = await db.chunk.create({
      data: {
        chunkingId: await defaultChunkingId(db, project.id),
        projectId: project.id,
        externalId: `c${String(i).padStart(4, "0")}`,
        videoId: v.id,
        startSeconds: i * 10,
        endSeconds: i * 10 + 15,
        text: `Chunk ${i}: words spoken in ${v.title} at ${i * 10} seconds.`,
      },
    });
    chunkIds.push(c.id);
  }
  const queryIds: number[] = [];
  for (let q = 0; q < queries; q++) {
    const query = await db.query.create({
      data: {
        projectId: project.id,
        externalId: `q${q}`,
        text: `Question ${q} of ${project.name}: what is said about topic ${q}?`,
        ...(q % 2 === 0 ? { tags: { create: [{ tag: "entity" }] } } : {}),
      },
    });
    queryIds.push(query.id);
    for (let k = 0; k < perQuery; k++)
      await db.poolItem.create({
        data: { projectId: project.id, queryId: query.id, chunkId: chunkIds[q * perQuery + k] },
      });
  }
  return { project, queryIds, chunkIds, pairs: queries * perQuery };
}
