import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServers } from "../helpers/fixtures.ts";
import type { RunningServer } from "../helpers/server.ts";
import { apiSession } from "../helpers/login.ts";
import { runAnnotator, seedCrowd, tally } from "../helpers/crowd.ts";
import type { Db } from "../../lib/db/client.ts";
import { PASSWORDS, seedAnnotationFixture, type TFixture } from "../integration/annotate-fixture.ts";

/**
 * Scale-out: two app servers on one PostgreSQL schema. The same idempotency
 * key sent to both at once is stored once; two adjudicators deciding one item through different
 * servers get one decision and one 409; the sign-in backoff counts failures on both; an annotator
 * deactivated through one server is refused by both; 30 annotators spread over both servers
 * lose and duplicate nothing. PostgreSQL only (SQLite is one file for one server): runs in the
 * PostgreSQL stage of `npm test`.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);
useTestDatabase();
let db: Db;
let fx: TFixture;

beforeAll(async () => {
  if (!pg) return;
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  fx = await seedAnnotationFixture(db);
});
// On SQLite the file's only describe is skipped, so Vitest runs none of these hooks.
const [a, b] = useTestServers(2, { env: { ASSESSOR_DASHBOARD_WARMUP: "0" } });

const post = (server: RunningServer, path: string, cookie: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { Cookie: cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe.skipIf(!pg)("two app servers on one PostgreSQL schema", () => {
  it("stores a submission sent to both servers at once with one key exactly once", async () => {
    // A session made on one server is valid on the other (JWT, same secret).
    const cookie = await apiSession(a.url, "ann@example.org", PASSWORDS.ann);
    const body = {
      poolItemId: fx.items[0].id,
      grade: 2,
      startSeconds: 3,
      notes: "",
      flags: [],
      timeSpentMs: 100,
      idempotencyKey: "scale-out-same-key-1",
    };
    const answers = await Promise.all([
      post(a, "/api/annotate/judgements", cookie, body),
      post(b, "/api/annotate/judgements", cookie, body),
    ]);
    const json = (await Promise.all(answers.map((r) => r.json()))) as { applied: boolean }[];
    const events = await db.labelEvent.count({ where: { idempotencyKey: body.idempotencyKey } });
    console.log(
      `scale-out, same key to both servers: answers ${answers.map((r) => r.status).join(", ")}; applied ${json.filter((j) => j.applied).length}; stored ${events}`,
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(json.filter((j) => j.applied)).toHaveLength(1);
    expect(events).toBe(1);
    expect(await db.judgement.count({ where: { poolItemId: body.poolItemId, userId: fx.ann.id } })).toBe(1);
  });

  it("lets one of two adjudicators deciding one item through different servers win; the other gets 409", async () => {
    const { submitJudgement } = await import("../../lib/labels/submit.ts");
    const item = fx.items[1].id;
    await submitJudgement(db, fx.ann.id, {
      poolItemId: item,
      grade: 0,
      startSeconds: null,
      notes: "",
      flags: [],
      timeSpentMs: 1,
      idempotencyKey: "scale-out-disagree-a",
    });
    await submitJudgement(db, fx.other.id, {
      poolItemId: item,
      grade: 3,
      startSeconds: 5,
      notes: "",
      flags: [],
      timeSpentMs: 1,
      idempotencyKey: "scale-out-disagree-b",
    });
    const [adj1, adj2] = await Promise.all([
      apiSession(a.url, "adj@example.org", PASSWORDS.adjudicator),
      apiSession(b.url, "adj2@example.org", PASSWORDS.adjudicator2),
    ]);
    const answers = await Promise.all([
      post(a, "/api/adjudicate/decisions", adj1, {
        poolItemId: item,
        grade: 1,
        startSeconds: 4,
        rationale: "one",
        idempotencyKey: "scale-out-adj-1",
      }),
      post(b, "/api/adjudicate/decisions", adj2, {
        poolItemId: item,
        grade: 2,
        startSeconds: 4,
        rationale: "two",
        idempotencyKey: "scale-out-adj-2",
      }),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    const decisions = await db.adjudication.count({ where: { poolItemId: item } });
    console.log(
      `scale-out, two adjudicators on one item: answers ${statuses.join(", ")}; decisions stored ${decisions}`,
    );
    expect(statuses).toEqual([200, 409]);
    expect(decisions).toBe(1);
    const refused = (await answers.find((r) => r.status === 409)?.json()) as {
      error: { details: { standing: { grade: number } } };
    };
    expect([1, 2]).toContain(refused.error.details.standing.grade);
  });

  it("shares the sign-in backoff: failures on both servers make both wait", async () => {
    const attempt = (server: RunningServer, password: string) =>
      apiSession(server.url, "outsider@example.org", password).then(
        () => "ok",
        (e: Error) => e.message,
      );
    for (let i = 0; i < 5; i++)
      expect(await attempt(i % 2 ? b : a, "wrong-password")).toMatch(/Wrong email or password/);
    for (const server of [a, b])
      expect(await attempt(server, PASSWORDS.outsider)).toMatch(/HTTP 429: Too many failed sign-in attempts/);
  });

  it("refuses a deactivated annotator on both servers, at once", async () => {
    const lead = await apiSession(a.url, "lead@example.org", PASSWORDS.lead);
    const cookie = await apiSession(b.url, fx.other.email, PASSWORDS.other);
    for (const server of [a, b])
      expect((await fetch(`${server.url}/api/annotate/queue`, { headers: { Cookie: cookie } })).status).toBe(200);
    const r = await fetch(`${a.url}/api/lead/users/${fx.other.id}`, {
      method: "PATCH",
      headers: { Cookie: lead, "Content-Type": "application/json" },
      body: JSON.stringify({ active: false }),
    });
    expect(r.status).toBe(200);
    for (const server of [a, b])
      expect((await fetch(`${server.url}/api/annotate/queue`, { headers: { Cookie: cookie } })).status).toBe(401);
  });

  it("30 annotators spread over both servers: nothing lost, nothing duplicated", async () => {
    const crowd = await seedCrowd(db, 30, 10);
    const results = await Promise.all(
      crowd.annotators.map((x) => runAnnotator([a.url, b.url], x, { paceMs: 20, deadlineMs: 180_000 })),
    );
    const t = await tally(
      db,
      crowd.projectId,
      results.flatMap((r) => r.acknowledged),
    );
    console.log(
      `scale-out, 30 annotators over two servers: acknowledged ${t.acknowledged}, stored ${t.stored}, lost ${t.lost}, duplicated ${t.duplicated}, wrong grade ${t.mismatched}`,
    );
    expect(t).toEqual({ acknowledged: 300, stored: 300, lost: 0, duplicated: 0, mismatched: 0 });
  }, 240_000);
});
