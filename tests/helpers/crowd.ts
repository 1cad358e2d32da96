import { randomUUID } from "node:crypto";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { apiSession } from "./login.ts";
import { defaultChunkingId } from "../../lib/chunkings/store.ts";

/**
 * Simulated annotators for the crash, scale-out and outage tests: many users grading
 * through the HTTP API as the browser's outbox does (lib/offline/outbox.ts): one idempotency key
 * per submission, sent again after a network error, a 5xx, 408 or 429 until a definite answer.
 */
export const CROWD_PASSWORD = "crowd-password-1";

export type TCrowd = { projectId: number; annotators: { id: string; email: string; items: string[] }[] };

/** `annotators` users and a project whose pool gives each of them `perAnnotator` items (two annotators per item). */
export async function seedCrowd(db: Db, annotators: number, perAnnotator: number): Promise<TCrowd> {
  const project = await db.project.create({
    data: { name: `crowd-${randomUUID().slice(0, 8)}`, annotatorsPerItem: 2 },
  });
  const video = await db.video.create({
    data: {
      projectId: project.id,
      externalId: "v",
      title: "Crowd video",
      path: "demo/media/bm25.mp4",
      durationSeconds: 92,
    },
  });
  const users: { id: string; email: string }[] = [];
  for (let i = 0; i < annotators; i++)
    users.push(
      await createUser(db, {
        email: `crowd${i}@example.org`,
        name: `Crowd ${i}`,
        role: "annotator",
        password: CROWD_PASSWORD,
      }),
    );
  const itemCount = (annotators * perAnnotator) / 2;
  const chunksPerQuery = 20;
  const queries = Math.ceil(itemCount / chunksPerQuery);
  const chunkIds: number[] = [];
  for (let c = 0; c < chunksPerQuery; c++)
    chunkIds.push(
      (
        await db.chunk.create({
          data: {
            chunkingId: await defaultChunkingId(db, project.id),
            projectId: project.id,
            videoId: video.id,
            externalId: `c${c}`,
            startSeconds: c * 4,
            endSeconds: c * 4 + 4,
            text: `Chunk ${c}`,
          },
        })
      ).id,
    );
  const itemIds: string[] = [];
  for (let q = 0; q < queries; q++) {
    const query = await db.query.create({
      data: { projectId: project.id, externalId: `q${q}`, text: `Question ${q}?` },
    });
    for (const chunkId of chunkIds) {
      if (itemIds.length === itemCount) break;
      itemIds.push((await db.poolItem.create({ data: { projectId: project.id, queryId: query.id, chunkId } })).id);
    }
  }
  // Item i goes to annotators i mod n and (i + 1) mod n: everyone gets perAnnotator items.
  const assignments = itemIds.flatMap((poolItemId, i) =>
    [0, 1].map((k) => ({ poolItemId, userId: users[(i + k) % annotators].id, orderKey: i })),
  );
  await db.assignment.createMany({ data: assignments });
  return {
    projectId: project.id,
    annotators: users.map((u) => ({
      id: u.id,
      email: u.email,
      items: assignments.filter((a) => a.userId === u.id).map((a) => a.poolItemId),
    })),
  };
}

