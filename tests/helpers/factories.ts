import { hash } from "@node-rs/argon2";
import type { Db } from "../../lib/db/client.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

/**
 * Small factories with defaults, writing straight through Prisma: tests of pooling, assignment
 * and labels use them instead of the importers, so each test says only what matters to it.
 */
let counter = 0;
const next = () => ++counter;

export async function makeProject(
  db: Db,
  data: Partial<{
    name: string;
    poolDepth: number;
    annotatorsPerItem: number;
    disagreementRule: "any_difference" | "distance_two" | "relevance_threshold";
    startToleranceSeconds: number;
  }> = {},
) {
  return db.project.create({ data: { name: data.name ?? `project-${next()}`, ...data } });
}

// One hash shared by every factory user: hashing is deliberately slow.
let sharedHash: Promise<string> | undefined;
export const TEST_PASSWORD = "test-password-1";

export async function makeUser(
  db: Db,
  data: Partial<{ email: string; name: string; role: "lead" | "adjudicator" | "annotator"; active: boolean }> = {},
) {
  sharedHash ??= hash(TEST_PASSWORD);
  const n = next();
  return db.user.create({
    data: {
      email: data.email ?? `user${n}@example.org`,
      name: data.name ?? `User ${n}`,
      role: data.role ?? "annotator",
      active: data.active ?? true,
      passwordHash: await sharedHash,
    },
  });
}

export async function makeVideo(db: Db, projectId: number, externalId = `v${next()}`) {
  return db.video.create({
    data: {
      projectId,
      externalId,
      title: `Video ${externalId}`,
      url: `https://example.org/${externalId}.mp4`,
      durationSeconds: 600,
    },
  });
}

/** Chunks with the given external ids on one new video; returns them keyed by external id. */
export async function makeChunks(db: Db, projectId: number, externalIds: string[]) {
  const video = await makeVideo(db, projectId);
  const byId = new Map<string, { id: number; externalId: string }>();
  for (const [i, externalId] of externalIds.entries()) {
    const c = await db.chunk.create({
      data: {
        chunkingId: await defaultChunkingId(db, projectId),
        projectId: projectId,
        videoId: video.id,
        externalId,
        startSeconds: i * 30,
        endSeconds: i * 30 + 30,
        text: `text of ${externalId}`,
      },
    });
    byId.set(externalId, c);
  }
  return byId;
}

export async function makeQueries(db: Db, projectId: number, externalIds: string[]) {
  const byId = new Map<string, { id: number; externalId: string }>();
  for (const externalId of externalIds)
    byId.set(externalId, await db.query.create({ data: { projectId, externalId, text: `question ${externalId}?` } }));
  return byId;
}

/** A run from TREC-like rows [qid, docid, score] (rank = position given). */
export async function makeRun(
  db: Db,
  projectId: number,
  system: string,
  rows: [qid: string, docid: string, score: number][],
  ids: { queries: Map<string, { id: number }>; chunks: Map<string, { id: number }> },
) {
  const run = await db.run.create({
    data: {
      chunkingId: await defaultChunkingId(db, projectId),
      projectId: projectId,
      system,
      contentHash: `hash-${system}-${next()}`,
    },
  });
  await db.runEntry.createMany({
    data: rows.map(([qid, docid, score], i) => ({
      runId: run.id,
      queryId: ids.queries.get(qid)!.id,
      chunkId: ids.chunks.get(docid)!.id,
      rank: i + 1,
      score,
    })),
  });
  return run;
}

export async function makeJudgeLabels(
  db: Db,
  projectId: number,
  judge: string,
  rows: { queryId: number; chunkId: number; grade: number }[],
) {
  await db.judgeLabel.createMany({ data: rows.map((r) => ({ projectId, judge, ...r })) });
}

/** `n` pool items on one query (with their chunks), assigned to every user in `assignees`. */
export async function makeAssignedItems(
  db: Db,
  projectId: number,
  n: number,
  assignees: { id: string }[],
  qid = `q${next()}`,
) {
  const queries = await makeQueries(db, projectId, [qid]);
  const chunks = await makeChunks(
    db,
    projectId,
    Array.from({ length: n }, (_, i) => `${qid}-c${i + 1}`),
  );
  const items = [];
  for (const c of chunks.values()) {
    const item = await db.poolItem.create({ data: { projectId, queryId: queries.get(qid)!.id, chunkId: c.id } });
    for (const u of assignees)
      await db.assignment.create({ data: { poolItemId: item.id, userId: u.id, orderKey: Math.random() } });
    items.push({ ...item, qid, docid: c.externalId });
  }
  return items;
}
