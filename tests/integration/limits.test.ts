import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { PASSWORDS, seedAnnotationFixture, type TFixture } from "./annotate-fixture.ts";
import { signIn } from "../helpers/auth-http.ts";
import { streamPost } from "../helpers/stream-post.ts";

/**
 * Limits: upload size (413, and the server keeps answering /api/health while
 * 200 MB stream in), JSON body size (413), submissions per user (429 with Retry-After, counted in
 * the database) and sign-in attempts (the throttle of lib/auth/throttle.ts: 429 with Retry-After
 * once the backoff starts). The server runs with small limits so the test stays quick.
 */
useTestDatabase();
let fx: TFixture;
let ann: string;
let lead: string;
let adj: string;

const MB = 1024 * 1024;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  fx = await seedAnnotationFixture(await getDb());
});
const server = useTestServer({
  env: { ASSESSOR_UPLOAD_LIMIT_MB: "150", ASSESSOR_JSON_LIMIT_KB: "64", ASSESSOR_SUBMIT_RATE_PER_MINUTE: "20" },
});
beforeAll(async () => {
  ann = await server.cookie("ann@example.org", PASSWORDS.ann);
  lead = await server.cookie("lead@example.org", PASSWORDS.lead);
  adj = await server.cookie("adj@example.org", PASSWORDS.adjudicator);
});

/**
 * Streams `total` bytes (chunked, no Content-Length unless `declare`) to the upload route and
 * polls /api/health every 50 ms meanwhile; stops sending once the server has answered.
 */
async function uploadWhilePolling(path: string, total: number, declare = false) {
  const health: number[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const t0 = performance.now();
      const r = await fetch(`${server.url}/api/health`);
      expect(r.status).toBe(200);
      health.push(performance.now() - t0);
      await new Promise((res) => setTimeout(res, 50));
    }
  })();
  const res = await streamPost(
    new URL(path, server.url),
    { Cookie: lead, "Content-Type": "application/octet-stream" },
    total,
    "q1 Q0 c1 1 1.0 sys\n",
    declare,
  );
  polling = false;
  await poller;
  return { ...res, health };
}

describe("upload size", () => {
  it("refuses a 200 MB upload past the 150 MB limit with 413, and answers /api/health all along", async () => {
    const r = await uploadWhilePolling(
      `/api/lead/projects/${fx.project.id}/imports/run?name=big.run&system=big`,
      200 * MB,
    );
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({
      error: {
        code: "too_large",
        message: "the request body is larger than the limit of 150 MB (ASSESSOR_UPLOAD_LIMIT_MB)",
      },
    });
    expect(r.health.length).toBeGreaterThan(0);
    console.log(
      `health during the upload: ${r.health.length} answers, slowest ${Math.max(...r.health).toFixed(0)} ms; ${r.sent / MB} MB sent`,
    );
    expect(Math.max(...r.health)).toBeLessThan(2000);
  });

  it("refuses at once when Content-Length says the file is too large", async () => {
    const r = await uploadWhilePolling(
      `/api/lead/projects/${fx.project.id}/imports/run?name=big.run&system=big`,
      200 * MB,
      true,
    );
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error.message).toBe(
      "the request body (200 MB) is larger than the limit of 150 MB (ASSESSOR_UPLOAD_LIMIT_MB)",
    );
    expect(r.sent).toBeLessThan(200 * MB);
  });

  it("reads a 100 MB upload under the limit to the end while /api/health answers", async () => {
    // No system given: the upload is read whole, then refused for its options (422), not its size.
    const r = await uploadWhilePolling(`/api/lead/projects/${fx.project.id}/imports/run?name=big.run`, 100 * MB);
    expect(r.status).toBe(422);
    expect(Math.max(...r.health)).toBeLessThan(2000);
  });
});

describe("JSON bodies and rates", () => {
  const judgement = (cookie: string, body: string) =>
    fetch(`${server.url}/api/annotate/judgements`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body,
    });

  it("refuses a JSON body past ASSESSOR_JSON_LIMIT_KB with 413", async () => {
    const r = await fetch(`${server.url}/api/adjudicate/decisions`, {
      method: "POST",
      headers: { Cookie: adj, "Content-Type": "application/json" },
      body: JSON.stringify({ rationale: "x".repeat(100 * 1024) }),
    });
    expect(r.status).toBe(413);
    expect(((await r.json()) as { error: { message: string } }).error.message).toBe(
      "the request body (100 KB) is larger than the limit of 64 KB (ASSESSOR_JSON_LIMIT_KB)",
    );
  });

  it("answers 429 with Retry-After past a user's submission rate; other users are not held up", async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 14; i++) {
      const r = await judgement(ann, "{}");
      statuses.push(r.status);
      if (r.status === 429) retryAfter = r.headers.get("retry-after");
      await r.arrayBuffer();
    }
    // A burst of 10 (half the 20 a minute), then refused.
    expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
    expect(statuses.slice(11)).toEqual([429, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(3);
    const other = await server.cookie(fx.other.email, PASSWORDS.other);
    expect((await judgement(other, "{}")).status).toBe(422);
  });

  it("answers 429 with Retry-After once sign-in attempts for one email back off, with the message for the form", async () => {
    const attempts = [];
    for (let i = 0; i < 6; i++) attempts.push(await signIn(server.url, "outsider@example.org", "wrong"));
    // Five passwords checked, then a wait of 1 s (lib/auth/throttle.ts PAIR).
    expect(attempts.slice(0, 5).map((a) => a.error)).toEqual(Array(5).fill("Wrong email or password."));
    expect(attempts.map((a) => a.status).slice(0, 5)).not.toContain(429);
    expect(attempts[5].status).toBe(429);
    expect(Number(attempts[5].retryAfter)).toBeGreaterThanOrEqual(1);
    expect(attempts[5].error).toMatch(/^Too many failed sign-in attempts\. Try again in \d+ seconds?\.$/);
    expect((await signIn(server.url, "lead@example.org", PASSWORDS.lead)).status).not.toBe(429);
  });
});