export type TAck = { userId: string; poolItemId: string; grade: number; key: string };
export type TClientStats = {
  acknowledged: TAck[];
  attempts: number;
  retries: number;
  statuses: Record<string, number>;
  refused: string[];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One annotator grading every item once through `urls` (several app servers: each request goes
 * to the next one). A grade counts as acknowledged only when a 2xx answer arrives; anything
 * without a definite answer is retried with the same key, for up to `deadlineMs`.
 */
export async function runAnnotator(
  urls: string[],
  annotator: { id: string; email: string; items: string[] },
  opts: { paceMs?: number; deadlineMs: number; onAck?: () => void },
): Promise<TClientStats> {
  const stats: TClientStats = { acknowledged: [], attempts: 0, retries: 0, statuses: {}, refused: [] };
  const deadline = Date.now() + opts.deadlineMs;
  let cookie = "";
  let turn = 0;
  const url = () => urls[turn++ % urls.length];
  while (!cookie) {
    try {
      cookie = await apiSession(url(), annotator.email, CROWD_PASSWORD);
    } catch (e) {
      if (Date.now() > deadline) throw e;
      await sleep(200);
    }
  }
  for (const [i, poolItemId] of annotator.items.entries()) {
    const grade = (i + annotator.email.length) % 4;
    const key = randomUUID();
    const body = JSON.stringify({
      poolItemId,
      grade,
      startSeconds: grade > 0 ? i : null,
      notes: "",
      flags: [],
      timeSpentMs: 1000 + i,
      idempotencyKey: key,
    });
    for (let attempt = 0; ; attempt++) {
      if (Date.now() > deadline) return stats;
      if (attempt > 0) {
        stats.retries++;
        await sleep(Math.min(1000, 100 * 2 ** Math.min(attempt, 4)));
      }
      stats.attempts++;
      let status = 0;
      let retryAfter = 0;
      try {
        const r = await fetch(`${url()}/api/annotate/judgements`, {
          method: "POST",
          headers: { Cookie: cookie, "Content-Type": "application/json" },
          body,
          signal: AbortSignal.timeout(10_000),
        });
        status = r.status;
        retryAfter = Number(r.headers.get("retry-after") ?? 0);
        await r.arrayBuffer();
      } catch {
        status = 0; // connection refused or reset: the server is down
      }
      stats.statuses[String(status)] = (stats.statuses[String(status)] ?? 0) + 1;
      if (status >= 200 && status < 300) {
        stats.acknowledged.push({ userId: annotator.id, poolItemId, grade, key });
        opts.onAck?.();
        break;
      }
      if (status !== 0 && status < 500 && ![401, 408, 425, 429].includes(status)) {
        stats.refused.push(`${poolItemId}: HTTP ${status}`);
        break;
      }
      if (retryAfter > 0) await sleep(retryAfter * 1000);
    }
    if (opts.paceMs) await sleep(opts.paceMs);
  }
  return stats;
}

export type TTally = { acknowledged: number; stored: number; lost: number; duplicated: number; mismatched: number };

/**
 * What the database holds for the acknowledged grades: each acknowledged key must be stored
 * exactly once (one LabelEvent with the key; the annotator's Judgement with its grade) and no
 * (annotator, item) may have been applied twice (one judgement event each, since every client
 * submits each item once).
 */
export async function tally(db: Db, projectId: number, acks: TAck[]): Promise<TTally> {
  const events = await db.labelEvent.findMany({
    where: { projectId, kind: "judgement" },
    select: { idempotencyKey: true, poolItemId: true, actorId: true },
  });
  const byKey = new Map<string, number>();
  const byPair = new Map<string, number>();
  for (const e of events) {
    if (e.idempotencyKey) byKey.set(e.idempotencyKey, (byKey.get(e.idempotencyKey) ?? 0) + 1);
    const pair = `${e.actorId} ${e.poolItemId}`;
    byPair.set(pair, (byPair.get(pair) ?? 0) + 1);
  }
  const judgements = new Map(
    (
      await db.judgement.findMany({
        where: { poolItem: { projectId } },
        select: { userId: true, poolItemId: true, grade: true },
      })
    ).map((j) => [`${j.userId} ${j.poolItemId}`, j.grade]),
  );
  let lost = 0;
  let mismatched = 0;
  for (const a of acks) {
    if (!byKey.has(a.key)) lost++;
    else if (judgements.get(`${a.userId} ${a.poolItemId}`) !== a.grade) mismatched++;
  }
  const duplicated = [...byPair.values()].reduce((n, c) => n + (c > 1 ? c - 1 : 0), 0);
  return { acknowledged: acks.length, stored: events.length, lost, duplicated, mismatched };
}
