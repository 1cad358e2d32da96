import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../lib/db/client.ts";
import { createUser } from "../../lib/users/users.ts";
import { importAgreementProject, type AgreementProject } from "../helpers/agreement-project.ts";
import { runCliOk as cli } from "../helpers/cli.ts";
import { apiSession } from "../helpers/login.ts";
import { startServer, type RunningServer } from "../helpers/server.ts";

/**
 * The dashboard's HTTP endpoints against next start:
 * - acceptance (issue 5): the judge-vs-human endpoint returns exactly the figures of
 *   `assessor agreement HUMAN JUDGE --format json` on the two imported qrels files;
 * - roles: an annotator gets 403 from every dashboard route (and the page); an adjudicator reads
 *   every panel but may not sample for calibration (assignment is the lead's); signed out is 401.
 * Build first: NEXT_DIST_DIR=.next-dashboard npx next build; run with the same NEXT_DIST_DIR.
 */
let project: AgreementProject;
let db: Db;
let server: RunningServer;
let files: AgreementProject["files"];
let projectId: number;
const cookies: Record<string, string> = {};

const PANELS = ["meta", "agreement", "human", "breakdowns", "calibration", "progress", "systems"];

beforeAll(async () => {
  project = await importAgreementProject("assessor-dash-api-");
  files = project.files;
  const { getDb } = await import("../../lib/db/client.ts");
  db = await getDb();
  projectId = (await db.project.findUniqueOrThrow({ where: { name: "agree" } })).id;
  for (const role of ["lead", "adjudicator", "annotator"] as const) await createUser(db, { email: `${role}@example.org`, name: role, role, password: `${role}-password` });
  server = await startServer({ DATABASE_URL: project.testDb.url });
  for (const role of ["lead", "adjudicator", "annotator"]) cookies[role] = await apiSession(server.url, `${role}@example.org`, `${role}-password`);
});

afterAll(async () => {
  await server?.stop();
  await project?.cleanup();
});

const get = (path: string, role?: string) => fetch(`${server.url}${path}`, { headers: role ? { Cookie: cookies[role] } : {}, redirect: "manual" });
const post = (path: string, body: unknown, role?: string) =>
  fetch(`${server.url}${path}`, { method: "POST", headers: { "Content-Type": "application/json", ...(role ? { Cookie: cookies[role] } : {}) }, body: JSON.stringify(body), redirect: "manual" });

describe("judge-vs-human endpoint equals `assessor agreement`", () => {
  it("returns every figure of the CLI's JSON, intervals included", async () => {
    const expected: unknown = JSON.parse(cli(["agreement", files.human, files.judge, "--format", "json", "--bootstrap", "1000", "--seed", "1"]));
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
    for (const p of PANELS) expect([p, (await get(`/api/dashboard/${projectId}/${p}`, "adjudicator")).status]).toEqual([p, 200]);
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
