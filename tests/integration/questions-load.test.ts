import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";

/**
 * Load on writing and reviewing questions over HTTP, on the suite's database
 * (SQLite, or PostgreSQL with TEST_DATABASE_URL): the report posted 5,000 identical questions with
 * no rate limit (1,500 in 11 s), and the review then built 1,124,250 near-duplicate pairs (48 MB)
 * and failed at 5,000 after 8.2 s, memory 0.59 → 2.1 GB, /api/health waiting 8.2 s meanwhile.
 * Writing is now counted against the writer's submission rate (here 60 a minute, bursts of 30), and
 * the review of 5,000 identical questions answers one bounded page within generous bounds.
 * Needs the production build (NEXT_DIST_DIR), like tests/integration/limits.test.ts.
 */
const PASSWORD = "load-password-1";
useTestDatabase();
let db: Db;
let projectId: number;
let videoId: number;
let floodId: number;
const N = 5000;

beforeAll(async () => {
  db = await (await import("../../lib/db/client.ts")).getDb();
  await createUser(db, { email: "lead@example.org", name: "Lena Lead", role: "lead", password: PASSWORD });
  const ann = await createUser(db, { email: "ann@example.org", name: "Ann", role: "annotator", password: PASSWORD });
  projectId = (await db.project.create({ data: { name: "load", annotatorsMayAuthor: true } })).id;
  videoId = (await db.video.create({ data: { projectId, externalId: "v1", title: "v1" } })).id;
  // The flooded project: 5,000 copies of one question, as the report posted (written here, before the server starts).
  floodId = (await db.project.create({ data: { name: "flood" } })).id;
  const floodVideo = (await db.video.create({ data: { projectId: floodId, externalId: "v1", title: "v1" } })).id;
  await db.query.createMany({
    data: Array.from({ length: N }, (_, i) => ({
      projectId: floodId,
      externalId: `f${i}`,
      text: "the same question again",
      status: "draft" as const,
      authorId: ann.id,
    })),
  });
  const ids = (await db.query.findMany({ where: { projectId: floodId }, select: { id: true } })).map((q) => q.id);
  await db.queryPlace.createMany({ data: ids.map((queryId) => ({ queryId, videoId: floodVideo, startSeconds: 3 })) });
});
const server = useTestServer({ env: { ASSESSOR_SUBMIT_RATE_PER_MINUTE: "60" } });
beforeAll(async () => {}, 120_000);

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

describe("writing and reviewing questions under load", () => {
  it("rate-limits writing like grading: past the burst, 429 with Retry-After, nothing written", async () => {
    const headers = {
      Cookie: await server.cookie("ann@example.org", PASSWORD),
      Origin: server.url,
      "Content-Type": "application/json",
    };
    const body = JSON.stringify({
      text: "the same question again",
      tags: [],
      places: [{ videoId, start: 3, end: null }],
    });
    const t0 = performance.now();
    const responses: { status: number; retryAfter: string | null }[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await fetch(`${server.url}/api/write/projects/${projectId}/questions`, {
        method: "POST",
        headers,
        body,
      });
      await r.arrayBuffer(); // read to the end: the connection is free again
      responses.push({ status: r.status, retryAfter: r.headers.get("retry-after") });
    }
    const seconds = (performance.now() - t0) / 1000;
    const ok = responses.filter((r) => r.status === 200).length;
    const refused = responses.filter((r) => r.status === 429);
    expect(ok + refused.length).toBe(100);
    // The burst (30) plus one a second refilled while the requests ran.
    expect(ok).toBeGreaterThanOrEqual(30);
    expect(ok).toBeLessThanOrEqual(30 + Math.ceil(seconds) + 1);
    expect(Number(refused[0].retryAfter)).toBeGreaterThanOrEqual(1);
    expect(await db.query.count({ where: { projectId } })).toBe(ok);
  }, 120_000);

  it("reviews 5,000 identical questions in bounded time, memory and size, /api/health answering meanwhile", async () => {
    const lead = await server.cookie("lead@example.org", PASSWORD);

    const health: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const t = performance.now();
        expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
        health.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const rss0 = rssMb(server.pid);
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 50);
    const t0 = performance.now();
    const res = await fetch(`${server.url}/api/lead/projects/${floodId}/questions`, { headers: { Cookie: lead } });
    const text = await res.text();
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    polling = false;
    await poller;
    expect(res.status).toBe(200);
    const review = JSON.parse(text) as {
      page: { total: number };
      questions: unknown[];
      duplicates: { total: number; clusters: { size: number }[] };
    };
    expect([
      review.page.total,
      review.questions.length,
      review.duplicates.total,
      review.duplicates.clusters[0].size,
    ]).toEqual([N, 100, 1, N]);
    // Generous bounds (an idle machine takes tenths of a second, a few MB of memory and 40 KB).
    expect(seconds).toBeLessThan(15);
    expect(text.length).toBeLessThan(500_000);
    expect(peak - rss0).toBeLessThan(500);
    expect(Math.max(...health)).toBeLessThan(5_000);
    // Paged: the last page, and a page past the end is empty.
    const last = (await (
      await fetch(`${server.url}/api/lead/projects/${floodId}/questions?offset=${N - 10}&limit=500`, {
        headers: { Cookie: lead },
      })
    ).json()) as { questions: unknown[] };
    expect(last.questions).toHaveLength(10);
    expect(
      (await fetch(`${server.url}/api/lead/projects/${floodId}/questions?limit=100000`, { headers: { Cookie: lead } }))
        .status,
    ).toBe(422);
  }, 180_000);
});
