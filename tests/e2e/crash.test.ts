import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../helpers/fixtures.ts";
import { freePort, startServer, type RunningServer } from "../helpers/server.ts";
import { runAnnotator, seedCrowd, tally, type TCrowd } from "../helpers/crowd.ts";
import type { Db } from "../../lib/db/client.ts";

/**
 * Crash test: 30 simulated annotators grade through the API while the app
 * server is killed with SIGKILL three times (at 20 %, 45 % and 70 % of the grades acknowledged)
 * and started again on the same port. Clients retry with their idempotency keys until they get
 * an answer. Afterwards every acknowledged grade is stored exactly once: nothing lost, nothing
 * applied twice. Runs on SQLite and, in the PostgreSQL stage of `npm test`, on PostgreSQL.
 */
const ANNOTATORS = 30;
const PER_ANNOTATOR = 12;

const testDb = useTestDatabase();
let db: Db;
let crowd: TCrowd;
let server: RunningServer;
let port: number;
const env = () => ({ DATABASE_URL: testDb.url, ASSESSOR_DASHBOARD_WARMUP: "0" });

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  crowd = await seedCrowd(db, ANNOTATORS, PER_ANNOTATOR);
  port = await freePort();
  server = await startServer(env(), { port });
});

afterAll(async () => {
  // The server is started here, not by useTestServer: the test kills it and starts it again on the same port.
  await server?.stop();
});

describe(`crash test on ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "SQLite"}`, () => {
  it("keeps every acknowledged grade exactly once across three SIGKILLs", async () => {
    const total = ANNOTATORS * PER_ANNOTATOR;
    let acked = 0;
    const kills: { at: number; downMs: number }[] = [];
    const thresholds = [0.2, 0.45, 0.7].map((f) => Math.floor(total * f));
    let crashing: Promise<void> | null = null;
    const crash = async () => {
      const t0 = Date.now();
      await server.kill("SIGKILL");
      await new Promise((r) => setTimeout(r, 300));
      server = await startServer(env(), { port });
      kills.push({ at: acked, downMs: Date.now() - t0 });
    };
    const onAck = () => {
      acked++;
      if (!crashing && kills.length < thresholds.length && acked >= thresholds[kills.length])
        crashing = crash().finally(() => (crashing = null));
    };
    const url = `http://127.0.0.1:${port}`;
    const results = await Promise.all(
      crowd.annotators.map((a) => runAnnotator([url], a, { paceMs: 40, deadlineMs: 240_000, onAck })),
    );
    while (crashing) await crashing;

    const acks = results.flatMap((r) => r.acknowledged);
    const t = await tally(db, crowd.projectId, acks);
    const retries = results.reduce((n, r) => n + r.retries, 0);
    const statuses: Record<string, number> = {};
    for (const r of results) for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
    console.log(
      `crash test (${testDb.provider}): ${ANNOTATORS} annotators, ${total} grades; SIGKILL ×${kills.length} at ${kills.map((k) => `${k.at} acknowledged (down ${k.downMs} ms)`).join(", ")}; ` +
        `acknowledged ${t.acknowledged}, stored ${t.stored}, lost ${t.lost}, duplicated ${t.duplicated}, wrong grade ${t.mismatched}; ${retries} retries; answers ${JSON.stringify(statuses)}`,
    );
    expect(kills).toHaveLength(3);
    expect(results.flatMap((r) => r.refused)).toEqual([]);
    expect(t).toEqual({ acknowledged: total, stored: total, lost: 0, duplicated: 0, mismatched: 0 });
  }, 300_000);
});
