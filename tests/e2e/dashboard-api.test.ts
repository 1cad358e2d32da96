import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { useAgreementProject, type AgreementProject } from "../helpers/agreement-project.ts";
import { runCliOk as cli } from "../helpers/cli.ts";
import { useTestServer } from "../helpers/fixtures.ts";
import type { ApiClient } from "../helpers/api.ts";

/**
 * The dashboard's HTTP endpoints against next start:
 * - acceptance: the judge-vs-human endpoint returns exactly the figures of
 *   `assessor agreement HUMAN JUDGE --format json` on the two imported qrels files;
 * - roles: an annotator gets 403 from every dashboard route (and the page); an adjudicator reads
 *   every panel but may not sample for calibration (assignment is the lead's); signed out is 401;
 * - the lead's "sample for calibration": a clear 422 without a pool, then, with one, assignments
 *   marked calibration and the calibration panel's unassigned count going down.
 * Build first: NEXT_DIST_DIR=.next-dashboard npx next build; run with the same NEXT_DIST_DIR.
 */
const project = useAgreementProject("assessor-dash-api-");
let db: Db;
let files: AgreementProject["files"];
let projectId: number;
const clients: Record<string, ApiClient> = {};

const PANELS = [
  "meta",
  "agreement",
  "human",
  "breakdowns",
  "calibration",
  "progress",
  "systems",
  "ppi",
  "retest",
  "version",
];

beforeAll(async () => {
  files = project.files;
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  projectId = (await db.project.findUniqueOrThrow({ where: { name: "agree" } })).id;
  for (const role of ["lead", "adjudicator", "annotator"] as const)
    await createUser(db, { email: `${role}@example.org`, name: role, role, password: `${role}-password` });
});
const server = useTestServer();
beforeAll(async () => {
  for (const role of ["lead", "adjudicator", "annotator"])
    clients[role] = await server.client(`${role}@example.org`, `${role}-password`);
  clients.signedOut = await server.client();
});

const get = (path: string, role = "signedOut") => clients[role].fetch(path);
const post = (path: string, body: unknown, role = "signedOut") =>
  clients[role].fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("judge-vs-human endpoint equals `assessor agreement`", () => {
  it("returns every figure of the CLI's JSON, intervals included", async () => {
    const expected: unknown = JSON.parse(
      cli(["agreement", files.human, files.judge, "--format", "json", "--bootstrap", "1000", "--seed", "1"]),
    );
    const res = await get(`/api/dashboard/${projectId}/agreement`, "lead");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { judges: { name: string; report: unknown }[] };
    expect(body.judges.map((j) => j.name)).toEqual(["llm-a"]);
    expect(body.judges[0].report).toEqual(expected);
    expect(body.judges[0].report).toMatchObject({ n: 237 });
  });

  it("a tag slice answers with the pairs of that tag only (10 named-entity queries × 8 chunks, less 1 unmatched)", async () => {
    const res = await get(`/api/dashboard/${projectId}/agreement?tag=named-entity`, "adjudicator");
    const body = (await res.json()) as { judges: { report: { n: number } }[] };
    // named-entity queries: q00, q03, …, q27 (q % 3 == 0); q09's c09_0 has no judge label.
    expect(body.judges[0].report.n).toBe(79);
  });
});

describe("roles", () => {
  it("an annotator gets 403 from every dashboard route and from the page", async () => {
    const paths = ["/api/dashboard/projects", ...PANELS.map((p) => `/api/dashboard/${projectId}/${p}`)];
    for (const path of paths) expect([path, (await get(path, "annotator")).status]).toEqual([path, 403]);
    expect((await post(`/api/dashboard/${projectId}/sample`, { n: 5 }, "annotator")).status).toBe(403);
    expect((await get("/dashboard", "annotator")).status).toBe(403);
  });

  it("signed out is 401; an adjudicator reads every panel but may not sample", async () => {
    expect((await get(`/api/dashboard/${projectId}/agreement`)).status).toBe(401);
    for (const p of PANELS)
      expect([p, (await get(`/api/dashboard/${projectId}/${p}`, "adjudicator")).status]).toEqual([p, 200]);
    expect((await post(`/api/dashboard/${projectId}/sample`, { n: 5 }, "adjudicator")).status).toBe(403);
    expect((await get("/dashboard", "adjudicator")).status).toBe(200);
  });

  it("unknown panels and projects are 404, bad filters 422", async () => {
    expect((await get(`/api/dashboard/${projectId}/nope`, "lead")).status).toBe(404);
    expect((await get(`/api/dashboard/999999/agreement`, "lead")).status).toBe(404);
    expect((await get(`/api/dashboard/${projectId}/systems?source=everything`, "lead")).status).toBe(422);
    expect((await get(`/api/dashboard/${projectId}/systems?judge=nobody`, "lead")).status).toBe(404);
  });
});

describe("sample for calibration (the lead's button)", () => {
  it("says to build the pool first when there is none, and changes nothing", async () => {
    const res = await post(`/api/dashboard/${projectId}/sample`, { n: 5, perItem: 1 }, "lead");
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      "the pool is empty: build it first with: npx assessor pool --depth K",
    );
    expect(await db.assignment.count()).toBe(0);
  });

  it("with a pool: assigns the sample, marked calibration, and the panel's unassigned count drops", async () => {
    // One run ranking every human-labelled chunk of each query (file order), pooled at depth 3.
    const lines = readFileSync(files.human, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(/\s+/));
    const rank = new Map<string, number>();
    const run = lines.map(([qid, , docid]) => {
      const r = (rank.get(qid) ?? 0) + 1;
      rank.set(qid, r);
      return `${qid} Q0 ${docid} ${r} ${100 - r} sys`;
    });
    const runFile = join(project.dir, "sys.run");
    writeFileSync(runFile, run.join("\n") + "\n");
    cli(["import", "run", "--project", "agree", "--system", "sys", runFile]);
    cli(["pool", "--project", "agree", "--depth", "3"]);
    const pooled = await db.poolItem.count({ where: { projectId } });
    // Every pooled pair has an imported human label: unassigned as `status` counts them (stage
    // "imported"), so the card counts them apart, as items a sample may draw to re-grade.
    type TCounts = { unassignedPoolItems: number; regradablePoolItems: number };
    const before = (await (await get(`/api/dashboard/${projectId}/calibration`, "lead")).json()) as TCounts;
    expect(before.unassignedPoolItems + before.regradablePoolItems).toBe(pooled);
    const res = await post(`/api/dashboard/${projectId}/sample`, { n: 5, perItem: 1, seed: 7 }, "lead");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ items: 5, created: 5, calibration: 5, seed: 7 });
    const rows = await db.assignment.findMany({ where: { poolItem: { projectId } } });
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.calibration)).toBe(true);
    const after = (await (await get(`/api/dashboard/${projectId}/calibration`, "lead")).json()) as TCounts;
    expect(after.unassignedPoolItems + after.regradablePoolItems).toBe(pooled - 5);
  });
});
