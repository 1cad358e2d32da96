import type { Db } from "../../lib/db/client.ts";
import { buildPool } from "../../lib/pooling/build.ts";
import { assign } from "../../lib/assignment/assign.ts";
import { createUser } from "../../lib/users/users.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

/**
 * A small project for the annotate/adjudicate/media/blindness tests, written straight through
 * Prisma and the pooling/assignment functions. Everything an annotator must never see carries a
 * distinctive marker (SECRET…), so a leak is a plain substring match.
 */
export const SECRETS = {
  systems: ["SYSTEM_ZETA_SECRET", "RUN_OMEGA_SECRET"],
  runDescription: "RUN_DESCRIPTION_SECRET",
  judge: "JUDGE_GPT_SECRET",
  judgeRationale: "JUDGE_RATIONALE_SECRET",
  referenceSource: "REFSOURCE_SECRET",
  otherNotes: "OTHER_ANNOTATOR_NOTE_SECRET",
  qidPrefix: "QID_SECRET_",
  docidPrefix: "DOCID_SECRET_",
  /** Scores no real payload would contain by chance. */
  scores: ["97.53186", "88.24417", "55.90731"],
  otherName: "Otto Other-Secret",
  otherEmail: "other-secret@example.org",
};

export const PASSWORDS = {
  lead: "lead-password-1",
  adjudicator: "adj-password-1",
  ann: "ann-password-1",
  other: "other-password-1",
  outsider: "outsider-password-1",
  adjudicator2: "adj2-password-1",
};

export type TFixture = Awaited<ReturnType<typeof seedAnnotationFixture>>;

