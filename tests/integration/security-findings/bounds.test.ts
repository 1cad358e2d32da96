import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { useAnnotatorProject, type TestServer } from "../../helpers/fixtures.ts";
import { DEPTH_MESSAGE } from "../../../lib/bounds.ts";
import { PASSWORDS, type TFixture } from "../annotate-fixture.ts";

/**
 * Input bounds (the second outside security test), replayed through the HTTP routes of `next start` (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL): where the input rules promise 422 or 404, the second outside test got 500s:
 * - 2147483648 and 9007199254740991 in `claimVersion` (answer judgements and decisions) and in
 *   `places[].videoId` (writing and editing questions): `22003 … out of range for type integer`
 *   on PostgreSQL;
 * - a body of 10,000 nested `[` or `{"a":` on any route: `Maximum call stack size exceeded`;
 * - `%FF` or `%ED%A0%80` in any dynamic path segment: a bare text/plain 500 without the security
 *   headers; and `GET /api/auth/callback/credentials`: next-auth's 500.
 */
const project = useAnnotatorProject(async (db, fx) => {
  // One generated answer assigned to ann (as the answers fixture writes them), so the label
  // reaches the claim version check the tester's did.
  const query = await db.query.findFirstOrThrow({ where: { projectId: fx.project.id } });
  const answer = await db.answer.create({
    data: {
      projectId: fx.project.id,
      system: "gen-a",
      queryId: query.id,
      text: "One claim. Two claims.",
      contentHash: "h1",
      claims: {
        create: [
          { version: 1, position: 0, text: "One claim." },
          { version: 1, position: 1, text: "Two claims." },
        ],
      },
    },
  });
  await db.answerAssignment.create({ data: { answerId: answer.id, userId: fx.ann.id, orderKey: 0.5 } });
  answerId = answer.id;
});
let server: TestServer;
let fx: TFixture;
let ann: string;
let adj: string;
let lead: string;
let answerId: string;

beforeAll(async () => {
  ({ fx, server } = project);
  [ann, adj, lead] = await Promise.all([
    server.cookie("ann@example.org", PASSWORDS.ann),
    server.cookie("adj@example.org", PASSWORDS.adjudicator),
    server.cookie("lead@example.org", PASSWORDS.lead),
  ]);
});

type TError = { error: { code: string; details?: { path?: string; message: string }[] } };
const send = (path: string, cookie: string, body: string, method = "POST") =>
  fetch(`${server.url}${path}`, { method, headers: { Cookie: cookie, "Content-Type": "application/json" }, body });

/** The answer is a 422 naming `field`, with its message. */
async function expect422(res: Response, field: string, label: string): Promise<string[]> {
  const text = await res.text();
  expect([label, res.status, text]).toEqual([label, 422, expect.any(String)]);
  const details = (JSON.parse(text) as TError).error.details ?? [];
  expect([label, details.map((d) => d.path)]).toEqual([label, expect.arrayContaining([field])]);
  return details.map((d) => d.message);
}

/** The headers every response carries (tests/integration/security-headers.test.ts). */
function expectSecurityHeaders(label: string, r: Response) {
  expect([label, r.headers.get("x-content-type-options"), r.headers.get("x-frame-options")]).toEqual([
    label,
    "nosniff",
    "DENY",
  ]);
  expect([label, r.headers.get("content-security-policy")]).toEqual([
    label,
    expect.stringContaining("frame-ancestors 'none'"),
  ]);
}

describe("30.5 integers past 2^31 − 1 are a 422 naming the field", () => {
  const judgement = (claimVersion: number) => ({
    answerId,
    claimVersion,
    claimLabels: ["s", "n"],
    relevance: 2,
    idempotencyKey: randomUUID(),
  });
  const place = (videoId: number) => [{ videoId, start: 10, end: 20 }];

  it("claimVersion of answer judgements and decisions, places[].videoId of written and edited questions", async () => {
    const query = await project.db.query.findFirstOrThrow({
      where: { projectId: fx.project.id },
      select: { id: true },
    });
    for (const n of [2 ** 31, Number.MAX_SAFE_INTEGER]) {
      await expect422(
        await send("/api/annotate/answers/judgements", ann, JSON.stringify(judgement(n))),
        "claimVersion",
        `judgement ${n}`,
      );
      await expect422(
        await send("/api/adjudicate/answers/decisions", adj, JSON.stringify(judgement(n))),
        "claimVersion",
        `decision ${n}`,
      );
      await expect422(
        await send(
          `/api/write/projects/${fx.project.id}/questions`,
          lead,
          JSON.stringify({ text: "Where?", tags: [], places: place(n) }),
        ),
        "places.0.videoId",
        `write ${n}`,
      );
      await expect422(
        await send(
          `/api/lead/projects/${fx.project.id}/questions/${query.id}`,
          lead,
          JSON.stringify({ places: place(n) }),
          "PATCH",
        ),
        "places.0.videoId",
        `edit ${n}`,
      );
    }
    // The largest 32-bit value passes the bounds (and is then simply no video of the project).
    const largest = await send(
      `/api/write/projects/${fx.project.id}/questions`,
      lead,
      JSON.stringify({ text: "Where?", tags: [], places: place(2 ** 31 - 1) }),
    );
    expect(largest.status).toBeLessThan(500);
    expect(await largest.text()).not.toContain("expected at most 2147483647");
  });
});

describe("30.5 deeply nested bodies are a 422, not a stack overflow", () => {
  const deep = {
    arrays: "[".repeat(10_000) + "]".repeat(10_000),
    objects: '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000),
  };

  it('10,000 nested [ or {"a": on the routes with bodies', async () => {
    const routes: [string, string, string][] = [
      ["/api/annotate/judgements", ann, "POST"],
      ["/api/adjudicate/decisions", adj, "POST"],
      ["/api/lead/projects", lead, "POST"],
      [`/api/lead/projects/${fx.project.id}`, lead, "PATCH"],
      [`/api/write/projects/${fx.project.id}/questions`, lead, "POST"],
    ];
    for (const [path, cookie, method] of routes) {
      for (const [kind, body] of Object.entries(deep))
        expect(await expect422(await send(path, cookie, body, method), "(body)", `${method} ${path} ${kind}`)).toEqual([
          DEPTH_MESSAGE,
        ]);
    }
    // The server is fine afterwards.
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });
});

describe("30.5 malformed percent-encoding in a path is a 404 with the security headers", () => {
  it("%FF and %ED%A0%80 in every kind of dynamic segment: API routes, media, pages", async () => {
    for (const bad of ["%FF", "%ED%A0%80", "%E0%A4%A", "%"]) {
      const cases: [string, string][] = [
        [`/api/annotate/items/${bad}`, ann],
        [`/api/media/${bad}`, ann],
        [`/api/dashboard/${bad}/systems`, lead],
        [`/api/lead/projects/${bad}`, lead],
        [`/lead/projects/${bad}`, lead],
      ];
      for (const [path, cookie] of cases) {
        const r = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
        await r.arrayBuffer();
        expect([path, r.status]).toEqual([path, 404]);
        expectSecurityHeaders(path, r);
      }
    }
  });

  it("a GET of the credentials callback is a 405 (next-auth answered 500), with the headers", async () => {
    for (const query of ["", "?email=%FF&password=%ED%A0%80", "?error=x"]) {
      const r = await fetch(`${server.url}/api/auth/callback/credentials${query}`, { redirect: "manual" });
      expect([query, r.status, r.headers.get("allow")]).toEqual([query, 405, "POST"]);
      expectSecurityHeaders(query, r);
    }
  });
});
