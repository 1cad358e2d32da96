import type { Db } from "../../lib/db/client.ts";

/**
 * A project with two chunkings of one 400 s video, for label transfer tests:
 * chunking A = 20 s chunks a0..a19, chunking B = 40 s chunks b0..b9, `queries` questions q0…,
 * human reference labels of A on a0..a14 (0–300 s) of every question, grade (i + q) mod 4, and one
 * run of B ("bm25-B") ranking all ten chunks of each question.
 * What the transfer gives (by the rule in lib/stats/time/transfer.ts, version 2; no reference
 * spans): b0..b6 a label for every question; b7 = [280, 320] holds a14 wholly and gets one for
 * every question (where a14 is 0, its 20 free seconds suffice at the default zero share 0); b8 and
 * b9 touch no label. With 6 questions: 60 ranked pairs, 6·8 = 48 transferred, 12 unjudged.
 */
export async function seedTransferProject(db: Db, opts: { name?: string; queries?: number } = {}) {
  const Q = opts.queries ?? 6;
  const projectId = (
    await db.project.create({ data: { name: opts.name ?? "audit", poolDepth: 10, annotatorsPerItem: 2 } })
  ).id;
  const video = await db.video.create({ data: { projectId, externalId: "v1", title: "Video 1" } });
  const queryIds: number[] = [];
  const chunkIds = { A: [] as number[], B: [] as number[] };
  for (let q = 0; q < Q; q++)
    queryIds.push((await db.query.create({ data: { projectId, externalId: `q${q}`, text: `question ${q}?` } })).id);
  for (const [name, size, n] of [
    ["A", 20, 20],
    ["B", 40, 10],
  ] as const) {
    const c = await db.chunking.create({ data: { projectId, name, method: "seconds", size, overlap: 0 } });
    for (let i = 0; i < n; i++)
      chunkIds[name].push(
        (
          await db.chunk.create({
            data: {
              projectId,
              chunkingId: c.id,
              videoId: video.id,
              externalId: `${name.toLowerCase()}${i}`,
              startSeconds: i * size,
              endSeconds: (i + 1) * size,
              text: `${name} ${i}`,
            },
          })
        ).id,
      );
  }
  await db.referenceLabel.createMany({
    data: queryIds.flatMap((queryId, q) =>
      chunkIds.A.slice(0, 15).map((chunkId, i) => ({
        projectId,
        source: "qrels",
        queryId,
        chunkId,
        grade: (i + q) % 4,
      })),
    ),
  });
  const b = await db.chunking.findFirstOrThrow({ where: { projectId, name: "B" } });
  const run = await db.run.create({ data: { projectId, chunkingId: b.id, system: "bm25-B", contentHash: "h" } });
  await db.runEntry.createMany({
    data: queryIds.flatMap((queryId) =>
      chunkIds.B.map((chunkId, i) => ({ runId: run.id, queryId, chunkId, rank: i + 1, score: 10 - i })),
    ),
  });
  return { projectId, queryIds, chunkIds };
}
