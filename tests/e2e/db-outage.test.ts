import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { CROWD_PASSWORD, runAnnotator, seedCrowd, tally, type TCrowd } from "../helpers/crowd.ts";
import { startTcpProxy, type TTcpProxy } from "../helpers/tcp-proxy.ts";
import type { Db } from "../../lib/db/client.ts";

/**
 * Database outage: the app server reaches PostgreSQL through a TCP proxy,
 * which is cut for 20 s while 30 annotators grade. Meanwhile the server answers 503 with
 * Retry-After (never 500), clients keep their grades and retry with the same keys, the server
 * recovers by itself when the database is back (same process, no restart), and every
 * acknowledged grade is stored exactly once. PostgreSQL only: runs in the PostgreSQL stage.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);
const OUTAGE_MS = 20_000;
const testDb = useTestDatabase();
let db: Db;
let crowd: TCrowd;
let proxy: TTcpProxy;
let viaProxy: URL;

beforeAll(async () => {
  if (!pg) return;
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  crowd = await seedCrowd(db, 30, 8);
  const direct = new URL(testDb.url);
  proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  viaProxy = new URL(testDb.url);
  viaProxy.hostname = "127.0.0.1";
  viaProxy.port = String(proxy.port);
});
// Registered before the server, so it runs after the server stopped (after-hooks run in reverse).
afterAll(async () => {
  await proxy?.close();
});
// On SQLite the file's only describe is skipped, so Vitest runs none of these hooks.
const server = useTestServer({ env: () => ({ DATABASE_URL: viaProxy.toString(), ASSESSOR_DASHBOARD_WARMUP: "0" }) });

describe.skipIf(!pg)("PostgreSQL unreachable for 20 s during grading", () => {
  it("answers 503 with a retry hint, recovers without a restart, and loses nothing acknowledged", async () => {
    const total = 30 * 8;
    let acked = 0;
    const probeCookie = await server.cookie(crowd.annotators[0].email, CROWD_PASSWORD);
    const state: { outage: Promise<{ during: { status: number; retryAfter: string | null }; health: number }> | null } =
      { outage: null };
    const startOutage = async () => {
      await proxy.cut();
      await new Promise((r) => setTimeout(r, 1000));
      // What a client sees meanwhile: a definite 503 with Retry-After, not a hang or a 500.
      const probe = await fetch(`${server.url}/api/annotate/queue`, { headers: { Cookie: probeCookie } });
      await probe.arrayBuffer();
      const during = { status: probe.status, retryAfter: probe.headers.get("retry-after") };
      const health = (await fetch(`${server.url}/api/health`)).status;
      await new Promise((r) => setTimeout(r, OUTAGE_MS - 1000));
      await proxy.restore();
      return { during, health };
    };
    const onAck = () => {
      acked++;
      if (!state.outage && acked >= total * 0.25) state.outage = startOutage();
    };
    const results = await Promise.all(
      crowd.annotators.map((x) => runAnnotator([server.url], x, { paceMs: 50, deadlineMs: 180_000, onAck })),
    );
    const seen = state.outage ? await state.outage : null;
    const statuses: Record<string, number> = {};
    for (const r of results) for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
    const t = await tally(
      db,
      crowd.projectId,
      results.flatMap((r) => r.acknowledged),
    );
    console.log(
      `database outage (${OUTAGE_MS / 1000} s): acknowledged ${t.acknowledged}, stored ${t.stored}, lost ${t.lost}, duplicated ${t.duplicated}, wrong grade ${t.mismatched}; answers ${JSON.stringify(statuses)}; ` +
        `a request during the outage: ${seen?.during.status} Retry-After ${seen?.during.retryAfter}; /api/health ${seen?.health}`,
    );
    const internal = server
      .logs()
      .split("\n")
      .filter((l, i, all) => /internal error/.test(all[i - 1] ?? "") || /internal error/.test(l));
    if (internal.length) console.log(`internal errors in the server's log:\n${internal.slice(0, 12).join("\n")}`);
    expect(seen).not.toBeNull();
    expect(statuses["500"]).toBeUndefined();
    expect(statuses["503"]).toBeGreaterThan(0);
    expect(seen?.during.status).toBe(503);
    expect(Number(seen?.during.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(results.flatMap((r) => r.refused)).toEqual([]);
    expect(t).toEqual({ acknowledged: total, stored: total, lost: 0, duplicated: 0, mismatched: 0 });
    // The same process served before, during and after.
    expect(server.logs()).not.toMatch(/exited|EADDRINUSE/);
  }, 240_000);
});