export async function seedAnnotationFixture(db: Db, opts: { videoPath?: string } = {}) {
  const lead = await createUser(db, {
    email: "lead@example.org",
    name: "Lena Lead",
    role: "lead",
    password: PASSWORDS.lead,
  });
  const adjudicator = await createUser(db, {
    email: "adj@example.org",
    name: "Adam Adjudicator",
    role: "adjudicator",
    password: PASSWORDS.adjudicator,
  });
  const adjudicator2 = await createUser(db, {
    email: "adj2@example.org",
    name: "Ada Second",
    role: "adjudicator",
    password: PASSWORDS.adjudicator2,
  });
  const ann = await createUser(db, {
    email: "ann@example.org",
    name: "Ann Annotator",
    role: "annotator",
    password: PASSWORDS.ann,
  });
  const other = await createUser(db, {
    email: SECRETS.otherEmail,
    name: SECRETS.otherName,
    role: "annotator",
    password: PASSWORDS.other,
  });
  const outsider = await createUser(db, {
    email: "outsider@example.org",
    name: "Out Sider",
    role: "annotator",
    password: PASSWORDS.outsider,
  });

  const project = await db.project.create({
    data: {
      name: "Blind project",
      annotatorsPerItem: 2,
      disagreementRule: "any_difference",
      startToleranceSeconds: 15,
    },
  });
  const fileVideo = await db.video.create({
    data: {
      projectId: project.id,
      externalId: "vid-file",
      title: "A talk on ranking",
      path: opts.videoPath ?? "demo/media/bm25.mp4",
      durationSeconds: 92,
    },
  });
  const ytVideo = await db.video.create({
    data: {
      projectId: project.id,
      externalId: "vid-yt",
      title: "A lecture online",
      url: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      durationSeconds: 600,
    },
  });
  const privateVideo = await db.video.create({
    data: {
      projectId: project.id,
      externalId: "vid-private",
      title: "Only for the outsider",
      path: opts.videoPath ?? "demo/media/rrf.mp4",
      durationSeconds: 73,
    },
  });

  const chunks: { id: number; externalId: string; videoId: number }[] = [];
  for (let i = 0; i < 6; i++) {
    chunks.push(
      await db.chunk.create({
        data: {
          chunkingId: await defaultChunkingId(db, project.id),
          projectId: project.id,
          externalId: `${SECRETS.docidPrefix}f${i}`,
          videoId: fileVideo.id,
          startSeconds: i * 15,
          endSeconds: i * 15 + 20,
          text: `File chunk ${i}: words spoken between ${i * 15} and ${i * 15 + 20} seconds.`,
        },
      }),
    );
  }
  for (let i = 0; i < 3; i++) {
    chunks.push(
      await db.chunk.create({
        data: {
          chunkingId: await defaultChunkingId(db, project.id),
          projectId: project.id,
          externalId: `${SECRETS.docidPrefix}y${i}`,
          videoId: ytVideo.id,
          startSeconds: 60 + i * 30,
          endSeconds: 90 + i * 30,
          text: `Online chunk ${i} about fusion.`,
        },
      }),
    );
  }
  const privateChunk = await db.chunk.create({
    data: {
      chunkingId: await defaultChunkingId(db, project.id),
      projectId: project.id,
      externalId: `${SECRETS.docidPrefix}p0`,
      videoId: privateVideo.id,
      startSeconds: 5,
      endSeconds: 25,
      text: "Private chunk for the outsider only.",
    },
  });

  const q1 = await db.query.create({
    data: {
      projectId: project.id,
      externalId: `${SECRETS.qidPrefix}1`,
      text: "How are the results of two lists combined?",
      author: "AUTHOR_SECRET",
    },
  });
  const q2 = await db.query.create({
    data: {
      projectId: project.id,
      externalId: `${SECRETS.qidPrefix}2`,
      text: "What does the length normalisation do?",
    },
  });
  const q3 = await db.query.create({
    data: { projectId: project.id, externalId: `${SECRETS.qidPrefix}3`, text: "A question only the outsider grades." },
  });

  const [sysA, sysB] = SECRETS.systems;
  const runA = await db.run.create({
    data: {
      chunkingId: await defaultChunkingId(db, project.id),
      projectId: project.id,
      system: sysA,
      description: SECRETS.runDescription,
      contentHash: "hash-a",
    },
  });
  const runB = await db.run.create({
    data: {
      chunkingId: await defaultChunkingId(db, project.id),
      projectId: project.id,
      system: sysB,
      contentHash: "hash-b",
    },
  });
  const entries: { runId: number; queryId: number; chunkId: number; rank: number; score: number }[] = [];
  const scores = SECRETS.scores.map(Number);
  // Run A: file chunks 0,1,2 for q1; run B: file chunk 2 and online chunks for q1; both give q2 two chunks.
  [0, 1, 2].forEach((c, i) =>
    entries.push({ runId: runA.id, queryId: q1.id, chunkId: chunks[c].id, rank: i + 1, score: scores[i] }),
  );
  [2, 6, 7].forEach((c, i) =>
    entries.push({ runId: runB.id, queryId: q1.id, chunkId: chunks[c].id, rank: i + 1, score: scores[i] }),
  );
  [3, 4].forEach((c, i) =>
    entries.push({ runId: runA.id, queryId: q2.id, chunkId: chunks[c].id, rank: i + 1, score: scores[i] }),
  );
  [4, 8].forEach((c, i) =>
    entries.push({ runId: runB.id, queryId: q2.id, chunkId: chunks[c].id, rank: i + 1, score: scores[i] }),
  );
  await db.runEntry.createMany({ data: entries });
  await buildPool(db, project.id, { depth: 3 });
  await assign(db, project.id, { perItem: 2, annotators: [ann.email, other.email], seed: 42 });

  // An item only the outsider is assigned to, on a video nobody else may watch.
  const privateItem = await db.poolItem.create({
    data: { projectId: project.id, queryId: q3.id, chunkId: privateChunk.id },
  });
  await db.assignment.create({ data: { poolItemId: privateItem.id, userId: outsider.id, orderKey: 0.5 } });

  await db.judgeLabel.createMany({
    data: chunks.slice(0, 5).map((c) => ({
      projectId: project.id,
      judge: SECRETS.judge,
      queryId: q1.id,
      chunkId: c.id,
      grade: 2,
      rationale: SECRETS.judgeRationale,
    })),
  });
  await db.referenceLabel.create({
    data: {
      projectId: project.id,
      source: SECRETS.referenceSource,
      queryId: q1.id,
      chunkId: chunks[0].id,
      grade: 3,
      startSeconds: 1,
    },
  });

  const items = await db.poolItem.findMany({
    where: { projectId: project.id, NOT: { id: privateItem.id } },
    select: { id: true, queryId: true, chunkId: true },
  });
  return {
    project,
    lead,
    adjudicator,
    adjudicator2,
    ann,
    other,
    outsider,
    fileVideo,
    ytVideo,
    privateVideo,
    privateItem,
    items,
    queries: { q1, q2, q3 },
  };
}
