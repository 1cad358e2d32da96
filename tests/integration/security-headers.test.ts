import { beforeAll, describe, expect, it } from "vitest";
import { useTestDatabase, useTestServer } from "../helpers/fixtures.ts";
import { PASSWORDS, seedAnnotationFixture, type TFixture } from "./annotate-fixture.ts";
import { isCrossOrigin, STATIC_HEADERS } from "../../lib/http/security.ts";

/**
 * Security headers on every response, cross-origin writes refused, auth errors 4xx. The browser side (pages pass their policy, YouTube's player included) is in
 * tests/e2e/csp.test.ts and tests/e2e/youtube.test.ts.
 */
useTestDatabase();
let fx: TFixture;
let ann: string;

beforeAll(async () => {
  const { getDb } = await import("../../lib/db/client.ts");
  fx = await seedAnnotationFixture(await getDb());
});
const server = useTestServer();
beforeAll(async () => {
  ann = await server.cookie("ann@example.org", PASSWORDS.ann);
});

function expectBaseHeaders(path: string, r: Response) {
  expect([path, r.headers.get("x-content-type-options")]).toEqual([path, "nosniff"]);
  expect([path, r.headers.get("referrer-policy")]).toEqual([path, "same-origin"]);
  expect([path, r.headers.get("x-frame-options")]).toEqual([path, "DENY"]);
  const csp = r.headers.get("content-security-policy") ?? "";
  expect([path, csp]).toEqual([path, expect.stringContaining("frame-ancestors 'none'")]);
  // One policy, not two (a second, stricter one would be enforced too).
  expect([path, csp.split("frame-ancestors").length]).toEqual([path, 2]);
  return csp;
}

describe("headers on every response", () => {
  it("pages: a policy with a fresh nonce that Next puts on its scripts; YouTube's player allowed", async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${server.url}/login`);
      expect(r.status).toBe(200);
      const csp = expectBaseHeaders("/login", r);
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? "";
      expect(nonce.length).toBeGreaterThanOrEqual(16);
      expect(csp).toContain("script-src 'self' 'nonce-");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      expect(csp).not.toContain("'unsafe-eval'");
      expect(csp).toContain("frame-src https://www.youtube.com");
      expect(csp).toContain("object-src 'none'");
      const html = await r.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const s of scripts) expect(s).toContain(`nonce="${nonce}"`);
      nonces.push(nonce);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("API answers, media, errors, static files and the icon", async () => {
    const login = await (await fetch(`${server.url}/login`)).text();
    const chunk = /src="(\/_next\/static\/[^"]+\.js)"/.exec(login)?.[1];
    expect(chunk).toBeTruthy();
    const paths: [string, Record<string, string>, number][] = [
      ["/api/health", {}, 200],
      ["/api/annotate/queue", {}, 401],
      ["/api/annotate/queue", { Cookie: ann }, 200],
      [`/api/media/${fx.fileVideo.id}`, { Cookie: ann, Range: "bytes=0-9" }, 206],
      ["/api/auth/csrf", {}, 200],
      ["/no-such-page", {}, 404],
      [chunk ?? "", {}, 200],
      ["/icon.svg", {}, 200],
      ["/annotate", { Cookie: ann }, 200],
    ];
    for (const [path, headers, status] of paths) {
      const r = await fetch(`${server.url}${path}`, { headers, redirect: "manual" });
      expect([path, r.status]).toEqual([path, status]);
      expectBaseHeaders(path, r);
      await r.arrayBuffer();
    }
  });

  it("next.config.js sends the same static headers as lib/http/security.ts", async () => {
    const r = await fetch(`${server.url}/api/health`);
    for (const [k, v] of Object.entries(STATIC_HEADERS)) expect([k, r.headers.get(k)]).toEqual([k, v]);
  });
});

describe("cross-origin writes", () => {
  const judgement = (headers: Record<string, string>) =>
    fetch(`${server.url}/api/annotate/judgements`, {
      method: "POST",
      headers: { Cookie: ann, "Content-Type": "application/json", ...headers },
      body: "{}",
    });

  it("refuses a state-changing request whose Origin is another site (403), even with a valid session", async () => {
    const r = await judgement({ Origin: "https://evil.example" });
    expect(r.status).toBe(403);
    expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/cross-origin/);
    expect((await judgement({ Origin: "null" })).status).toBe(403);
    expect((await judgement({ "Sec-Fetch-Site": "cross-site" })).status).toBe(403);
    // Same origin (and no Origin at all: the CLI, scripts) reach the handler: 422 for the empty body.
    expect((await judgement({ Origin: server.url })).status).toBe(422);
    expect((await judgement({})).status).toBe(422);
  });

  it("refuses a cross-origin sign-in and sign-out", async () => {
    for (const action of ["callback/credentials", "signout"]) {
      const r = await fetch(`${server.url}/api/auth/${action}`, {
        method: "POST",
        redirect: "manual",
        headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
        body: "csrfToken=x",
      });
      expect([action, r.status]).toEqual([action, 403]);
    }
  });

  it("decides by scheme and host, NEXTAUTH_URL, a trusted proxy's X-Forwarded-Proto/Host and Sec-Fetch-Site (unit)", () => {
    const req = (headers: Record<string, string>, method = "POST") =>
      new Request("http://internal:3000/api/x", { method, headers });
    const proxied = { Host: "internal:3000", "X-Forwarded-Host": "app.example", "X-Forwarded-Proto": "https" };
    expect(isCrossOrigin(req({ Origin: "http://app.example", Host: "app.example" }), {})).toBe(false);
    // The scheme counts, and X-Forwarded-* only when a proxy is trusted.
    expect(isCrossOrigin(req({ Origin: "https://app.example", Host: "app.example" }), {})).toBe(true);
    expect(isCrossOrigin(req({ Origin: "https://app.example", ...proxied }), {})).toBe(true);
    expect(
      isCrossOrigin(req({ Origin: "https://app.example", ...proxied }), { ASSESSOR_TRUSTED_PROXY_HOPS: "1" }),
    ).toBe(false);
    expect(isCrossOrigin(req({ Origin: "http://app.example", ...proxied }), { ASSESSOR_TRUSTED_PROXY_HOPS: "1" })).toBe(
      true,
    );
    expect(
      isCrossOrigin(req({ Origin: "https://evil.example", ...proxied, "X-Forwarded-Host": "evil.example" }), {}),
    ).toBe(true);
    expect(
      isCrossOrigin(req({ Origin: "https://public.example", Host: "internal:3000" }), {
        NEXTAUTH_URL: "https://public.example",
      }),
    ).toBe(false);
    expect(
      isCrossOrigin(req({ Origin: "http://public.example", Host: "internal:3000" }), {
        NEXTAUTH_URL: "https://public.example",
      }),
    ).toBe(true);
    expect(isCrossOrigin(req({ Origin: "https://evil.example", Host: "app.example" }))).toBe(true);
    expect(isCrossOrigin(req({ Origin: "https://evil.example", Host: "app.example" }, "GET"))).toBe(false);
    expect(isCrossOrigin(req({ Host: "app.example", "Sec-Fetch-Site": "same-origin" }))).toBe(false);
  });
});

describe("auth errors are 4xx, never 500", () => {
  it("sign-out without a CSRF token, a malformed body, an unknown provider", async () => {
    const cases: [string, RequestInit][] = [
      ["/api/auth/signout", { method: "POST" }],
      ["/api/auth/signout", { method: "POST", headers: { Cookie: ann } }],
      ["/api/auth/signout", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{not json" }],
      [
        "/api/auth/callback/credentials",
        { method: "POST", headers: { "Content-Type": "application/json" }, body: "{not json" },
      ],
      ["/api/auth/callback/credentials", { method: "POST" }],
      [
        "/api/auth/callback/nope",
        { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "csrfToken=x" },
      ],
      ["/api/auth/nope", { method: "GET" }],
    ];
    for (const [path, init] of cases) {
      const r = await fetch(`${server.url}${path}`, { ...init, redirect: "manual" });
      const label = `${init.method} ${path} ${String(init.body ?? "")}`;
      expect([label, r.status < 500]).toEqual([label, true]);
      expectBaseHeaders(path, r);
    }
  });
});
